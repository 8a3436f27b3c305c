package evalset

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"memoria/eval"
	"memoria/memory"
)

// queriesFile is the evaluation set, next to this test.
const queriesFile = "queries.jsonl"

// The five query types and the least each must have scored.
var types = []string{"lexical", "entity", "temporal", "opinion", "update"}

const (
	minPerType     = 12
	minScored      = 60
	minAbstentions = 3
)

func load(t *testing.T) []eval.Query {
	t.Helper()
	qs, err := eval.LoadQueries(queriesFile)
	if err != nil {
		t.Fatal(err)
	}
	return qs
}

// fileLines caches the lines of workspace files (1-based: lines[0] is line 1).
type fileLines map[string][]string

func (c fileLines) get(t *testing.T, ws, rel string) ([]string, bool) {
	t.Helper()
	path := filepath.Join(ws, filepath.FromSlash(rel))
	if ls, ok := c[path]; ok {
		return ls, ls != nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		c[path] = nil
		return nil, false
	}
	ls := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	c[path] = ls
	return ls, true
}

// checkRef reports what is wrong with a citation: its file must be a
// workspace file memoria indexes, its range must exist, and its first and
// last lines must not be blank.
func checkRef(t *testing.T, files fileLines, ws string, s memory.Source) string {
	t.Helper()
	if _, _, ok := memory.ClassifyPath(s.Path); !ok {
		return "not a workspace memory file"
	}
	ls, ok := files.get(t, ws, s.Path)
	if !ok {
		return "file does not exist"
	}
	end := max(s.End, s.Start)
	switch {
	case s.Start < 1:
		return "no line range"
	case end > len(ls):
		return "past the end of the file"
	case strings.TrimSpace(ls[s.Start-1]) == "":
		return "first line is blank"
	case strings.TrimSpace(ls[end-1]) == "":
		return "last line is blank"
	}
	return ""
}

func TestReferences(t *testing.T) {
	files := fileLines{}
	for _, q := range load(t) {
		if fi, err := os.Stat(q.Workspace); err != nil || !fi.IsDir() {
			t.Errorf("%s: workspace %s: not a directory (%v)", q.ID, q.Workspace, err)
			continue
		}
		for _, list := range []struct {
			name string
			refs []memory.Source
		}{{"gold", q.Gold}, {"superseded", q.Superseded}} {
			for _, s := range list.refs {
				if msg := checkRef(t, files, q.Workspace, s); msg != "" {
					t.Errorf("%s: %s %s: %s", q.ID, list.name, s, msg)
				}
			}
		}
	}
}

func TestShape(t *testing.T) {
	qs := load(t)
	seen := map[string]bool{}
	scored := map[string]int{}
	total, abstentions := 0, 0
	known := map[string]bool{}
	for _, ty := range types {
		known[ty] = true
	}
	for _, q := range qs {
		if seen[q.ID] {
			t.Errorf("%s: duplicate id", q.ID)
		}
		seen[q.ID] = true
		if !known[q.Category] {
			t.Errorf("%s: type %q, want one of %v", q.ID, q.Category, types)
		}
		if strings.TrimSpace(q.Question) == "" || q.Now.IsZero() {
			t.Errorf("%s: needs a question and a question_date", q.ID)
		}
		if q.Abstention {
			abstentions++
			if q.Scored || len(q.Gold) > 0 || len(q.Superseded) > 0 {
				t.Errorf("%s: an abstention has no gold and is not scored", q.ID)
			}
		} else if !q.Scored || len(q.Gold) == 0 {
			t.Errorf("%s: not an abstention, so it must be scored and have gold", q.ID)
		}
		if q.Scored {
			scored[q.Category]++
			total++
		}

		// Type-specific fields, and only there.
		if (q.Window != nil) != (q.Category == "temporal") {
			t.Errorf("%s: a window belongs to temporal queries, and every temporal query has one", q.ID)
		}
		if q.Window != nil && q.Window.End.After(memory.Day(q.Now)) {
			t.Errorf("%s: window ends after the question date", q.ID)
		}
		isUpdate := q.Category == "update"
		if !isUpdate && (q.AsOf != "" || len(q.Superseded) > 0) {
			t.Errorf("%s: asof and superseded belong to update queries", q.ID)
		}
		if isUpdate {
			if q.AsOf == "" {
				t.Errorf("%s: update query without asof", q.ID)
			} else if q.AsOf != eval.AsOfNow {
				d, _ := time.Parse(eval.DayLayout, q.AsOf)
				if !d.Before(memory.Day(q.Now)) {
					t.Errorf("%s: asof %s is not in the past of %s; use %q", q.ID, q.AsOf, q.Now.Format(eval.DateLayout), eval.AsOfNow)
				}
			}
			if q.Scored && len(q.Superseded) == 0 {
				t.Errorf("%s: scored update query without superseded lines", q.ID)
			}
		}
		// The valid and the superseded version must be told apart: no line
		// may be both.
		for _, g := range q.Gold {
			for _, s := range q.Superseded {
				if eval.Hits(g, s) {
					t.Errorf("%s: gold %s overlaps superseded %s", q.ID, g, s)
				}
			}
		}
	}
	for _, ty := range types {
		if scored[ty] < minPerType {
			t.Errorf("type %s: %d scored queries, want at least %d", ty, scored[ty], minPerType)
		}
	}
	if total < minScored {
		t.Errorf("%d scored queries, want at least %d", total, minScored)
	}
	if abstentions < minAbstentions {
		t.Errorf("%d abstention queries, want at least %d", abstentions, minAbstentions)
	}
	t.Logf("%d queries, %d scored %v, %d abstentions", len(qs), total, scored, abstentions)
}

// TestBaselineRuns runs the lexical 3-line baseline over the set: a smoke
// test that every query runs and scores. Its numbers are logged, not pinned.
func TestBaselineRuns(t *testing.T) {
	qs := load(t)
	b := eval.NewBaseline(3, 10)
	defer b.Close()
	rep, err := eval.Run(context.Background(), qs, b.Recall, eval.RunOptions{Name: "bm25-3line"})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range append(rep.Categories, rep.Overall) {
		switch a.Category {
		case "temporal":
			if a.InWindow == nil || a.InWindowN != a.N {
				t.Errorf("temporal: in-window share over %d of %d queries", a.InWindowN, a.N)
			}
		case "update":
			if a.CurrentFirst == nil || a.CurrentFirstN != a.N {
				t.Errorf("update: current-first over %d of %d queries", a.CurrentFirstN, a.N)
			}
		}
	}
	t.Logf("\n%s", rep.Table())
}
