package updates_test

import (
	"testing"
	"time"

	"memoria/eval"
	"memoria/memory"
)

// sets are the set's parts, each a folder with a workspace and its
// queries.jsonl.
var sets = []string{"vineyard", "chats", "chats2", "narrowboat"}

const (
	wantScored      = 22 // scored questions in each part
	wantAbstentions = 2  // and abstentions
)

// TestSets checks each part (eval.CheckSetDir: update questions about its
// own workspace, gold where scored, every citation on lines with text),
// that its counts match README.md, and the fields of updates: a scored
// query has superseded lines that no gold line overlaps and an asof that
// is "now" or a day before the question; an abstention has neither.
func TestSets(t *testing.T) {
	for _, set := range sets {
		t.Run(set, func(t *testing.T) {
			qs, errs := eval.CheckSetDir(set, "update", wantScored, wantAbstentions)
			for _, err := range errs {
				t.Error(err)
			}
			for _, q := range qs {
				if q.Abstention {
					if len(q.Superseded) > 0 || q.AsOf != "" {
						t.Errorf("%s: an abstention has no superseded lines or asof", q.ID)
					}
					continue
				}
				if len(q.Superseded) == 0 {
					t.Errorf("%s: a scored query needs superseded lines", q.ID)
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
		})
	}
}
