package team

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sync"

	"memoria"
	"memoria/recall"
)

// Space is one workspace a team-wide recall may read, under its name in
// the shared index.
type Space struct {
	Name string
	WS   *memoria.Workspace
}

// Result is a recall result with the workspace it cites.
type Result struct {
	Workspace string `json:"workspace"`
	recall.Result
}

// maxParallel bounds the workspaces a team-wide recall asks at once: each
// recall is a few queries on the database, and fifty at once would take a
// connection each.
const maxParallel = 8

// RecallAll answers a query from several workspaces and merges their
// results: each workspace's recall runs as it would alone (its own
// transaction, which sees that workspace only), and the best K of all are
// kept, by score, then by the order the spaces are given in. Scores are
// relative within a workspace (1 for its best), so the merge takes each
// workspace's best answers first rather than comparing raw engine scores.
// One workspace failing fails the whole recall: a partial answer is never
// presented as complete.
func RecallAll(ctx context.Context, spaces []Space, text string, o memoria.RecallOptions) ([]Result, error) {
	per := make([][]recall.Result, len(spaces))
	errs := make([]error, len(spaces))
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	sem := make(chan struct{}, maxParallel)
	var wg sync.WaitGroup
	for i, s := range spaces {
		wg.Go(func() {
			select {
			case sem <- struct{}{}:
			case <-ctx.Done():
				errs[i] = ctx.Err()
				return
			}
			defer func() { <-sem }()
			per[i], errs[i] = s.WS.Recall(ctx, text, o)
			if errs[i] != nil {
				cancel()
			}
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("workspace %s: %w", spaces[i].Name, err)
		}
	}
	type ranked struct {
		Result
		space, rank int
	}
	var all []ranked
	for i, rs := range per {
		for j, r := range rs {
			all = append(all, ranked{Result{spaces[i].Name, r}, i, j})
		}
	}
	slices.SortStableFunc(all, func(a, b ranked) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		if c := cmp.Compare(a.rank, b.rank); c != 0 {
			return c
		}
		return cmp.Compare(a.space, b.space)
	})
	k := o.K
	if k <= 0 {
		k = recall.DefaultK
	}
	out := make([]Result, 0, min(k, len(all)))
	for _, r := range all[:min(k, len(all))] {
		out = append(out, r.Result)
	}
	return out, nil
}
