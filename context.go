package memoria

import (
	"context"
	"fmt"
	"strings"
	"time"

	"memoria/forget"
	"memoria/recall"
)

// DefaultContextBudget is the token budget of a turn context unless told
// otherwise.
const DefaultContextBudget = 2000

// ContextOptions shape a turn context. The zero value asks for
// DefaultContextBudget tokens, recalling with default options.
type ContextOptions struct {
	// Budget bounds the whole packet in estimated tokens (see
	// EstimateTextTokens); 0 means DefaultContextBudget.
	Budget int
	// Recall shapes the recall part (K, Since, Kinds, Now…). Its Budget is
	// ignored: what core memory leaves of Budget is used instead.
	Recall RecallOptions
}

// TurnContext is what an agent injects at the start of a turn: core memory
// first, then the recall packet for the turn's query, together within a
// token budget.
type TurnContext struct {
	Query    string          `json:"query"`
	Budget   int             `json:"budget"`
	Tokens   int             `json:"tokens"`    // estimated tokens of Markdown(), always <= Budget
	CorePath string          `json:"core_path"` // memory.md or MEMORY.md, workspace-relative
	Core     string          `json:"core"`      // core memory (possibly cut at a line)
	CoreCut  bool            `json:"core_cut"`  // core memory did not fit whole
	Results  []recall.Result `json:"results"`   // best first, each citing its lines
}

// EstimateTextTokens is the token estimate of a turn context: the rule of
// recall.TextTokens (a token per four ASCII bytes, one per other
// character), which also bounds RecallOptions.Budget.
func EstimateTextTokens(s string) int {
	return recall.TextTokens(s)
}

// Context builds the text to inject at the start of a turn: core memory
// (memory.md), then the best recall results for query that fit in what is
// left of the budget. An empty query gives core memory and the most
// relevant recent memory. Results from core memory itself are not repeated.
// The estimate of the Markdown rendering never exceeds the budget: core
// memory is cut at a line if it alone would, and results are dropped from
// the end until the whole fits.
func (w *Workspace) Context(ctx context.Context, query string, o ContextOptions) (TurnContext, error) {
	budget := o.Budget
	if budget <= 0 {
		budget = DefaultContextBudget
	}
	tc := TurnContext{Query: query, Budget: budget, CorePath: w.CorePath(), Results: []recall.Result{}}
	core, err := w.CoreShow("")
	if err != nil {
		return tc, fmt.Errorf("core memory: %w", err)
	}
	// What the workspace forgot, put back into memory.md by hand, is not
	// injected, as recall does not return it; nor are tombstones.
	gone, err := forget.Load(w.dir)
	if err != nil {
		return tc, err
	}
	tc.Core = strings.TrimSpace(string(forget.Mask([]byte(core), gone)))
	// Core memory may take at most the budget less the frame around it
	// (a few tokens of slack absorb the rounding of the estimate).
	frame := EstimateTextTokens(TurnContext{CorePath: tc.CorePath}.render(nil)) + 4
	if least := frame + EstimateTextTokens(coreCutNote); budget < least {
		return tc, fmt.Errorf("%w: a budget of %d tokens is too small for a turn context: give at least %d", ErrInvalid, budget, least)
	}
	if EstimateTextTokens(tc.render(nil)) > budget {
		tc.Core, tc.CoreCut = cutToTokens(tc.Core, budget-frame-EstimateTextTokens(coreCutNote)), true
	}
	left := budget - EstimateTextTokens(tc.render(nil))
	if left > recall.EstimateTokens(recall.Result{}) {
		ro := o.Recall
		ro.Budget = left
		ro.Explain = false
		ro.Floor = true // better no recall than the best of nothing
		if ro.Now.IsZero() {
			ro.Now = time.Now()
		}
		results, err := w.Recall(ctx, query, ro)
		if err != nil {
			return tc, err
		}
		for _, r := range results {
			if !tc.CoreCut && strings.HasPrefix(r.Source, tc.CorePath+"#") {
				continue // already above, whole
			}
			tc.Results = append(tc.Results, r)
		}
	}
	for len(tc.Results) > 0 && EstimateTextTokens(tc.render(tc.Results)) > budget {
		tc.Results = tc.Results[:len(tc.Results)-1]
	}
	tc.Tokens = EstimateTextTokens(tc.Markdown())
	return tc, nil
}

const coreCutNote = "\n\n(core memory cut to fit the budget: `memoria core show` prints all of it)"

// Markdown renders the turn context for a prompt: a "Core memory" section
// with memory.md, then a "Recalled" section with one bullet per result
// citing its source (path#Lx-Ly, readable with `memoria get`).
func (tc TurnContext) Markdown() string { return tc.render(tc.Results) }

func (tc TurnContext) render(results []recall.Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Memory (%s)\n\n", tc.CorePath)
	if tc.Core == "" {
		b.WriteString("(core memory is empty)\n")
	} else {
		b.WriteString(demote(tc.Core))
		if tc.CoreCut {
			b.WriteString(coreCutNote)
		}
		b.WriteString("\n")
	}
	if len(results) == 0 {
		return b.String()
	}
	if tc.Query != "" {
		fmt.Fprintf(&b, "\n# Recalled for %q\n\n", tc.Query)
	} else {
		b.WriteString("\n# Recalled\n\n")
	}
	for _, r := range results {
		text := strings.TrimSpace(r.Content)
		content := strings.ReplaceAll(text, "\n", "\n  ")
		if note := r.TruncationNote(); note != "" {
			content += " " + note
		}
		if startsListItem(text) {
			// Cited lines that are list items themselves ("- Weight: …")
			// nest under the citation; a bullet of a bullet ("- - …")
			// read as an empty item.
			fmt.Fprintf(&b, "- [%s; %s]\n  %s\n", r.Meta(false), r.Source, content)
			continue
		}
		fmt.Fprintf(&b, "- %s [%s; %s]\n", content, r.Meta(false), r.Source)
	}
	return b.String()
}

// startsListItem reports whether text starts with a Markdown list marker
// ("- ", "* ", "+ ", "1. ", "2) ").
func startsListItem(text string) bool {
	if len(text) >= 2 && strings.ContainsRune("-*+", rune(text[0])) && (text[1] == ' ' || text[1] == '\t') {
		return true
	}
	i := 0
	for i < len(text) && text[i] >= '0' && text[i] <= '9' {
		i++
	}
	return i > 0 && i+1 < len(text) && (text[i] == '.' || text[i] == ')') && text[i+1] == ' '
}

// demote turns core memory's own "# Title" into "## Title" so that it
// nests under the context's heading; deeper headings are kept.
func demote(s string) string {
	if strings.HasPrefix(s, "# ") {
		return "#" + s
	}
	return s
}

// cutToTokens keeps whole lines of s from the start while their estimate
// stays within n tokens.
func cutToTokens(s string, n int) string {
	if n <= 0 {
		return ""
	}
	lines := strings.SplitAfter(s, "\n")
	var b strings.Builder
	for _, l := range lines {
		if EstimateTextTokens(b.String()+l) > n {
			break
		}
		b.WriteString(l)
	}
	return strings.TrimRight(b.String(), "\n")
}
