package eval

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"memoria/memory"
)

// RecallFunc returns the ranked citations a recall system gives for q, best
// first. Paths are relative to q.Workspace and slash-separated, as in gold.
type RecallFunc func(ctx context.Context, q Query) ([]memory.Source, error)

// RunOptions configure Run.
type RunOptions struct {
	// Name labels the report, e.g. "memoria" or "bm25-3line".
	Name string
	// Workers is how many queries run at once; 0 or less means 1. Scores
	// do not depend on it (only latencies do).
	Workers int
	// KeepGoing records a failing query's error in its QueryResult (scored
	// as no results) and goes on; by default the first error stops Run.
	KeepGoing bool
}

// Run calls recall for every query, scores each result list against the
// query's gold and aggregates per category and overall. Queries with Scored
// false are run and recorded but left out of the aggregates.
func Run(ctx context.Context, queries []Query, recall RecallFunc, opts RunOptions) (*Report, error) {
	if recall == nil {
		return nil, errors.New("eval run: nil recall func")
	}
	workers := max(opts.Workers, 1)
	workers = min(workers, max(len(queries), 1))
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	start := time.Now()
	results := make([]QueryResult, len(queries))
	errs := make([]error, len(queries))
	lines := &lineCounter{counts: map[string]int{}}
	next := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				results[i], errs[i] = runOne(ctx, queries[i], recall, lines)
				if errs[i] != nil && !opts.KeepGoing {
					cancel()
				}
			}
		}()
	}
feed:
	for i := range queries {
		select {
		case next <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()

	if !opts.KeepGoing {
		for _, err := range errs {
			if err != nil {
				return nil, fmt.Errorf("eval run %q: %w", opts.Name, err)
			}
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("eval run %q: %w", opts.Name, err)
	}
	r := &Report{
		Name:    opts.Name,
		Workers: workers,
		Queries: results,
		Elapsed: time.Since(start),
	}
	r.Categories, r.Overall = Summarize(results)
	for _, q := range results {
		if q.Err != "" {
			r.Errors++
		}
		if !q.Scored {
			r.Unscored++
		}
	}
	return r, nil
}

// runOne runs and scores one query. The returned error is also recorded in
// the result.
func runOne(ctx context.Context, q Query, recall RecallFunc, lines *lineCounter) (QueryResult, error) {
	res := QueryResult{
		ID:         q.ID,
		Category:   q.Category,
		Question:   q.Question,
		Scored:     q.Scored,
		Abstention: q.Abstention,
		Gold:       Citations(q.Gold),
		Superseded: Citations(q.Superseded),
	}
	t0 := time.Now()
	got, err := recall(ctx, q)
	res.Latency = time.Since(t0)
	if err != nil {
		err = fmt.Errorf("query %s: %w", q.ID, err)
		res.Err = err.Error()
		got = nil
	}
	res.Results = Citations(got)
	res.Scores = ScoreQuery(got, q)
	res.Lines10 = 0
	for _, s := range got[:min(len(got), LinesCutoff)] {
		res.Lines10 += lines.lines(q.Workspace, s)
	}
	return res, err
}

// lineCounter counts cited lines, reading a file's length for whole-file
// citations (Start <= 0) so that returning whole files shows in Lines@10.
type lineCounter struct {
	mu     sync.Mutex
	counts map[string]int
}

// lines is s.Lines(), or the line count of the cited file in workspace ws
// when s cites a whole file (0 if the file cannot be read).
func (c *lineCounter) lines(ws string, s memory.Source) int {
	if s.Start > 0 {
		return s.Lines()
	}
	path := filepath.Join(ws, filepath.FromSlash(s.Path))
	c.mu.Lock()
	defer c.mu.Unlock()
	if n, ok := c.counts[path]; ok {
		return n
	}
	n := 0
	if data, err := os.ReadFile(path); err == nil && len(data) > 0 {
		n = bytes.Count(data, []byte("\n"))
		if data[len(data)-1] != '\n' {
			n++
		}
	}
	c.counts[path] = n
	return n
}
