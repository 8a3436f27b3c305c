package team

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

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

// Freshness says how old a workspace's index may have been when a recall
// answered from it (memoria.RecallOptions.MaxStale): it held every change
// made to the Markdown before Checked.
type Freshness struct {
	Workspace string    `json:"workspace"`
	Checked   time.Time `json:"checked"`
	AgeMS     int64     `json:"age_ms"` // how long before the answer Checked was
}

// maxParallel bounds the workspaces a team-wide recall asks at once: each
// recall is a few queries on the database, and fifty at once would take a
// connection each from a pool that the server's other calls share.
const maxParallel = 8

// RecallAll answers a query from several workspaces and merges their
// results: each workspace's recall runs as it would alone (its own
// transaction, which sees that workspace only), and the best K of all are
// kept by MergeKey, then by score, rank within its workspace and the
// order the spaces are given in.
//
// Every workspace is asked, no more than maxParallel at once: a result's
// place among other workspaces' depends on how strongly the engine matched
// it, which no workspace not yet asked bounds. One workspace failing fails
// the whole recall: a partial answer is never presented as complete. With
// o.MaxStale, a workspace synced less than that long ago is not checked
// again; the freshness of each workspace's index as the recall found it
// is returned beside the results, in the order of spaces.
func RecallAll(ctx context.Context, spaces []Space, text string, o memoria.RecallOptions) ([]Result, []Freshness, error) {
	k := o.K
	if k <= 0 {
		k = recall.DefaultK
	}
	k = min(k, memoria.MaxK)
	// Each workspace weighs the query's words among all those asked (and
	// only those: the caller may read them all), so that the bm25 that
	// MergeKey compares is on one scale (memoria.RecallOptions.Corpus).
	wss := make([]*memoria.Workspace, len(spaces))
	for i, s := range spaces {
		wss[i] = s.WS
	}
	o.Corpus = memoria.NewCorpus(wss...)
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
				cancel() // the answer fails; the others need not finish
			}
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil && !errors.Is(err, context.Canceled) {
			return nil, nil, fmt.Errorf("workspace %s: %w", spaces[i].Name, err)
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	answered := time.Now()
	fresh := make([]Freshness, len(spaces))
	for i, s := range spaces {
		c := s.WS.Checked()
		fresh[i] = Freshness{Workspace: s.Name, Checked: c.UTC(), AgeMS: max(0, answered.Sub(c).Milliseconds())}
	}
	type ranked struct {
		Result
		key         float64
		space, rank int
	}
	var all []ranked
	for i, rs := range per {
		for j, r := range rs {
			all = append(all, ranked{Result{spaces[i].Name, r}, MergeKey(r), i, j})
		}
	}
	slices.SortStableFunc(all, func(a, b ranked) int {
		if c := cmp.Compare(b.key, a.key); c != 0 {
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
	out := make([]Result, 0, min(k, len(all)))
	for _, r := range all[:min(k, len(all))] {
		out = append(out, r.Result)
	}
	return out, fresh, nil
}

// MergeKey places a result among other workspaces' results: its score
// within its own recall (relative: 1 for that workspace's best, so it
// says nothing across workspaces) times how strongly the full-text engine
// matched it (its bm25, on one scale for the workspaces asked: RecallAll
// has each weigh the words by their rarity among all of them, since a
// workspace's own counts made a small workspace's answer weigh nothing
// where most of its lines share the query's rarest word).
// Merged by relative score alone, a workspace's weak best line tied with
// another's strong one, and the first workspaces by name won: over the
// 100 longmemeval100 workspaces, each question asked of all of them,
// the answer was in the top 10 for 6 of 100 questions (92 when asked of
// its own workspace alone); by this key for 59 (the result's bm25 alone:
// 54; its workspace's best bm25 times the relative score: 46). Through
// PostgreSQL's bm25, for 61 with each workspace's own counts and 67 with
// the words weighed among all the workspaces. docs/team.md has the
// measurements. A result found only by meaning or by entity has no bm25
// and comes after those that have one.
func MergeKey(r recall.Result) float64 { return r.Score * r.Evidence.Lexical }
