package mcp

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"memoria"
	"memoria/recall"
	"memoria/workspace"
)

// DefaultK is how many results the recall tool returns unless asked.
const DefaultK = 10

// Tools are the built-in tools: recall, get, retain, core, context,
// reflect, forget and status.
func Tools() []Tool {
	return []Tool{
		{"recall", addRecall},
		{"get", addGet},
		{"retain", addRetain},
		{"core", addCore},
		{"context", addContext},
		{"reflect", addReflect},
		{"forget", addForget},
		{"status", addStatus},
	}
}

// ForgetInput is the forget tool's input.
type ForgetInput struct {
	Sources []string `json:"sources,omitempty" jsonschema:"the lines to forget, as recall cites them: path#L12 or path#L12-L15 (lines of memory files only)"`
	Entity  []string `json:"entity,omitempty" jsonschema:"forget every line that names one of these entities (name, alias or slug)"`
	Query   string   `json:"query,omitempty" jsonschema:"forget the lines of the results of recalling this query"`
	K       int      `json:"k,omitempty" jsonschema:"with query: how many of its results (default 5)"`
	Reason  string   `json:"reason,omitempty" jsonschema:"why, kept in the tombstone and the record (one line)"`
	NoTrace bool     `json:"no_trace,omitempty" jsonschema:"leave no tombstone where the lines were (the record of their hashes is kept all the same)"`
	DryRun  bool     `json:"dry_run,omitempty" jsonschema:"report exactly which lines of which files would go, and change nothing: do this first and show it to the user"`
	Now     string   `json:"now,omitempty" jsonschema:"the day to record: YYYY-MM-DD (default: today); also the query's now"`
}

func addForget(s *Server) {
	AddTool(s, &sdk.Tool{
		Name:  "forget",
		Title: "Forget memory",
		Description: "Remove lines from long-term memory for good: by citation (sources), by entity (every line that names it) or by a recall query's results, with every copy of them. " +
			"A tombstone is left where they were unless no_trace, and a record of their hashes (never the text) keeps any later index or import from bringing them back. " +
			"Only when the user asks to forget something: run it with dry_run first, show the user the lines, and apply only once they agree.",
		Annotations: &sdk.ToolAnnotations{DestructiveHint: ptr(true), IdempotentHint: true, OpenWorldHint: ptr(false)},
	}, func(ctx context.Context, _ *sdk.CallToolRequest, in ForgetInput) (*sdk.CallToolResult, memoria.ForgetReport, error) {
		o := memoria.ForgetOptions{Sources: in.Sources, Entities: in.Entity, Query: in.Query, K: in.K, Reason: in.Reason, NoTrace: in.NoTrace, DryRun: in.DryRun}
		if in.K < 0 {
			return nil, memoria.ForgetReport{}, errors.New("k must not be negative")
		}
		if err := parseNow(in.Now, &o.Now); err != nil {
			return nil, memoria.ForgetReport{}, err
		}
		var rep memoria.ForgetReport
		err := s.Write(func() error {
			var err error
			rep, err = s.ws.Forget(ctx, o)
			return err
		})
		if err != nil {
			return nil, memoria.ForgetReport{}, fmt.Errorf("forget: %w", err)
		}
		for i := range rep.Files {
			if rep.Files[i].Lines == nil {
				rep.Files[i].Lines = []memoria.ForgetLine{}
			}
		}
		return text(renderForget(rep)), rep, nil
	})
}

