//go:build unix

package main

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime/pprof"
	"slices"
	"strings"
	"sync"
	"time"

	"memoria/memory"
	"memoria/postgres"
	"memoria/sqlite"
)

// sample is one timed operation: when it started (since the phase began),
// how long it took, and in which workspace.
type sample struct {
	at, d time.Duration
	space int
}

// pause waits a random time of mean d (exponential: the gaps between the
// requests of many independent agents), or until ctx ends; 0 waits not.
// Each agent waits once before its first request too: agents that all
// ask at the same instant at the start make the p99 of a short run (16
// recalls and 4 syncs at once on 4 workspaces took 180 to 440 ms each;
// of the 580 recalls after them, 3 took more than 100 ms).
func pause(ctx context.Context, r *rand.Rand, d time.Duration) {
	if d <= 0 {
		return
	}
	select {
	case <-ctx.Done():
	case <-time.After(time.Duration(r.ExpFloat64() * float64(d))):
	}
}

// load runs the writers and the clients for the configured duration,
// then keeps them running while it measures team-wide recall.
func (b *bench) load(ctx context.Context) error {
	cfg, rep := b.cfg, b.rep
	if cfg.PGStats {
		if err := resetStatements(ctx, b.super); err != nil {
			return err
		}
	}
	if cfg.CPUProfile != "" {
		f, err := os.Create(cfg.CPUProfile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	b.logf("load: %d writers and %d clients for %s", len(b.writers), cfg.Clients, cfg.Duration)
	opts := b.serverOptions()
	loadCtx, stop := context.WithCancel(ctx)
	defer stop()
	start := time.Now()
	var wg sync.WaitGroup
	recalls := make([][]sample, cfg.Clients)
	syncs := make([][]sample, len(b.writers))
	tokens := make([][]string, len(b.writers))
	errs := make([]samples, cfg.Clients+len(b.writers))
	for i, s := range b.writers {
		wg.Go(func() {
			r := b.rng(2, uint64(i))
			pause(loadCtx, r, cfg.WriterPause)
			for n := 0; loadCtx.Err() == nil; n++ {
				tok := token("w", i, n)
				if err := appendLine(s, r, tok); err != nil {
					errs[i].add(err)
					return
				}
				t := time.Now()
				_, err := s.ws.Sync(ctx)
				if err != nil {
					if ctx.Err() != nil {
						return
					}
					errs[i].add(err)
					continue
				}
				syncs[i] = append(syncs[i], sample{t.Sub(start), time.Since(t), i})
				tokens[i] = append(tokens[i], tok)
				pause(loadCtx, r, cfg.WriterPause)
			}
		})
	}
	for i := range cfg.Clients {
		wg.Go(func() {
			r := b.rng(3, uint64(i))
			pause(loadCtx, r, cfg.ClientPause)
			for loadCtx.Err() == nil {
				k := r.IntN(len(b.spaces))
				q := questions[r.IntN(len(questions))]
				t := time.Now()
				_, err := b.spaces[k].ws.Recall(ctx, q, opts)
				if err != nil {
					if ctx.Err() != nil {
						return
					}
					errs[len(b.writers)+i].add(err)
					continue
				}
				recalls[i] = append(recalls[i], sample{t.Sub(start), time.Since(t), k})
				pause(loadCtx, r, cfg.ClientPause)
			}
		})
	}
	cpu0 := readCPU()
	select {
	case <-ctx.Done():
		stop()
		wg.Wait()
		return ctx.Err()
	case <-time.After(cfg.Duration):
	}
	window := time.Since(start)
	cpu1 := readCPU()
	l := &rep.Load
	l.ProcessCPU, l.MachineBusy = cpu1.process(cpu0), cpu1.busy(cpu0)
	if cfg.PGStats {
		var err error
		if rep.Statements, err = topStatements(ctx, b.super); err != nil {
			return err
		}
	}

	b.logf("team recall under load: %d queries", cfg.TeamQueries)
	var teamD []time.Duration
	r := b.rng(4, 0)
	spaces := b.teamSpaces()
	for range cfg.TeamQueries {
		q := questions[r.IntN(len(questions))]
		if err := b.teamRecall(ctx, spaces, q, opts, &teamD); err != nil {
			if ctx.Err() != nil {
				break
			}
			rep.Team.Errors++
			errs[0].add(err)
			continue
		}
	}
	stop()
	wg.Wait()
	if ctx.Err() != nil {
		return ctx.Err()
	}
	rep.Team.Loaded = summarize(teamD)

	// The figures of the window: operations that started in it.
	var rd, sd []time.Duration
	bySpace := map[int][]time.Duration{}
	for _, ss := range recalls {
		for _, s := range ss {
			if s.at < window {
				rd = append(rd, s.d)
				bySpace[s.space] = append(bySpace[s.space], s.d)
			}
		}
	}
	for _, ss := range syncs {
		for _, s := range ss {
			if s.at < window {
				sd = append(sd, s.d)
			}
		}
	}
	l.Recall, l.Sync, l.Syncs = summarize(rd), summarize(sd), len(sd)
	l.RecallsPerSec = float64(len(rd)) / window.Seconds()
	l.SyncsPerSec = float64(len(sd)) / window.Seconds()
	for k, d := range bySpace {
		if sm := summarize(d); sm.P50 > l.SlowestSpaceP50 {
			l.SlowestSpace, l.SlowestSpaceP50 = b.spaces[k].name, sm.P50
		}
	}
	var all samples
	for _, e := range errs {
		all.n += e.n
		for _, m := range e.list {
			if !slices.Contains(all.list, m) && len(all.list) < 8 {
				all.list = append(all.list, m)
			}
		}
	}
	l.Errors, l.ErrorSamples = all.n-rep.Team.Errors, all.list

	// Every sync that returned success holds its line: the last ones of
	// each writer are looked for in the index.
	for i, s := range b.writers {
		last := tokens[i][max(0, len(tokens[i])-50):]
		missing, err := b.findTokens(ctx, s, last)
		if err != nil {
			return err
		}
		l.TokensChecked += len(last)
		l.TokensMissing += len(missing)
	}

	rep.target("recall, one workspace, under load: p50", l.Recall.P50.String(), "≤ 20ms", time.Duration(l.Recall.P50) <= 20*time.Millisecond)
	rep.target("recall, one workspace, under load: p99", l.Recall.P99.String(), "≤ 100ms", time.Duration(l.Recall.P99) <= 100*time.Millisecond)
	if cfg.TeamQueries > 0 {
		rep.target("team recall, under load: p50", rep.Team.Loaded.P50.String(), "≤ 100ms", time.Duration(rep.Team.Loaded.P50) <= 100*time.Millisecond)
	}
	rep.correct("errors under load", fmt.Sprint(all.n), "0", all.n == 0)
	rep.correct("synced lines missing from the index", fmt.Sprintf("%d of %d", l.TokensMissing, l.TokensChecked), "0", l.TokensMissing == 0)
	return nil
}

// findTokens returns the tokens that no item of the workspace's index
// contains, read through an index that does not sync (with -sqlite, a
// second handle of the workspace's).
func (b *bench) findTokens(ctx context.Context, s *space, toks []string) ([]string, error) {
	if len(toks) == 0 {
		return nil, nil
	}
	var ix interface {
		Search(ctx context.Context, terms []string, f memory.Filter, limit int) ([]memory.Hit, error)
	}
	if b.cfg.SQLite {
		// A second handle of the workspace's index; the writers have
		// stopped.
		lite, err := sqlite.Open(ctx, s.dir, sqlite.Options{})
		if err != nil {
			return nil, err
		}
		defer lite.Close()
		ix = lite
	} else {
		pg, err := b.checkDB.Workspace(ctx, s.name, "", postgres.WorkspaceOptions{})
		if err != nil {
			return nil, err
		}
		ix = pg
	}
	var missing []string
	for chunk := range slices.Chunk(toks, 50) {
		hits, err := ix.Search(ctx, chunk, memory.Filter{}, 10*len(chunk))
		if err != nil {
			return nil, err
		}
		for _, t := range chunk {
			if !slices.ContainsFunc(hits, func(h memory.Hit) bool { return strings.Contains(h.Content, t) }) {
				missing = append(missing, t)
			}
		}
	}
	return missing, nil
}

// appendLine adds a line holding tok to a random daily log of the
// workspace, under a "## Bench notes" heading at its end.
func appendLine(s *space, r *rand.Rand, tok string) error {
	p := filepath.Join(s.dir, filepath.FromSlash(s.logs[r.IntN(len(s.logs))]))
	old, err := os.ReadFile(p)
	if err != nil {
		return err
	}
	line := fmt.Sprintf("- Bench note %s: %s.\n", tok, phrase(r, 6))
	var b bytes.Buffer
	b.Write(old)
	if len(old) > 0 && old[len(old)-1] != '\n' {
		b.WriteByte('\n')
	}
	if i := bytes.LastIndex(old, []byte("\n## ")); i < 0 || !bytes.HasPrefix(old[i+1:], []byte("## Bench notes\n")) {
		b.WriteString("\n## Bench notes\n\n")
	}
	b.WriteString(line)
	return writeFile(p, b.Bytes())
}

// writeFile replaces a file by renaming a new one over it, as memoria's
// own writes do: a sync never reads half a file.
func writeFile(p string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(filepath.Dir(filepath.Dir(p))), ".bench-*.tmp")
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		os.Remove(f.Name())
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(f.Name())
		return err
	}
	if err := os.Rename(f.Name(), p); err != nil {
		os.Remove(f.Name())
		return err
	}
	return nil
}
