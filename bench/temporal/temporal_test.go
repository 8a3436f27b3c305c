package temporal_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"memoria/eval"
	"memoria/memory"
)

// sets are the set's two halves, each a folder with a workspace and its
// queries.jsonl.
var sets = []string{"harbour", "chats"}

const (
	wantScored      = 24 // scored questions in each half
	wantAbstentions = 2  // and abstentions
)

// TestSets checks each half: every query parses and is a temporal question
// about its own workspace with a question, an answer and a question date;
// a scored one has gold lines and a window that ends on or before the
// question date and starts on or after the first log; an abstention has
// neither; every citation points at existing, non-blank lines; the counts
// match README.md.
func TestSets(t *testing.T) {
	for _, set := range sets {
		t.Run(set, func(t *testing.T) {
			qs, err := eval.LoadQueries(filepath.Join(set, "queries.jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			ws, err := filepath.Abs(filepath.Join(set, "workspace"))
			if err != nil {
				t.Fatal(err)
			}
			logs, err := os.ReadDir(filepath.Join(ws, "memory"))
			if err != nil || len(logs) == 0 {
				t.Fatalf("no daily logs: %v", err)
			}
			first := strings.TrimSuffix(logs[0].Name(), ".md") // ReadDir sorts by name
			seen := map[string]bool{}
			scored, abstentions := 0, 0
			for _, q := range qs {
				if seen[q.ID] {
					t.Errorf("%s: duplicate id", q.ID)
				}
				seen[q.ID] = true
				if got, _ := filepath.Abs(q.Workspace); got != ws {
					t.Errorf("%s: workspace %s, want %s", q.ID, got, ws)
				}
				if q.Category != "temporal" {
					t.Errorf("%s: type %q, want temporal", q.ID, q.Category)
				}
				if strings.TrimSpace(q.Question) == "" || strings.TrimSpace(q.Answer) == "" || q.Now.IsZero() {
					t.Errorf("%s: needs a question, an answer and a question_date", q.ID)
				}
				if q.Abstention {
					abstentions++
					if q.Scored || len(q.Gold) > 0 || q.Window != nil {
						t.Errorf("%s: an abstention is not scored and has no gold or window", q.ID)
					}
					continue
				}
				scored++
				switch w := q.Window; {
				case !q.Scored || len(q.Gold) == 0 || w == nil:
					t.Errorf("%s: a scored query needs gold lines and a window", q.ID)
				case w.End.Before(w.Start) || w.End.After(memory.Day(q.Now)) || w.Start.Format(eval.DayLayout) < first:
					t.Errorf("%s: window %s..%s: want start ≤ end ≤ the question date, from the first log (%s) on", q.ID, w.Start.Format(eval.DayLayout), w.End.Format(eval.DayLayout), first)
				}
			}
			if scored != wantScored || abstentions != wantAbstentions {
				t.Errorf("%d scored and %d abstentions, want %d and %d", scored, abstentions, wantScored, wantAbstentions)
			}
			for _, err := range eval.CheckCitations(qs) {
				t.Error(err)
			}
		})
	}
}
