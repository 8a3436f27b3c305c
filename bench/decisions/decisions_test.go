package decisions_test

import (
	"testing"

	"memoria/eval"
)

// sets are the set's parts, each a folder with a workspace and its
// queries.jsonl.
var sets = []string{"radio", "fieldwork", "allotment", "workshop"}

const (
	wantScored      = 24 // scored questions in each part
	wantAbstentions = 2  // and abstentions
)

// TestSets checks each part (eval.CheckSetDir: decision questions about
// its own workspace, gold where scored, every citation on lines with
// text) and that its counts match README.md.
func TestSets(t *testing.T) {
	for _, set := range sets {
		t.Run(set, func(t *testing.T) {
			_, errs := eval.CheckSetDir(set, "decision", wantScored, wantAbstentions)
			for _, err := range errs {
				t.Error(err)
			}
		})
	}
}
