package embed

import (
	"context"
	"runtime"
	"sync"
)

// Batches runs fn over runs [lo, hi) of consecutive texts, rows[i] being the token rows
// text i takes, on up to workers goroutines (0 means GOMAXPROCS). A run holds at most a
// budget of rows that spreads the work over the workers, between minRows and maxRows (a
// longer text is a run of its own), so that two texts still use two cores and a
// worker's buffers stay bounded. It checks ctx between runs and returns its error.
// A model's Embed uses it to batch its forward passes.
func Batches(ctx context.Context, rows []int, workers, minRows, maxRows int, fn func(lo, hi int)) error {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	total := 0
	for _, r := range rows {
		total += r
	}
	budget := min(max((total+workers-1)/workers, minRows), maxRows)
	type run struct{ lo, hi int }
	var runs []run
	for lo := 0; lo < len(rows); {
		hi, n := lo, 0
		for hi < len(rows) && (hi == lo || n+rows[hi] <= budget) {
			n += rows[hi]
			hi++
		}
		runs = append(runs, run{lo, hi})
		lo = hi
	}
	workers = min(workers, len(runs))
	if workers <= 1 {
		for _, r := range runs {
			if err := ctx.Err(); err != nil {
				return err
			}
			fn(r.lo, r.hi)
		}
		return nil
	}
	next := make(chan run)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for r := range next {
				fn(r.lo, r.hi)
			}
		})
	}
	var err error
	for _, r := range runs {
		if err = ctx.Err(); err != nil {
			break
		}
		next <- r
	}
	close(next)
	wg.Wait()
	return err
}