// plural is "1 line", "2 lines", "2 new hashes".
func plural(n int, noun string) string {
	switch {
	case n == 1:
		return "1 " + noun
	case strings.HasSuffix(noun, "sh"):
		return fmt.Sprintf("%d %ses", n, noun)
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// renderForget is the text content of a forget: what went, line by line.
func renderForget(rep memoria.ForgetReport) string {
	var b strings.Builder
	what := plural(rep.Lines, "line") + " in " + plural(len(rep.Files), "file")
	if rep.DryRun {
		fmt.Fprintf(&b, "Dry run: %s would be forgotten (nothing was changed):\n", what)
	} else {
		fmt.Fprintf(&b, "Forgot %s; %s in %s, %s removed:\n", what, plural(rep.Recorded, "new hash"), rep.Record, plural(rep.Vectors, "vector"))
	}
	for _, f := range rep.Files {
		b.WriteString(f.Path)
		if f.Removed {
			b.WriteString(" (the whole page)")
		}
		b.WriteString("\n")
		for _, l := range f.Lines {
			fmt.Fprintf(&b, "  L%d %s (%s)\n", l.Line, l.Text, l.Why)
		}
	}
	if rep.Tombstone != "" {
		fmt.Fprintf(&b, "Tombstone: %s\n", rep.Tombstone)
	}
	return b.String()
}

// ReflectInput is the reflect tool's input.
type ReflectInput struct {
	Since  string `json:"since,omitempty" jsonschema:"only facts written since then count as new evidence: 7d, 2w, YYYY-MM-DD; empty for all history"`
	DryRun bool   `json:"dry_run,omitempty" jsonschema:"compute and return the diff, write nothing"`
	Now    string `json:"now,omitempty" jsonschema:"treat this as the current time: YYYY-MM-DD or YYYY-MM-DDTHH:MM"`
}

// ReflectOutput is the reflect tool's structured output.
type ReflectOutput struct {
	Facts     int      `json:"facts" jsonschema:"typed facts read from the daily logs"`
	Opinions  []string `json:"opinions" jsonschema:"each opinion changed: statement, confidence before and after, the evidence cited"`
	Pages     []string `json:"pages" jsonschema:"entity pages created or updated"`
	Proposals int      `json:"proposals" jsonschema:"new core-memory proposals in review/core-proposals.md (never written to memory.md)"`
	Changed   []string `json:"changed" jsonschema:"files written (or, with dry_run, that would be)"`
	Warnings  []string `json:"warnings"`
	Diff      string   `json:"diff,omitempty" jsonschema:"unified diff, with dry_run"`
}

func addReflect(s *Server) {
	AddTool(s, &sdk.Tool{
		Name:  "reflect",
		Title: "Reflect on recent memory",
		Description: "Turn the typed facts of the daily logs into reviewable pages: entity pages (a managed block in bank/entities/), opinions in bank/opinions.md whose confidence follows cited evidence, and proposals for core memory. " +
			"Run it daily or after a long session; a second run changes nothing. Refuses to overwrite a file that changed meanwhile.",
		Annotations: &sdk.ToolAnnotations{IdempotentHint: true, OpenWorldHint: ptr(false)},
	}, func(ctx context.Context, _ *sdk.CallToolRequest, in ReflectInput) (*sdk.CallToolResult, ReflectOutput, error) {
		o := memoria.ReflectOptions{DryRun: in.DryRun}
		if err := parseNow(in.Now, &o.Now); err != nil {
			return nil, ReflectOutput{}, err
		}
		if err := parseBound("since", in.Since, o.Now, &o.Since); err != nil {
			return nil, ReflectOutput{}, err
		}
		rep, err := s.ws.Reflect(ctx, o)
		if err != nil {
			return nil, ReflectOutput{}, err
		}
		out := ReflectOutput{Facts: rep.Facts, Proposals: rep.Proposals, Changed: rep.Changed, Warnings: rep.Warnings, Diff: rep.Diff,
			Opinions: []string{}, Pages: []string{}}
		for _, c := range rep.Opinions {
			out.Opinions = append(out.Opinions, fmt.Sprintf("%s (c %.2f -> %.2f; %s)", c.Statement, c.Before, c.After, strings.Join(c.Evidence, "; ")))
		}
		for _, p := range rep.Pages {
			out.Pages = append(out.Pages, p.Path)
		}
		if out.Changed == nil {
			out.Changed = []string{}
		}
		if out.Warnings == nil {
			out.Warnings = []string{}
		}
		summary := fmt.Sprintf("reflect: %d facts read, %d opinions changed, %d pages, %d new core proposals; files: %s",
			out.Facts, len(out.Opinions), len(out.Pages), out.Proposals, strings.Join(out.Changed, ", "))
		if in.DryRun {
			summary += "\n" + rep.Diff
		}
		return text(summary), out, nil
	})
}

func ptr[T any](v T) *T { return &v }

// parseNow sets *dst from a tool's "now" argument, when it is given.
func parseNow(s string, dst *time.Time) error {
	if s == "" {
		return nil
	}
	t, err := memoria.ParseNow(s)
	if err != nil {
		return fmt.Errorf("now: %w", err)
	}
	*dst = t
	return nil
}

// parseBound reads the time bound argument name into dst, relative to now
// (the clock when zero).
func parseBound(name, s string, now time.Time, dst *time.Time) error {
	if now.IsZero() {
		now = time.Now()
	}
	parse := memoria.ParseTimeBound
	if name == "until" {
		parse = memoria.ParseUntilBound
	}
	t, err := parse(s, now)
	if err != nil {
		return fmt.Errorf("argument %q: %w", name, err)
	}
	*dst = t
	return nil
}

// RecallInput is the recall tool's input.
type RecallInput struct {
	Query    string   `json:"query" jsonschema:"what to remember, in natural language; may name people (Peter or @Peter) and times (since last week, around Nov 27, during Nov 2025), which rank matching memory higher"`
	K        int      `json:"k,omitempty" jsonschema:"how many results at most (default 10)"`
	Since    string   `json:"since,omitempty" jsonschema:"hard lower time bound: 30d, 2w, 6m, 1y, YYYY-MM-DD, yesterday, last week"`
	Until    string   `json:"until,omitempty" jsonschema:"hard upper time bound, same forms as since"`
	Kind     []string `json:"kind,omitempty" jsonschema:"only these kinds: world, experience, opinion, observation, passage"`
	Entity   []string `json:"entity,omitempty" jsonschema:"only memory mentioning one of these entities (name, alias or slug)"`
	Budget   int      `json:"budget,omitempty" jsonschema:"token budget for all results together, estimated conservatively; 0 for none"`
	MinScore float64  `json:"min_score,omitempty" jsonschema:"drop results scoring below this (0 to 1; scores are relative, 1 for the best result)"`
	Now      string   `json:"now,omitempty" jsonschema:"treat this as the current time for relative dates: YYYY-MM-DD or YYYY-MM-DDTHH:MM (default: the clock)"`
}

// RecallOutput is the recall tool's structured output.
type RecallOutput struct {
	Results []recall.Result `json:"results" jsonschema:"best first; source is path#Lx-Ly of exactly the lines of content"`
	// Lexical says why the semantic channel did not run, when it did not.
	Lexical string `json:"lexical_only,omitempty" jsonschema:"set when recall ran without its semantic channel, saying why (for example the embedding model is not installed)"`
	// Lag says how many items the semantic channel may have missed.
	Lag int `json:"semantic_lag,omitempty" jsonschema:"items indexed since the last embedding, which the semantic channel may not see yet (lexical recall does)"`
}

func addRecall(s *Server) {
	AddTool(s, &sdk.Tool{
		Name:  "recall",
		Title: "Recall from long-term memory",
		Description: "Search long-term memory (facts, opinions, experiences and notes from the Markdown workspace). " +
			"Returns the best matches, each with its kind, the day it was written, entities, confidence for opinions and a source citation (path#Lx-Ly) that get can read back. " +
			"Call it before answering questions about the past, people, preferences or earlier decisions. An empty result is not an error: nothing matched.",
		Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: ptr(false)},
	}, func(ctx context.Context, _ *sdk.CallToolRequest, in RecallInput) (*sdk.CallToolResult, RecallOutput, error) {
		o := memoria.RecallOptions{K: in.K, Budget: in.Budget, Kinds: in.Kind, Entities: in.Entity, MinScore: in.MinScore}
		if o.K == 0 {
			o.K = DefaultK
		}
		if o.K < 0 || o.Budget < 0 {
			return nil, RecallOutput{}, errors.New("k and budget must not be negative")
		}
		if err := parseNow(in.Now, &o.Now); err != nil {
			return nil, RecallOutput{}, err
		}
		if err := parseBound("since", in.Since, o.Now, &o.Since); err != nil {
			return nil, RecallOutput{}, err
		}
		if err := parseBound("until", in.Until, o.Now, &o.Until); err != nil {
			return nil, RecallOutput{}, err
		}
		results, err := s.ws.Recall(ctx, in.Query, o)
		if err != nil {
			return nil, RecallOutput{}, fmt.Errorf("recall: %w", err)
		}
		if results == nil {
			results = []recall.Result{}
		}
		for i := range results {
			if results[i].Entities == nil {
				results[i].Entities = []string{}
			}
		}
		return text(renderResults(results)), RecallOutput{Results: results, Lexical: s.ws.SemanticOff(), Lag: s.ws.SemanticLag()}, nil
	})
}

// renderResults is the text content of a recall: one block per result.
func renderResults(rs []recall.Result) string {
	if len(rs) == 0 {
		return "No memory matched."
	}
	var b strings.Builder
	for i, r := range rs {
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "[%d] %s (%s)\n%s\n", i+1, r.Source, r.Meta(true), strings.TrimRight(r.Content, "\n"))
		if note := r.TruncationNote(); note != "" {
			b.WriteString(note + "\n")
		}
	}
	return b.String()
}

