package team_test

import (
	"cmp"
	"context"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"memoria"
	"memoria/internal/pgtest"
	"memoria/internal/testworkspace"
	"memoria/team"
)

// TestRecallAllMerge checks a team-wide recall against the merge it
// promises, worked out here from each workspace's recall with the words
// weighed among all the workspaces (memoria.RecallOptions.Corpus): the
// best K by relative score times bm25, then score, rank and workspace
// order, each result with its workspace; the workspace that holds the
// answer comes first, not the first by name, though it is small and
// says the query's rarest word on most of its lines; the freshness it
// reports covers every workspace. A workspace within a corpus of itself
// answers as alone.
func TestRecallAllMerge(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	url := pgtest.NewAppDatabase(t)
	var spaces []team.Space
	for i := range 12 {
		dir := testworkspace.CopyExample(t)
		if i%3 == 1 {
			dir = secretWorkspace(t) // says nothing of most questions
		}
		ws, err := memoria.Open(ctx, dir, memoria.Options{IndexPath: url, IndexName: fmt.Sprintf("ws%02d", i)})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { ws.Close() })
		spaces = append(spaces, team.Space{Name: fmt.Sprintf("ws%02d", i), WS: ws})
	}
	wss := make([]*memoria.Workspace, len(spaces))
	for i, s := range spaces {
		wss[i] = s.WS
	}
	for _, q := range []string{"WhatsApp", "zanzibar vault code", "what does Peter prefer", "deploy", "nothing matches xyzzy"} {
		for _, k := range []int{1, 3, 10, 40} {
			o := memoria.RecallOptions{K: k, Now: now, Lexical: true}
			// Each workspace's recall as part of the team's: its words
			// weighed among all the workspaces.
			each := o
			each.Corpus = memoria.NewCorpus(wss...)
			type ranked struct {
				team.Result
				space, rank int
			}
			var all []ranked
			for i, s := range spaces {
				rs, err := s.WS.Recall(ctx, q, each)
				if err != nil {
					t.Fatal(err)
				}
				for j, r := range rs {
					all = append(all, ranked{team.Result{Workspace: s.Name, Result: r}, i, j})
				}
			}
			key := func(r ranked) float64 { return r.Score * r.Evidence.Lexical }
			slices.SortStableFunc(all, func(a, b ranked) int {
				if c := cmp.Compare(key(b), key(a)); c != 0 {
					return c
				}
				if c := cmp.Compare(b.Score, a.Score); c != 0 {
					return c
				}
				if c := cmp.Compare(a.rank, b.rank); c != 0 {
					return c
				}
				return cmp.Compare(a.space, b.space)
			})
			var want []team.Result
			for _, r := range all[:min(k, len(all))] {
				want = append(want, r.Result)
			}
			for _, s := range spaces[:2] {
				alone, err := s.WS.Recall(ctx, q, o)
				if err != nil {
					t.Fatal(err)
				}
				self := o
				self.Corpus = memoria.NewCorpus(s.WS)
				one, err := s.WS.Recall(ctx, q, self)
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(one, alone) {
					t.Errorf("%q, k %d: %s within a corpus of itself:\n got %v\nwant %v", q, k, s.Name, one, alone)
				}
			}
			got, fresh, err := team.RecallAll(ctx, spaces, q, o)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%q, k %d:\n got %v\nwant %v", q, k, got, want)
			}
			if len(fresh) != len(spaces) {
				t.Fatalf("%q, k %d: freshness of %d workspaces", q, k, len(fresh))
			}
			// Only the workspaces made by secretWorkspace hold the vault
			// code; the others' best lines for these words (1 in their own
			// recall) match weakly and must not come first.
			if q == "zanzibar vault code" && (len(got) == 0 || !strings.Contains(got[0].Content, "7741")) {
				t.Errorf("%q, k %d: first %+v, want the line with the code", q, k, got)
			}
			for i, f := range fresh {
				if f.Workspace != spaces[i].Name || f.Checked.IsZero() || f.AgeMS < 0 {
					t.Errorf("%q, k %d: freshness %d: %+v", q, k, i, f)
				}
			}
			for _, r := range got {
				if !slices.ContainsFunc(fresh, func(f team.Freshness) bool { return f.Workspace == r.Workspace }) {
					t.Errorf("%q, k %d: a result of %s, whose freshness is not reported", q, k, r.Workspace)
				}
			}
		}
	}
}
