package updates_test

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"memoria/eval"
	"memoria/memory"
)

// sets are the set's parts, each a folder with a workspace and its
// queries.jsonl.
var sets = []string{"vineyard", "chats", "chats2"}

const (
	wantScored      = 22 // scored questions in each part
	wantAbstentions = 2  // and abstentions
)

// TestSets checks each part: every query parses and is an update question
// about its own workspace with a question, an answer and a question date;
// a scored one has gold and superseded lines that do not overlap, and an
// asof that is "now" or a day before the question; an abstention has none
// of these; every citation points at existing, non-blank lines; the counts
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
				if q.Category != "update" {
					t.Errorf("%s: type %q, want update", q.ID, q.Category)
				}
				if strings.TrimSpace(q.Question) == "" || strings.TrimSpace(q.Answer) == "" || q.Now.IsZero() {
					t.Errorf("%s: needs a question, an answer and a question_date", q.ID)
				}
				if q.Abstention {
					abstentions++
					if q.Scored || len(q.Gold) > 0 || len(q.Superseded) > 0 || q.AsOf != "" {
						t.Errorf("%s: an abstention is not scored and has no gold, superseded or asof", q.ID)
					}
					continue
				}
				scored++
				if !q.Scored || len(q.Gold) == 0 || len(q.Superseded) == 0 {
					t.Errorf("%s: a scored query needs gold and superseded lines", q.ID)
				}
				if q.AsOf != eval.AsOfNow {
					d, err := time.Parse(eval.DayLayout, q.AsOf)
					if err != nil || !d.Before(memory.Day(q.Now)) {
						t.Errorf("%s: asof %q: want %q or a day before the question", q.ID, q.AsOf, eval.AsOfNow)
					}
				}
				for _, g := range q.Gold {
					for _, s := range q.Superseded {
						if eval.Hits(g, s) {
							t.Errorf("%s: gold %s overlaps superseded %s", q.ID, g, s)
						}
					}
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
