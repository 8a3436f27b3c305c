package team

import (
	"cmp"
	"context"
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
// connection each; and the answer is often settled by the first
// workspaces, so that more at once mostly asks workspaces whose answers
// are then dropped.
const maxParallel = 8

// RecallAll answers a query from several workspaces and merges their
// results: each workspace's recall runs as it would alone (its own
// transaction, which sees that workspace only), and the best K of all are
// kept, by score, then by rank within its workspace, then by the order the
// spaces are given in. Scores are relative within a workspace (1 for its
// best), so the merge takes each workspace's best answers first rather
// than comparing raw engine scores.
//
// The workspaces are asked in the order given, a few at once and no more
// than could still be needed, and the asking stops as soon as the answer
// is settled: once K of the workspaces asked first, all answered, have a
// best result (score 1, rank 1), no result of a later workspace can enter
// the best K, and those later workspaces are not asked (their freshness
// is not reported). One
// workspace failing among those that decide the answer fails the whole
// recall: a partial answer is never presented as complete. With
// o.MaxStale, a workspace synced less than that long ago is not checked
// again; the freshness of each workspace's index as the recall found it
// is returned beside the results, in the order of spaces.
func RecallAll(ctx context.Context, spaces []Space, text string, o memoria.RecallOptions) ([]Result, []Freshness, error) {
	k := o.K
	if k <= 0 {
		k = recall.DefaultK
	}
	k = min(k, memoria.MaxK)
	per := make([][]recall.Result, len(spaces))
	parent := ctx
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		mu      sync.Mutex
		changed = sync.NewCond(&mu)
		done    = make([]bool, len(spaces))
		prefix  int   // spaces[:prefix] have all answered
		bests   int   // of which this many have a best result
		found   int   // recalls that answered with a best result, in any order
		running int   // recalls under way
		cut     = -1  // the answer is settled by spaces[:cut]
		failed  error // the first failure that matters
	)
	finish := func(i int, res []recall.Result, err error) {
		mu.Lock()
		defer mu.Unlock()
		defer changed.Broadcast()
		running--
		if cut >= 0 && i >= cut {
			return // not needed: its results could not enter the best K
		}
		if err != nil {
			if failed == nil {
				failed = fmt.Errorf("workspace %s: %w", spaces[i].Name, err)
				cancel()
			}
			return
		}
		per[i], done[i] = res, true
		if len(res) > 0 && res[0].Score >= 1 {
			found++
		}
		for prefix < len(spaces) && done[prefix] {
			if rs := per[prefix]; len(rs) > 0 && rs[0].Score >= 1 {
				bests++
			}
			prefix++
		}
		if cut < 0 && bests >= k && prefix < len(spaces) {
			cut = prefix
			cancel() // every recall still running is of a later workspace
		}
	}
	stop := context.AfterFunc(ctx, func() {
		mu.Lock()
		changed.Broadcast()
		mu.Unlock()
	})
	defer stop()
	// The next workspace is asked while fewer than maxParallel recalls
	// run and the ones under way, should each find a best result, would
	// not yet settle the answer.
	var wg sync.WaitGroup
	for i, s := range spaces {
		mu.Lock()
		for ctx.Err() == nil && (running >= maxParallel || running+found >= k) {
			changed.Wait()
		}
		if ctx.Err() != nil {
			mu.Unlock()
			break
		}
		running++
		mu.Unlock()
		wg.Go(func() {
			res, err := s.WS.Recall(ctx, text, o)
			finish(i, res, err)
		})
	}
	wg.Wait()
	if err := parent.Err(); err != nil {
		return nil, nil, err
	}
	if failed != nil {
		return nil, nil, failed
	}
	if cut >= 0 {
		spaces, per = spaces[:cut], per[:cut]
	}
	answered := time.Now()
	fresh := make([]Freshness, len(spaces))
	for i, s := range spaces {
		c := s.WS.Checked()
		fresh[i] = Freshness{Workspace: s.Name, Checked: c.UTC(), AgeMS: max(0, answered.Sub(c).Milliseconds())}
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
	out := make([]Result, 0, min(k, len(all)))
	for _, r := range all[:min(k, len(all))] {
		out = append(out, r.Result)
	}
	return out, fresh, nil
}

// KeepFresh keeps the workspaces' indexes fresh until ctx ends, as a
// Server does: every maxStale/2, it syncs, one at a time, each workspace
// that no sync began in since, so that recalls with MaxStale rarely wait
// for a sync of their own. A failed sync is said through warn (nil:
// dropped); a recall that finds the index too old then syncs itself, and
// fails if that fails too. For programs that call RecallAll themselves.
func KeepFresh(ctx context.Context, spaces []Space, maxStale time.Duration, warn func(string)) {
	every := max(maxStale/2, time.Millisecond)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		for _, s := range spaces {
			if ctx.Err() != nil {
				return
			}
			if time.Since(s.WS.Checked()) < every {
				continue
			}
			if _, err := s.WS.Sync(ctx); err != nil && ctx.Err() == nil && warn != nil {
				warn(fmt.Sprintf("workspace %s: keeping the index fresh: %v", s.Name, err))
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
