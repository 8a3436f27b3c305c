package main

import (
	"encoding/json"
	"memoria/internal/testworkspace"
	"strings"
	"testing"

	"memoria"
)

func TestContextFitsBudgetAndStartsWithCore(t *testing.T) {
	ws := testworkspace.CopyExample(t)
	for _, budget := range []int{2000, 1200, 300} {
		args := []string{"context", "-w", ws, "--now", "2025-12-01", "what does Peter prefer on WhatsApp?"}
		if budget != 2000 {
			args = append(args, "--budget", itoa(budget))
		}
		code, out, errOut := cli(t, args...)
		if code != exitOK {
			t.Fatalf("budget %d: exit %d, %s", budget, code, errOut)
		}
		if n := memoria.EstimateTextTokens(out); n > budget {
			t.Errorf("budget %d: output is %d tokens", budget, n)
		}
		if !strings.HasPrefix(out, "# Memory (memory.md)\n\n## Core memory\n") {
			t.Errorf("budget %d: does not begin with core memory: %.80q", budget, out)
		}
		recalled := strings.Contains(out, "# Recalled for \"what does Peter prefer on WhatsApp?\"")
		switch budget {
		case 2000:
			if !recalled || !strings.Contains(out, "Prefers concise replies (<1500 chars) on WhatsApp") ||
				!strings.Contains(out, "[opinion") || !strings.Contains(out, "#L") {
				t.Errorf("budget 2000: no cited recall about WhatsApp:\n%s", out)
			}
			if strings.Index(out, "## Standing rules") > strings.Index(out, "# Recalled") {
				t.Error("core memory is not all before the recall")
			}
		case 300:
			if recalled || !strings.Contains(out, "core memory cut to fit the budget") {
				t.Errorf("budget 300: want core memory cut and no recall:\n%s", out)
			}
		}
	}

	code, out, _ := cli(t, "context", "-w", ws, "--json", "--budget", "1800", "Andy's birthday trip")
	var tc memoria.TurnContext
	if code != exitOK || json.Unmarshal([]byte(out), &tc) != nil {
		t.Fatalf("--json: exit %d, %q", code, out)
	}
	if tc.Budget != 1800 || tc.Tokens > 1800 || tc.Tokens != memoria.EstimateTextTokens(tc.Markdown()) ||
		!strings.HasPrefix(tc.Core, "# Core memory") || len(tc.Results) == 0 || tc.CoreCut {
		t.Errorf("--json: %+v", tc)
	}
	for _, r := range tc.Results {
		if strings.HasPrefix(r.Source, "memory.md#") {
			t.Errorf("core memory repeated in the recall: %s", r.Source)
		}
	}

	// No query: core memory and recent memory, still within the budget.
	code, out, errOut := cli(t, "context", "-w", ws)
	if code != exitOK || !strings.HasPrefix(out, "# Memory (memory.md)") || memoria.EstimateTextTokens(out) > 2000 {
		t.Errorf("no query: exit %d, %d tokens, %s", code, memoria.EstimateTextTokens(out), errOut)
	}
	for _, bad := range [][]string{{"--budget", "0"}, {"--budget", "10"}, {"--k", "0"}} {
		if code, _, errOut := cli(t, append([]string{"context", "-w", ws}, bad...)...); code != exitUsage {
			t.Errorf("%v: exit %d (%s), want 2", bad, code, errOut)
		}
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