func text(s string) *sdk.CallToolResult {
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: s}}}
}

// GetInput is the get tool's input.
type GetInput struct {
	Source string `json:"source" jsonschema:"a citation from a recall result, e.g. memory/2025-11-27.md#L12-L15 (or #L12); a workspace path without #L reads the whole file"`
}

// GetOutput is the get tool's structured output.
type GetOutput struct {
	Source  string `json:"source"`
	Content string `json:"content"`
}

func addGet(s *Server) {
	AddTool(s, &sdk.Tool{
		Name:        "get",
		Title:       "Read cited lines",
		Description: "Read the exact lines a recall result cites (path#Lx-Ly), straight from the Markdown, for more context or to quote them.",
		Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: ptr(false)},
	}, func(_ context.Context, _ *sdk.CallToolRequest, in GetInput) (*sdk.CallToolResult, GetOutput, error) {
		if strings.TrimSpace(in.Source) == "" {
			return nil, GetOutput{}, errors.New("source is empty: pass a citation such as memory/2025-11-27.md#L12-L15 from a recall result")
		}
		l, err := s.ws.Get(in.Source)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) || errors.Is(err, workspace.ErrNoLines) {
				return nil, GetOutput{}, fmt.Errorf("%s: not found (%v); use a source from a recall result", in.Source, err)
			}
			return nil, GetOutput{}, err
		}
		out := GetOutput{Source: l.Source.String(), Content: l.Text}
		return text(out.Source + "\n" + out.Content), out, nil
	})
}

