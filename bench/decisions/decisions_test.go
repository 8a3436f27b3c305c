package decisions_test

import (
	"path/filepath"
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

// TestSets checks each half (eval.CheckSet: decision questions about its
// own workspace, gold where scored, every citation on lines with text)
// and that its counts match README.md.
func TestSets(t *testing.T) {
	for _, set := range sets {
		t.Run(set, func(t *testing.T) {
			qs, err := eval.LoadQueries(filepath.Join(set, "queries.jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			scored, abstentions, errs := eval.CheckSet(qs, filepath.Join(set, "workspace"), "decision")
			for _, err := range errs {
				t.Error(err)
			}
			if scored != wantScored || abstentions != wantAbstentions {
				t.Errorf("%d scored and %d abstentions, want %d and %d", scored, abstentions, wantScored, wantAbstentions)
			}
		})
	}
}
