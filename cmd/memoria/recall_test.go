package main

import (
	"encoding/json"
	"memoria/internal/testworkspace"
	"regexp"
	"strings"
	"testing"
)

type jsonResult struct {
	ID         string   `json:"id"`
	Kind       string   `json:"kind"`
	Timestamp  string   `json:"timestamp"`
	Entities   []string `json:"entities"`
	Content    string   `json:"content"`
	Confidence *float64 `json:"confidence"`
	Source     string   `json:"source"`
	Score      float64  `json:"score"`
	EventTime  *struct {
		Start string `json:"start"`
		End   string `json:"end"`
	} `json:"event_time"`
}

func recallJSON(t *testing.T, ws string, args ...string) []jsonResult {
	t.Helper()
	code, out, errOut := cli(t, append([]string{"recall", "-w", ws, "--json", "--now", "2025-12-01"}, args...)...)
	if code != exitOK {
		t.Fatalf("recall %v: exit %d: %s", args, code, errOut)
	}
	var res []jsonResult
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("recall %v: %v in %q", args, err, out)
	}
	return res
}

func TestRecallJSONShape(t *testing.T) {
	ws := testworkspace.CopyExample(t)
	res := recallJSON(t, ws, "what does Peter prefer on WhatsApp", "--k", "5")
	if len(res) == 0 || len(res) > 5 {
		t.Fatalf("%d results", len(res))
	}
	top := res[0]
	if top.Kind != "opinion" || top.Confidence == nil || top.Source == "" || !strings.Contains(top.Source, "#L") ||
		top.Score != 1 || len(top.Entities) == 0 || top.ID == "" || top.Timestamp == "" {
		t.Errorf("top result %+v", top)
	}
	for _, r := range res {
		// Every result can be read back with get, and says the same.
		code, out, _ := cli(t, "get", "-w", ws, r.Source)
		if code != exitOK {
			t.Errorf("get %s: exit %d", r.Source, code)
		}
		if r.Kind == "passage" && strings.TrimRight(out, "\n") != r.Content {
			t.Errorf("%s: content %q, lines %q", r.Source, r.Content, out)
		}
	}
}

func TestRecallFilters(t *testing.T) {
	ws := testworkspace.CopyExample(t)
	for _, r := range recallJSON(t, ws, "Biscuit", "--since", "2025-11-01", "--until", "2025-11-15") {
		if r.Timestamp < "2025-11-01" || r.Timestamp > "2025-11-15" {
			inEvent := r.EventTime != nil && r.EventTime.End >= "2025-11-01" && r.EventTime.Start <= "2025-11-15"
			if !inEvent {
				t.Errorf("outside the window: %+v", r)
			}
		}
	}
	for _, r := range recallJSON(t, ws, "warelay", "--kind", "experience") {
		if r.Kind != "experience" {
			t.Errorf("--kind experience returned %s", r.Kind)
		}
	}
	res := recallJSON(t, ws, "replies", "--entity", "Pete") // an alias
	if len(res) == 0 {
		t.Fatal("no results for --entity Pete")
	}
	for _, r := range res {
		found := false
		for _, e := range r.Entities {
			found = found || strings.EqualFold(e, "Peter")
		}
		if !found {
			t.Errorf("--entity Pete returned %+v", r)
		}
	}
	if res := recallJSON(t, ws, "", "--since", "7d", "--k", "3"); len(res) == 0 {
		t.Error("an empty query with a window lists nothing")
	}
}

func TestRecallBudget(t *testing.T) {
	ws := testworkspace.CopyExample(t)
	all := recallJSON(t, ws, "warelay crash fix", "--k", "25")
	small := recallJSON(t, ws, "warelay crash fix", "--k", "25", "--budget", "200")
	if len(small) == 0 || len(small) >= len(all) {
		t.Errorf("budget 200: %d results of %d", len(small), len(all))
	}
	size := 0
	for _, r := range small {
		size += len(r.Content)/4 + 24
	}
	if size > 260 {
		t.Errorf("budget 200 exceeded: ~%d tokens", size)
	}
}

func TestRecallAnyText(t *testing.T) {
	ws := testworkspace.CopyExample(t)
	for _, q := range []string{`"unbalanced`, `NEAR(a b)`, `x -minus`, `col:value`, `star*`, `(paren`, `AND OR NOT`, `'; DROP TABLE items; --`, "\xff\xfe", "日本語", strings.Repeat("word ", 2000)} {
		code, _, errOut := cli(t, "recall", "-w", ws, "--", q)
		if code != exitOK {
			t.Errorf("recall %.30q: exit %d: %s", q, code, errOut)
		}
	}
}