// RetainInput is the retain tool's input.
type RetainInput struct {
	Facts []string `json:"facts" jsonschema:"facts to remember, one per item, in the Retain grammar: 'W @Peter: Lives in Vienna.' (W world fact, B your own experience in first person, O(c=0.8) an opinion or preference with confidence 0..1, S an observation or summary). @Slug names an entity (@The-Castle reads The Castle). Each fact must stand on its own; dates in the text become its event time."`
	Date  string   `json:"date,omitempty" jsonschema:"the daily log to append to, YYYY-MM-DD (default: today)"`
}

// RetainedFact is one fact written by retain.
type RetainedFact struct {
	Fact   string `json:"fact"`
	Source string `json:"source"`
}

// RetainOutput is the retain tool's structured output.
type RetainOutput struct {
	Path    string         `json:"path" jsonschema:"the daily log written, workspace-relative"`
	Added   []RetainedFact `json:"added"`
	Skipped []string       `json:"skipped" jsonschema:"facts already in that log, not written again"`
}

func addRetain(s *Server) {
	AddTool(s, &sdk.Tool{
		Name:  "retain",
		Title: "Remember facts",
		Description: "Append durable facts to the '## Retain' section of a daily log (memory/YYYY-MM-DD.md), atomically; they are recallable as soon as this returns. " +
			"Use it when you learn something worth keeping beyond this conversation: a preference, a decision, a date, what you did. " +
			"If any fact breaks the grammar nothing is written and the error names it. A fact already in the log is skipped.",
		Annotations: &sdk.ToolAnnotations{DestructiveHint: ptr(false), IdempotentHint: true, OpenWorldHint: ptr(false)},
	}, func(ctx context.Context, _ *sdk.CallToolRequest, in RetainInput) (*sdk.CallToolResult, RetainOutput, error) {
		var o memoria.RetainOptions
		if in.Date != "" {
			d, err := memoria.ParseDay(in.Date)
			if err != nil {
				return nil, RetainOutput{}, fmt.Errorf("date: %w", err)
			}
			o.Date = d
		}
		var res memoria.RetainResult
		err := s.Write(func() error {
			var err error
			res, err = s.ws.Retain(ctx, in.Facts, o)
			return err
		})
		if err != nil && res.Path == "" {
			if errors.Is(err, memoria.ErrInvalid) {
				return nil, RetainOutput{}, fmt.Errorf("nothing written: %w. Write facts as 'W @Entity: text.', 'B text.', 'O(c=0.8) @Entity: text.' or 'S text.'", err)
			}
			return nil, RetainOutput{}, err
		}
		out := RetainOutput{Path: res.Path, Added: []RetainedFact{}, Skipped: []string{}}
		for _, a := range res.Added {
			out.Added = append(out.Added, RetainedFact{Fact: a.Bullet, Source: a.Source.String()})
		}
		out.Skipped = append(out.Skipped, res.Skipped...)
		msg := fmt.Sprintf("Retained %d fact(s) in %s", len(out.Added), out.Path)
		if len(out.Skipped) > 0 {
			msg += fmt.Sprintf("; %d already there", len(out.Skipped))
		}
		if err != nil { // written, but the index update failed
			msg += "; note: " + err.Error()
		}
		return text(msg + "."), out, nil
	})
}

