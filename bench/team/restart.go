//go:build unix

package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"memoria"
	"memoria/recall"
)

// signature is what a recall answered, to compare answers: the sources,
// ids and scores of its results, in order.
func signature(res []recall.Result) string {
	var b strings.Builder
	for _, r := range res {
		b.WriteString(r.ID)
		b.WriteByte(' ')
		b.WriteString(r.Source)
		b.WriteByte(' ')
		b.WriteString(strconv.FormatFloat(r.Score, 'g', 12, 64))
		b.WriteByte('\n')
	}
	return b.String()
}

// op is one operation of phase 4: when it started and ended (since the
// phase began) and how it went.
type op struct {
	start, end time.Duration
	err        error
}

// ack is a retain that returned success.
type ack struct {
	space  *space
	token  string
	bullet string
	path   string
}

// restarts runs phase 4: writers retain and clients recall while the
// server restarts (and crashes and restarts), then every acknowledged
// write is looked for.
func (b *bench) restarts(ctx context.Context) error {
	cfg, rs := b.cfg, &b.rep.Restart
	opts := b.recallOptions()
	// What each question answers in each workspace nobody writes to: any
	// other answer reported as a success is wrong.
	refs := map[[2]int]string{}
	for si, s := range b.static {
		for qi, q := range questions {
			res, err := s.ws.Recall(ctx, q, opts)
			if err != nil {
				return err
			}
			refs[[2]int{si, qi}] = signature(res)
		}
	}
	b.logf("server restarts: %d writers retain, %d clients recall for %s at least, %d restarts", len(b.writers), cfg.Clients, cfg.RestartFor, cfg.Restarts)

	phaseCtx, stop := context.WithCancel(ctx)
	defer stop()
	start := time.Now()
	progress := make(chan struct{}, 1)
	var wg sync.WaitGroup
	retainOps := make([][]op, len(b.writers))
	recallOps := make([][]op, cfg.Clients)
	acks := make([][]ack, len(b.writers))
	failed := make([][]ack, len(b.writers))
	wrong := make([][]string, cfg.Clients)
	// The start (since the phase began) of the latest successful
	// operation of each kind.
	var lastRetain, lastRecall atomic.Int64
	success := func(last *atomic.Int64, t time.Duration) {
		for {
			v := last.Load()
			if v >= int64(t) || last.CompareAndSwap(v, int64(t)) {
				break
			}
		}
	}
	notify := func() {
		select {
		case progress <- struct{}{}:
		default:
		}
	}
	for i, s := range b.writers {
		wg.Go(func() {
			r := b.rng(6, uint64(i))
			for n := 0; phaseCtx.Err() == nil; n++ {
				tok := token("r", i, n)
				fact := fmt.Sprintf("W @Bench-Writer: retained %s while the server restarts, %s.", tok, phrase(r, 4))
				t := time.Since(start)
				res, err := s.ws.Retain(ctx, []string{fact}, memoria.RetainOptions{Now: b.now})
				if ctx.Err() != nil {
					return
				}
				retainOps[i] = append(retainOps[i], op{t, time.Since(start), err})
				a := ack{space: s, token: tok, path: res.Path}
				if err == nil && len(res.Added) == 1 {
					a.bullet = res.Added[0].Bullet
					acks[i] = append(acks[i], a)
					success(&lastRetain, t)
				} else if err == nil {
					retainOps[i][len(retainOps[i])-1].err = fmt.Errorf("retain of %s returned success but added %d facts", tok, len(res.Added))
				} else {
					a.path = "memory/" + b.now.Format("2006-01-02") + ".md"
					failed[i] = append(failed[i], a)
				}
				notify()
			}
		})
	}
	for i := range cfg.Clients {
		wg.Go(func() {
			r := b.rng(7, uint64(i))
			for phaseCtx.Err() == nil {
				si, qi := r.IntN(len(b.static)), r.IntN(len(questions))
				t := time.Since(start)
				res, err := b.static[si].ws.Recall(ctx, questions[qi], opts)
				if ctx.Err() != nil {
					return
				}
				recallOps[i] = append(recallOps[i], op{t, time.Since(start), err})
				if err == nil && signature(res) != refs[[2]int{si, qi}] {
					wrong[i] = append(wrong[i], fmt.Sprintf("%s %q at %s: %d results differing from the answer before", b.static[si].name, questions[qi], round(t), len(res)))
				} else if err == nil {
					success(&lastRecall, t)
				}
				notify()
			}
		})
	}
	halt := func() {
		stop()
		wg.Wait()
	}

	// The restarts, evenly spread: a fast one, then a crash, alternately.
	var events []restartEvent
	var ends []time.Duration
	for e := range cfg.Restarts {
		at := cfg.RestartFor * time.Duration(e+1) / time.Duration(cfg.Restarts+1)
		select {
		case <-ctx.Done():
			halt()
			return ctx.Err()
		case <-time.After(at - time.Since(start)):
		}
		ev := restartEvent{Kind: "restart", At: ms(time.Since(start))}
		t := time.Now()
		var err error
		if e%2 == 1 {
			ev.Kind = "kill+restart"
			err = b.cluster.Kill()
		}
		if err == nil {
			err = b.cluster.Restart()
		}
		if err != nil {
			halt()
			return fmt.Errorf("%s: %w", ev.Kind, err)
		}
		ev.Took = ms(time.Since(t))
		events = append(events, ev)
		ends = append(ends, time.Since(start))
		b.logf("  %s at %s took %s", ev.Kind, ev.At, ev.Took)
	}

	// Run until the phase's time is up and both kinds of operation have
	// succeeded after the last restart, or a minute has passed since it.
	var last time.Duration
	if len(ends) > 0 {
		last = ends[len(ends)-1]
	}
	back := func() bool { return lastRetain.Load() > int64(last) && lastRecall.Load() > int64(last) }
	minimum := time.After(cfg.RestartFor - time.Since(start))
	deadline := time.After(max(cfg.RestartFor, last+time.Minute) - time.Since(start))
	minDone := false
wait:
	for !minDone || !back() {
		select {
		case <-ctx.Done():
			halt()
			return ctx.Err()
		case <-minimum:
			minDone = true
		case <-progress:
		case <-deadline:
			break wait
		}
	}
	halt()
	rs.Recovered = back()

	// The figures.
	var errs samples
	var retainD, recallD []time.Duration
	for _, ops := range retainOps {
		for _, o := range ops {
			if o.err != nil {
				rs.RetainErrors++
				errs.add(o.err)
			} else {
				retainD = append(retainD, o.end-o.start)
			}
		}
	}
	for _, ops := range recallOps {
		for _, o := range ops {
			if o.err != nil {
				rs.RecallErrors++
				errs.add(o.err)
			} else {
				rs.Recalls++
				recallD = append(recallD, o.end-o.start)
			}
		}
	}
	rs.Retain, rs.Recall, rs.ErrorSamples = summarize(retainD), summarize(recallD), errs.list
	for e := range events {
		from, to := time.Duration(events[e].At), time.Duration(1<<62)
		if e+1 < len(events) {
			to = time.Duration(events[e+1].At)
		}
		back := func(ops [][]op) ms {
			first := time.Duration(-1)
			for _, o := range ops {
				for _, x := range o {
					if x.err == nil && x.end > ends[e] && (first < 0 || x.end < first) {
						first = x.end
					}
				}
			}
			if first < 0 {
				return -1
			}
			return ms(first - ends[e])
		}
		events[e].RetainBack, events[e].RecallBack = back(retainOps), back(recallOps)
		for _, ops := range slices.Concat(retainOps, recallOps) {
			for _, o := range ops {
				if o.err != nil && o.end >= from && o.end < to {
					events[e].ErrorsDuring++
				}
			}
		}
	}
	rs.Events = events
	for _, w := range wrong {
		rs.Wrong = append(rs.Wrong, w...)
	}

	// Every acknowledged retain is in the Markdown, and in the index once
	// the workspace is synced, through the workspaces opened before the
	// restarts.
	for i, s := range b.writers {
		if _, err := s.ws.Sync(ctx); err != nil {
			rs.Recovered = false
			errs.add(fmt.Errorf("sync after the restarts: %w", err))
			rs.ErrorSamples = errs.list
			continue
		}
		rs.Retains += len(acks[i])
		md := map[string][]byte{}
		read := func(rel string) []byte {
			if _, ok := md[rel]; !ok {
				md[rel], _ = os.ReadFile(filepath.Join(s.dir, filepath.FromSlash(rel)))
			}
			return md[rel]
		}
		toks := make([]string, 0, len(acks[i]))
		for _, a := range acks[i] {
			if !strings.Contains(string(read(a.path)), a.bullet) {
				rs.Missing = append(rs.Missing, fmt.Sprintf("%s: %s is not in %s", s.name, a.token, a.path))
			}
			toks = append(toks, a.token)
		}
		missing, err := b.findTokens(ctx, s, toks)
		if err != nil {
			return err
		}
		for _, t := range missing {
			rs.Missing = append(rs.Missing, fmt.Sprintf("%s: %s is not in the index", s.name, t))
		}
		for _, a := range failed[i] {
			if strings.Contains(string(read(a.path)), a.token) {
				rs.RetainWritten++
			}
		}
	}
	b.rep.correct("restarts: acknowledged retains missing", fmt.Sprintf("%d of %d", len(rs.Missing), rs.Retains), "0", len(rs.Missing) == 0)
	b.rep.correct("restarts: wrong answers reported as success", fmt.Sprint(len(rs.Wrong)), "0", len(rs.Wrong) == 0)
	b.rep.correct("restarts: working again without reopening", fmt.Sprint(rs.Recovered), "true", rs.Recovered)
	return nil
}
