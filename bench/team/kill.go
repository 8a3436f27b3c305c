//go:build unix

package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"

	"memoria"
	"memoria/memory"
	"memoria/postgres"
)

// childEnv, when set (to the JSON of childArgs), makes this binary the
// child of phase 3: it syncs one workspace and exits, unless it is killed
// first.
const childEnv = "MEMORIA_BENCH_TEAM_CHILD"

type childArgs struct {
	URL  string `json:"url"`
	Name string `json:"name"`
	Dir  string `json:"dir"`
}

// childMain opens the workspace without syncing it (its index is up to
// date but for the change), says "syncing" and syncs.
func childMain() int {
	var a childArgs
	if err := json.Unmarshal([]byte(os.Getenv(childEnv)), &a); err != nil {
		fmt.Fprintln(os.Stderr, "child:", err)
		return 2
	}
	ctx := context.Background()
	ws, err := memoria.Open(ctx, a.Dir, memoria.Options{IndexPath: a.URL, IndexName: a.Name})
	if err != nil {
		fmt.Fprintln(os.Stderr, "child:", err)
		return 1
	}
	defer ws.Close()
	fmt.Println("syncing")
	st, err := ws.Sync(ctx)
	if err != nil {
		fmt.Fprintln(os.Stderr, "child:", err)
		return 1
	}
	fmt.Printf("synced %d files, %d items\n", st.Parsed, st.Items)
	return 0
}

// killMarker is a word that only the change of phase 3 contains.
const killMarker = "zqkillmarkerq"

// fingerprint is what a workspace's index holds, in short.
type fingerprint struct {
	Files, Items, Marker int
}

func (f fingerprint) String() string {
	return fmt.Sprintf("%d files, %d items, %d with the marker", f.Files, f.Items, f.Marker)
}

func fingerprintOf(ctx context.Context, ix *postgres.Index) (fingerprint, error) {
	st, err := ix.Status(ctx)
	if err != nil {
		return fingerprint{}, err
	}
	hits, err := ix.Search(ctx, []string{killMarker}, memory.Filter{}, memory.MaxScoredRows)
	if err != nil {
		return fingerprint{}, err
	}
	return fingerprint{Files: fileCount(st), Items: itemCount(st), Marker: len(hits)}, nil
}

// change is a large change to a workspace: new daily logs and changed
// ones, every one of them with the marker, and the way back.
type change struct {
	write    map[string][]byte // path → content of the change
	original map[string][]byte // path → content before it (nil: a new file)
}

// makeChange prepares n files' change to s: half of them new logs (the
// days before the first), half existing logs with a section added.
func (b *bench) makeChange(s *space, n int) (*change, error) {
	r := b.rng(5, 1)
	c := &change{write: map[string][]byte{}, original: map[string][]byte{}}
	added := n / 2
	for j := range added {
		src, err := os.ReadFile(filepath.Join(s.dir, filepath.FromSlash(s.logs[r.IntN(len(s.logs))])))
		if err != nil {
			return nil, err
		}
		day := synthStart.AddDate(0, 0, -1-j).Format("2006-01-02")
		_, body, _ := bytes.Cut(src, []byte("\n"))
		var buf bytes.Buffer
		fmt.Fprintf(&buf, "# %s\n%s", day, body)
		fmt.Fprintf(&buf, "\n## Bench change\n\n- Added by the kill test: %s %s.\n", killMarker, phrase(r, 5))
		p := filepath.Join(s.dir, "memory", day+".md")
		c.write[p], c.original[p] = buf.Bytes(), nil
	}
	for _, k := range r.Perm(len(s.logs))[:min(len(s.logs), n-added)] {
		p := filepath.Join(s.dir, filepath.FromSlash(s.logs[k]))
		old, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		add := fmt.Sprintf("\n## Bench change\n\n- Changed by the kill test: %s %s.\n", killMarker, phrase(r, 5))
		c.write[p], c.original[p] = append(bytes.Clone(old), add...), old
	}
	return c, nil
}

func (c *change) apply() error {
	for p, data := range c.write {
		if err := writeFile(p, data); err != nil {
			return err
		}
	}
	return nil
}