// CoreInput is the core tool's input.
type CoreInput struct {
	Action string `json:"action" jsonschema:"show, append, replace or insert"`
	Block  string `json:"block,omitempty" jsonschema:"the '## ' block of memory.md, by name (case-insensitive); for show, empty means all of core memory"`
	Text   string `json:"text,omitempty" jsonschema:"append and insert: the text to add (Markdown, usually '- ' bullets)"`
	Old    string `json:"old,omitempty" jsonschema:"replace: text that occurs exactly once in the block"`
	New    string `json:"new,omitempty" jsonschema:"replace: what old becomes (empty deletes it)"`
	Line   int    `json:"line,omitempty" jsonschema:"insert: put text after this line of the block's body (0: right after its heading)"`
}

// CoreOutput is the core tool's structured output.
type CoreOutput struct {
	Path   string `json:"path"`
	Action string `json:"action"`
	Block  string `json:"block,omitempty"`
	Text   string `json:"text" jsonschema:"the block (or all of core memory) after the action"`
}

func addCore(s *Server) {
	schema, err := jsonschema.For[CoreInput](nil)
	if err != nil {
		panic(err)
	}
	schema.Properties["action"].Enum = []any{"show", "append", "replace", "insert"}
	schema.Properties["line"].Minimum = ptr(0.0)
	AddTool(s, &sdk.Tool{
		Name:  "core",
		Title: "Show or edit core memory",
		Description: "Core memory (memory.md) holds what must be known at the start of every conversation, in '## ' blocks (e.g. 'About Peter', 'Preferences'). " +
			"show: print it or one block. append BLOCK TEXT: add at the block's end, creating the block. replace BLOCK OLD NEW: OLD must occur exactly once in the block. insert BLOCK LINE TEXT. " +
			"The file has a size limit (8 KiB): keep it to durable essentials and put everything else in retain.",
		InputSchema: schema,
		Annotations: &sdk.ToolAnnotations{DestructiveHint: ptr(true), OpenWorldHint: ptr(false)},
	}, func(ctx context.Context, _ *sdk.CallToolRequest, in CoreInput) (*sdk.CallToolResult, CoreOutput, error) {
		out := CoreOutput{Path: s.ws.CorePath(), Action: in.Action, Block: in.Block}
		need := func(ok bool, what string) error {
			if !ok {
				return fmt.Errorf("core %s needs %s", in.Action, what)
			}
			return nil
		}
		var err error
		switch in.Action {
		case "show":
		case "append":
			err = need(in.Block != "" && in.Text != "", "block and text")
		case "replace":
			err = need(in.Block != "" && in.Old != "", "block, old and new")
		case "insert":
			err = need(in.Block != "" && in.Text != "" && in.Line >= 0, "block, line (0 or more) and text")
		default:
			err = fmt.Errorf("unknown action %q: want show, append, replace or insert", in.Action)
		}
		if err != nil {
			return nil, out, err
		}
		if in.Action != "show" {
			err = s.Write(func() error {
				switch in.Action {
				case "append":
					return s.ws.CoreAppend(ctx, in.Block, in.Text, memoria.CoreOptions{})
				case "replace":
					return s.ws.CoreReplace(ctx, in.Block, in.Old, in.New, memoria.CoreOptions{})
				default:
					return s.ws.CoreInsert(ctx, in.Block, in.Line, in.Text, memoria.CoreOptions{})
				}
			})
			if err != nil {
				return nil, out, fmt.Errorf("core %s: %w", in.Action, err)
			}
		}
		if out.Text, err = s.ws.CoreShow(in.Block); err != nil {
			return nil, out, err
		}
		return text(out.Text), out, nil
	})
}

