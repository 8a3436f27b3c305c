package evalsetcheck

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"memoria/eval"
	"memoria/memory"
	"memoria/workspace"
)

// TeamSet is what a team set's README.md says of it (bench/teamset,
// bench/teamdev): its workspaces, under workspaces/, sorted; the scored
// questions per category; the abstentions.
type TeamSet struct {
	Workspaces  []string
	Scored      map[string]int
	Abstentions int
}

// RunTeam checks the team set in the current folder: every question
// parses and names no workspace of its own; every gold line is
// "workspace:path#L…" and names existing, non-blank lines (three at
// most) of a memory file of one of the set's workspaces
// (eval.CheckCitations); a cross question's gold is in two
// workspaces or more; the counts are s's; each workspace is one Memoria
// opens.
func RunTeam(t *testing.T, s TeamSet) {
	qs, err := eval.LoadQueries(queriesFile)
	if err != nil {
		t.Fatal(err)
	}
	spaces, err := os.ReadDir("workspaces")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range spaces {
		if e.IsDir() {
			names = append(names, e.Name())
			if err := workspace.Check(filepath.Join("workspaces", e.Name())); err != nil {
				t.Error(err)
			}
		}
	}
	if !slices.Equal(names, s.Workspaces) {
		t.Fatalf("workspaces %v, want %v", names, s.Workspaces)
	}
	got := map[string]int{}
	absent := 0
	var cited []eval.Query // each gold line as a citation of its workspace
	ids := map[string]bool{}
	for _, q := range qs {
		if ids[q.ID] {
			t.Errorf("%s: id used twice", q.ID)
		}
		ids[q.ID] = true
		if q.Workspace != "" {
			t.Errorf("%s: names a workspace of its own (%s); a team question names none", q.ID, q.Workspace)
		}
		if q.Now.IsZero() || strings.TrimSpace(q.Question) == "" {
			t.Errorf("%s: no question or question_date", q.ID)
		}
		if q.Abstention {
			absent++
			if q.Scored || len(q.Gold) > 0 {
				t.Errorf("%s: an abstention is not scored and has no gold", q.ID)
			}
			continue
		}
		got[q.Category]++
		in := map[string]bool{}
		for _, g := range q.Gold {
			ws, path, ok := strings.Cut(g.Path, ":")
			if !ok || !slices.Contains(names, ws) {
				t.Errorf("%s: gold %s names no workspace of the set", q.ID, g)
				continue
			}
			in[ws] = true
			if g.End-g.Start > 2 {
				t.Errorf("%s: gold %s: a gold range holds 1 to 3 lines", q.ID, g)
			}
			g.Path = path
			cited = append(cited, eval.Query{ID: q.ID + " (" + ws + ")", Workspace: filepath.Join("workspaces", ws), Gold: []memory.Source{g}})
		}
		if len(q.Gold) == 0 {
			t.Errorf("%s: scored without gold", q.ID)
		}
		if q.Category == "cross" && len(in) < 2 {
			t.Errorf("%s: a cross question's gold is in %d workspace", q.ID, len(in))
		}
	}
	for _, err := range eval.CheckCitations(cited) {
		t.Error(err)
	}
	for c, n := range s.Scored {
		if got[c] != n {
			t.Errorf("%d scored %s questions, want %d", got[c], c, n)
		}
	}
	if len(got) != len(s.Scored) {
		t.Errorf("categories %v, want those of %v", got, s.Scored)
	}
	if absent != s.Abstentions {
		t.Errorf("%d abstentions, want %d", absent, s.Abstentions)
	}
}