func (c *change) undo() error {
	for p, data := range c.original {
		var err error
		if data == nil {
			err = os.Remove(p)
			if errors.Is(err, fs.ErrNotExist) {
				err = nil
			}
		} else {
			err = writeFile(p, data)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// kills runs phase 3.
func (b *bench) kills(ctx context.Context) error {
	cfg, k := b.cfg, &b.rep.Kill
	s := b.killed
	ix, err := b.checkDB.Workspace(ctx, s.name, "", postgres.WorkspaceOptions{})
	if err != nil {
		return err
	}
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	before, err := fingerprintOf(ctx, ix)
	if err != nil {
		return err
	}
	if before.Marker != 0 {
		return fmt.Errorf("%s: the marker is already there before the change: %v", s.name, before)
	}
	ch, err := b.makeChange(s, cfg.Change)
	if err != nil {
		return err
	}
	restore := func() error {
		if err := ch.undo(); err != nil {
			return err
		}
		if _, err := s.ws.Sync(ctx); err != nil {
			return err
		}
		fp, err := fingerprintOf(ctx, ix)
		if err != nil {
			return err
		}
		if fp != before {
			k.Violations = append(k.Violations, fmt.Sprintf("after restoring the Markdown and syncing: %v, want %v", fp, before))
		}
		return nil
	}

	// An uninterrupted sync: how long one takes, and what it leaves.
	if err := ch.apply(); err != nil {
		return err
	}
	syncTime, finished, err := b.runChild(ctx, exe, s, "bench-team-child", -1)
	if err != nil {
		return err
	}
	if !finished {
		return errors.New("the uninterrupted sync did not finish")
	}
	after, err := fingerprintOf(ctx, ix)
	if err != nil {
		return err
	}
	k.Sync, k.ChangedFiles, k.AddedItems = ms(syncTime), len(ch.write), after.Items-before.Items
	b.logf("kill -9: an uninterrupted sync of %d files took %s (%v → %v); %d kills", len(ch.write), round(syncTime), before, after, cfg.Kills)
	if after.Marker != len(ch.write) || after.Files != before.Files+cfg.Change/2 {
		k.Violations = append(k.Violations, fmt.Sprintf("the uninterrupted sync left %v; before it %v", after, before))
	}
	if err := restore(); err != nil {
		return err
	}

	r := b.rng(5, 2)
	for i := range cfg.Kills {
		if err := ch.apply(); err != nil {
			return err
		}
		// Spread over the sync, and past it: a sync takes longer or
		// shorter from one run to the next, and some finish.
		delay := time.Duration(r.Float64() * 1.3 * float64(syncTime))
		app := fmt.Sprintf("bench-team-child-%d", i)
		_, finished, err := b.runChild(ctx, exe, s, app, delay)
		if err != nil {
			return err
		}
		if err := b.waitGone(ctx, app); err != nil {
			return err
		}
		fp, err := fingerprintOf(ctx, ix)
		if err != nil {
			return err
		}
		k.Trials++
		k.KillOffsets = append(k.KillOffsets, ms(delay))
		verr := ix.Verify(ctx)
		switch {
		case verr != nil:
			k.Violations = append(k.Violations, fmt.Sprintf("trial %d: %v", i, verr))
		case fp == after && finished:
			k.Finished++
		case fp == after:
			k.After++
		case fp == before && !finished:
			k.Before++
		default:
			k.Violations = append(k.Violations, fmt.Sprintf("trial %d (kill %s into a %s sync, finished %v): %v; before the change %v, after it %v",
				i, round(delay), round(syncTime), finished, fp, before, after))
		}
		b.logf("  kill %d at %s: %v", i, round(delay), fp)
		if err := restore(); err != nil {
			return err
		}
	}
	b.rep.correct("kill -9: index exactly before or after a sync", fmt.Sprintf("%d violations", len(k.Violations)), "0", len(k.Violations) == 0)
	return nil
}

// runChild runs the child that syncs s and, with kill ≥ 0, kills it with
// SIGKILL that long after it starts its sync. It returns how long the
// sync ran and whether it finished (exited successfully).
func (b *bench) runChild(ctx context.Context, exe string, s *space, app string, kill time.Duration) (time.Duration, bool, error) {
	sep := "?"
	if strings.Contains(b.url, "?") {
		sep = "&"
	}
	args, err := json.Marshal(childArgs{URL: b.url + sep + "application_name=" + app, Name: s.name, Dir: s.dir})
	if err != nil {
		return 0, false, err
	}
	cmd := exec.CommandContext(ctx, exe)
	cmd.Env = append(os.Environ(), childEnv+"="+string(args))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return 0, false, err
	}
	if err := cmd.Start(); err != nil {
		return 0, false, err
	}
	started := make(chan time.Time, 1)
	done := make(chan error, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if sc.Text() == "syncing" {
				started <- time.Now()
			}
		}
		done <- cmd.Wait()
	}()
	var t0 time.Time
	select {
	case t0 = <-started:
	case err := <-done:
		return 0, false, fmt.Errorf("child exited before syncing (%v): %s", err, stderr.String())
	}
	var timer <-chan time.Time
	if kill >= 0 {
		timer = time.After(kill - time.Since(t0))
	}
	select {
	case err := <-done:
		if err != nil {
			return 0, false, fmt.Errorf("child: %v: %s", err, stderr.String())
		}
		return time.Since(t0), true, nil
	case <-timer:
		_ = cmd.Process.Signal(syscall.SIGKILL)
		err := <-done
		if err == nil { // it finished before the signal
			return time.Since(t0), true, nil
		}
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
			return 0, false, fmt.Errorf("child: %v: %s", err, stderr.String())
		}
		return time.Since(t0), false, nil
	}
}

// waitGone waits until the server has ended the killed child's session:
// until then its transaction may still commit or roll back.
func (b *bench) waitGone(ctx context.Context, app string) error {
	conn, err := pgx.Connect(ctx, b.super)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	deadline := time.Now().Add(30 * time.Second)
	for {
		var n int
		if err := conn.QueryRow(ctx, `SELECT count(*) FROM pg_stat_activity WHERE application_name = $1`, app).Scan(&n); err != nil {
			return err
		}
		if n == 0 {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("the session of %s outlived its process by 30s", app)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(5 * time.Millisecond):
		}
	}
}