// ContextInput is the context tool's input.
type ContextInput struct {
	Query  string `json:"query,omitempty" jsonschema:"what this turn is about (the user's message or the task); empty gives core memory and recent memory"`
	Budget int    `json:"budget,omitempty" jsonschema:"token budget for everything returned (default 2000), estimated conservatively as recall does"`
	Now    string `json:"now,omitempty" jsonschema:"treat this as the current time: YYYY-MM-DD or YYYY-MM-DDTHH:MM"`
}

func addContext(s *Server) {
	AddTool(s, &sdk.Tool{
		Name:  "context",
		Title: "Memory for this turn",
		Description: "The memory to have in mind at the start of a turn or task: core memory first, then the best recalled memory for the query, within a token budget, as Markdown with citations. " +
			"Call it once at the start of a conversation or task; use recall for specific questions later.",
		Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: ptr(false)},
	}, func(ctx context.Context, _ *sdk.CallToolRequest, in ContextInput) (*sdk.CallToolResult, memoria.TurnContext, error) {
		o := memoria.ContextOptions{Budget: in.Budget}
		if in.Budget < 0 {
			return nil, memoria.TurnContext{}, errors.New("budget must not be negative")
		}
		if err := parseNow(in.Now, &o.Recall.Now); err != nil {
			return nil, memoria.TurnContext{}, err
		}
		tc, err := s.ws.Context(ctx, in.Query, o)
		if err != nil {
			return nil, memoria.TurnContext{}, err
		}
		for i := range tc.Results {
			if tc.Results[i].Entities == nil {
				tc.Results[i].Entities = []string{}
			}
		}
		return text(tc.Markdown()), tc, nil
	})
}

// StatusOutput is the status tool's structured output.
type StatusOutput struct {
	Workspace   string            `json:"workspace"`
	Index       string            `json:"index"`
	IndexBytes  int64             `json:"index_bytes"`
	Files       map[string]int    `json:"files" jsonschema:"indexed files by kind: log, core, bank, opinions, entity, other"`
	Facts       map[string]int    `json:"facts" jsonschema:"facts by kind: world, experience, opinion, observation"`
	Passages    int               `json:"passages"`
	Entities    int               `json:"entities"`
	EntityPages int               `json:"entity_pages"`
	FirstDay    string            `json:"first_day,omitempty"`
	LastDay     string            `json:"last_day,omitempty"`
	Pending     int               `json:"pending" jsonschema:"files changed on disk since indexed (the next recall catches up)"`
	Skipped     map[string]string `json:"skipped" jsonschema:"files not indexed, with why"`
}

func addStatus(s *Server) {
	AddTool(s, &sdk.Tool{
		Name:        "status",
		Title:       "Memory status",
		Description: "What long-term memory holds: files, facts by kind, entities, passages, the date range of daily logs, and whether the index is up to date.",
		Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: ptr(false)},
	}, func(ctx context.Context, _ *sdk.CallToolRequest, _ struct{}) (*sdk.CallToolResult, StatusOutput, error) {
		st, err := s.ws.Status(ctx)
		if err != nil {
			return nil, StatusOutput{}, err
		}
		out := StatusOutput{
			Workspace: s.ws.Dir(), Index: st.Path, IndexBytes: st.Bytes,
			Files: map[string]int{}, Facts: map[string]int{}, Skipped: map[string]string{},
			Passages: st.Passages, Entities: st.Entities, EntityPages: st.EntityPages, Pending: st.Pending,
		}
		for k, n := range st.Files {
			out.Files[string(k)] = n
		}
		for k, n := range st.Facts {
			out.Facts[string(k)] = n
		}
		for k, v := range st.Skipped {
			out.Skipped[k] = v
		}
		if !st.FirstDay.IsZero() {
			out.FirstDay, out.LastDay = st.FirstDay.Format("2006-01-02"), st.LastDay.Format("2006-01-02")
		}
		facts := 0
		for _, n := range out.Facts {
			facts += n
		}
		files := 0
		for _, n := range out.Files {
			files += n
		}
		msg := fmt.Sprintf("%d files, %d facts, %d passages, %d entities", files, facts, out.Passages, out.Entities)
		if out.FirstDay != "" {
			msg += fmt.Sprintf("; daily logs %s … %s", out.FirstDay, out.LastDay)
		}
		if out.Pending > 0 {
			msg += fmt.Sprintf("; %d files changed since indexed", out.Pending)
		} else {
			msg += "; index up to date"
		}
		return text(msg + "."), out, nil
	})
}
