package decisions_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"memoria/eval"
)

// sets are the set's two halves, each a folder with a workspace and its
// queries.jsonl.
var sets = []string{"radio", "fieldwork"}

const (
	wantScored      = 24 // scored questions in each half
	wantAbstentions = 2  // and abstentions
)

// TestSets checks each half: every query parses, is a decision question
// about its own workspace with a question, an answer and a question date;
// a scored one has gold lines, an abstention none; every citation points
// at existing, non-blank lines; the counts match README.md.
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
				if q.Category != "decision" {
					t.Errorf("%s: type %q, want decision", q.ID, q.Category)
				}
				if strings.TrimSpace(q.Question) == "" || strings.TrimSpace(q.Answer) == "" || q.Now.IsZero() {
					t.Errorf("%s: needs a question, an answer and a question_date", q.ID)
				}
				switch {
				case q.Abstention && (q.Scored || len(q.Gold) > 0):
					t.Errorf("%s: an abstention is not scored and has no gold", q.ID)
				case !q.Abstention && (!q.Scored || len(q.Gold) == 0):
					t.Errorf("%s: a scored query needs gold lines", q.ID)
				}
				if q.Abstention {
					abstentions++
				} else {
					scored++
				}
			}
			if scored != wantScored || abstentions != wantAbstentions {
				t.Errorf("%d scored and %d abstentions, want %d and %d", scored, abstentions, wantScored, wantAbstentions)
			}
			for _, err := range eval.CheckCitations(qs) {
				t.Error(err)
			}
			if fi, err := os.Stat(filepath.Join(ws, "memory.md")); err != nil || fi.Size() == 0 {
				t.Errorf("memory.md: missing or empty (%v)", err)
			}
		})
	}
}
