package temporal_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"memoria/eval"
	"memoria/memory"
)

// sets are the set's parts, each a folder with a workspace and its
// queries.jsonl.
var sets = []string{"harbour", "chats", "apiary"}

const (
	wantScored      = 24 // scored questions in each
	wantAbstentions = 2  // and abstentions
)

// TestSets checks each (eval.CheckSetDir: temporal questions about its
// own workspace, gold where scored, every citation on lines with text),
// that its counts match README.md, and the windows: a scored query has
// one that starts on or after the first log and ends on or before the
// question date; an abstention has none.
func TestSets(t *testing.T) {
	for _, set := range sets {
		t.Run(set, func(t *testing.T) {
			qs, errs := eval.CheckSetDir(set, "temporal", wantScored, wantAbstentions)
			for _, err := range errs {
				t.Error(err)
			}
			logs, err := os.ReadDir(filepath.Join(set, "workspace", "memory"))
			if err != nil || len(logs) == 0 {
				t.Fatalf("no daily logs: %v", err)
			}
			first := strings.TrimSuffix(logs[0].Name(), ".md") // ReadDir sorts by name
			for _, q := range qs {
				switch w := q.Window; {
				case q.Abstention && w != nil:
					t.Errorf("%s: an abstention has no window", q.ID)
				case q.Abstention:
				case w == nil:
					t.Errorf("%s: a scored query needs a window", q.ID)
				case w.End.Before(w.Start) || w.End.After(memory.Day(q.Now)) || w.Start.Format(eval.DayLayout) < first:
					t.Errorf("%s: window %s..%s: want start ≤ end ≤ the question date, from the first log (%s) on", q.ID, w.Start.Format(eval.DayLayout), w.End.Format(eval.DayLayout), first)
				}
			}
		})
	}
}