func TestRecallUsageErrors(t *testing.T) {
	ws := testworkspace.CopyExample(t)
	tests := [][]string{
		{"--k", "0"},
		{"--k", "many"},
		{"--since", "last tuesday-ish"},
		{"--now", "yesterday-ish"},
		{"--kind", "gossip"},
		{"--kind", "fact"},
		{"--entity", "Nobody"},
		{"--since", "2025-12-01", "--until", "2025-01-01"},
		{"--budget", "-5"},
	}
	// Each is a bad command line: exit 2 (some exited 1), one line.
	for _, args := range tests {
		code, _, errOut := cli(t, append([]string{"recall", "-w", ws, "x"}, args...)...)
		if code != exitUsage || strings.Count(strings.TrimSpace(errOut), "\n") > 0 {
			t.Errorf("recall %v: exit %d, stderr %q", args, code, errOut)
		}
	}
	for _, args := range [][]string{{"--since", "garbage"}, {"--entity", "Nobody"}, {"--kind", "fact"}} {
		code, _, errOut := cli(t, append([]string{"context", "-w", ws, "x"}, args...)...)
		if code != exitUsage || strings.Count(strings.TrimSpace(errOut), "\n") > 0 {
			t.Errorf("context %v: exit %d, stderr %q", args, code, errOut)
		}
	}
}

func TestRecallReadable(t *testing.T) {
	ws := testworkspace.CopyExample(t)
	code, out, _ := cli(t, "recall", "-w", ws, "Baileys crash", "--k", "3")
	if code != exitOK {
		t.Fatal(code)
	}
	first := strings.SplitN(out, "\n", 2)[0]
	if !strings.HasPrefix(first, "memory/") && !strings.HasPrefix(first, "bank/") {
		t.Errorf("readable output should start with the source, got %q", first)
	}
}

// TestExplainReadable: --explain prints a small table (score, each
// channel's rank, what each feature added to the score), not Go maps ("map[entity:2 lexical:12]"),
// and --json carries the same as an "explain" object.
func TestExplainReadable(t *testing.T) {
	ws := testworkspace.CopyExample(t)
	code, out, errOut := cli(t, "recall", "-w", ws, "--explain", "--k", "3", "--now", "2025-12-01", "what does Peter prefer")
	if code != exitOK || strings.Contains(out, "map[") || !strings.Contains(out, "why: score") || !strings.Contains(out, "  features: ") || !regexp.MustCompile(`(?m)^    (lexical|entity|opinion) +\d+$`).MatchString(out) {
		t.Errorf("--explain: exit %d, %q %q", code, out, errOut)
	}
	code, out, _ = cli(t, "recall", "-w", ws, "--explain", "--k", "3", "--now", "2025-12-01", "--json", "what does Peter prefer")
	var res []struct {
		Explain *struct {
			Channels map[string]int `json:"channels"`
		} `json:"explain"`
	}
	if code != exitOK || json.Unmarshal([]byte(out), &res) != nil || len(res) == 0 || res[0].Explain == nil || len(res[0].Explain.Channels) == 0 {
		t.Errorf("--explain --json: exit %d, %q", code, out)
	}
}

// TestMinScore: --min-score drops the results scoring below it (scores are
// relative, 1 for the best); a value outside 0..1 is a usage error.
func TestMinScore(t *testing.T) {
	ws := testworkspace.CopyExample(t)
	var all, some []struct{ Score float64 }
	code, out, _ := cli(t, "recall", "-w", ws, "--json", "--lexical", "--k", "20", "--now", "2025-12-01", "Peter WhatsApp replies")
	if code != exitOK || json.Unmarshal([]byte(out), &all) != nil || len(all) < 5 {
		t.Fatalf("recall: exit %d, %q", code, out)
	}
	code, out, _ = cli(t, "recall", "-w", ws, "--json", "--lexical", "--k", "20", "--now", "2025-12-01", "--min-score", "0.6", "Peter WhatsApp replies")
	if code != exitOK || json.Unmarshal([]byte(out), &some) != nil || len(some) == 0 || len(some) >= len(all) {
		t.Fatalf("--min-score 0.6: exit %d, %d of %d results", code, len(some), len(all))
	}
	for _, r := range some {
		if r.Score < 0.6 {
			t.Errorf("score %g kept", r.Score)
		}
	}
	if code, _, errOut := cli(t, "recall", "-w", ws, "--min-score", "1.5", "Peter"); code != exitUsage || !strings.Contains(errOut, "min score") {
		t.Errorf("--min-score 1.5: exit %d, %q", code, errOut)
	}
}

// TestLexicalOnlySaid: without vectors, recall says once on stderr that it
// is lexical, and --json results carry lexical_only with the reason; the
// list keeps its shape. Nothing said it before.
func TestLexicalOnlySaid(t *testing.T) {
	ws := testworkspace.CopyExample(t)
	code, out, errOut := cli(t, "recall", "-w", ws, "--json", "--now", "2025-12-01", "--k", "2", "Marrakech")
	var res []struct {
		LexicalOnly string `json:"lexical_only"`
	}
	if code != exitOK || json.Unmarshal([]byte(out), &res) != nil || len(res) == 0 || res[0].LexicalOnly == "" ||
		strings.Count(errOut, "recall is lexical") != 1 {
		t.Errorf("exit %d, %q, stderr %q", code, out, errOut)
	}
	code, out, _ = cli(t, "recall", "-w", ws, "--json", "--lexical", "--now", "2025-12-01", "--k", "2", "Marrakech")
	if code != exitOK || strings.Contains(out, "lexical_only") {
		t.Errorf("--lexical: %q", out)
	}
}
