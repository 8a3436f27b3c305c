//go:build unix

package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"

	"memoria"
	"memoria/bench/synth"
	"memoria/ingest"
	"memoria/internal/pgtest"
	"memoria/memory"
	"memoria/workspace"
)

// synthStart is the first day of every generated workspace (synth's own
// default).
var synthStart = time.Date(2016, 1, 1, 0, 0, 0, 0, time.UTC)

// Items per daily log and items of the fixed pages (memory.md, bank/),
// measured on synth's output: the first guess of the days a workspace
// needs, corrected by counting.
const (
	itemsPerDay   = 22.7
	itemsFixed    = 960
	calibrateMore = 1.02 // a margin for the seeds that yield less than the first
)

// space is one workspace of the bench.
type space struct {
	name string
	dir  string
	ws   *memoria.Workspace
	logs []string // its daily logs, workspace-relative, sorted
}

// appDatabase creates a database owned by a role that is not a superuser
// (row-level security does not bind a superuser) and returns that role's
// URL to it, and the superuser's.
func appDatabase(ctx context.Context, c *pgtest.Cluster) (app, super string, err error) {
	super, err = c.CreateDatabase(ctx, "bench")
	if err != nil {
		return "", "", err
	}
	conn, err := pgx.Connect(ctx, super)
	if err != nil {
		return "", "", err
	}
	defer conn.Close(ctx)
	for _, q := range []string{
		`CREATE ROLE bench_app LOGIN`,
		`ALTER DATABASE bench OWNER TO bench_app`,
		`ALTER SCHEMA public OWNER TO bench_app`,
	} {
		if _, err := conn.Exec(ctx, q); err != nil {
			return "", "", fmt.Errorf("%s: %w", q, err)
		}
	}
	u, err := url.Parse(super)
	if err != nil {
		return "", "", err
	}
	u.User = url.User("bench_app")
	return u.String(), super, nil
}

// synthFingerprint identifies synth's output, so that cached workspaces
// made by another version of the generator are not reused: a hash of a
// small workspace, made afresh (in milliseconds).
func synthFingerprint() (string, error) {
	dir, err := os.MkdirTemp("", "memoria-bench-team-fp-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(dir)
	if _, err := synth.Generate(dir, synth.Options{Days: 5, Seed: 1, Start: synthStart}); err != nil {
		return "", err
	}
	h := sha256.New()
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		fmt.Fprintf(h, "%s %d\n", filepath.ToSlash(rel), len(b))
		h.Write(b)
		return nil
	})
	return hex.EncodeToString(h.Sum(nil))[:12], err
}

// generator makes the bench's workspaces in the cache folder.
type generator struct {
	cache string
	fp    string
	seed  uint64
	log   io.Writer

	mu        sync.Mutex
	generated int // workspaces generated (not found in the cache)
}

// dir is where the workspace of this seed and length is cached.
func (g *generator) dir(days int, i int) string {
	return filepath.Join(g.cache, fmt.Sprintf("synth-%s-d%d-s%d", g.fp, days, g.seed+uint64(i)))
}

// ensure returns the cached workspace i of days days, generating it if it
// is not there (into a temporary folder renamed when complete, so that an
// interrupted run leaves no half workspace behind).
func (g *generator) ensure(days, i int) (string, error) {
	dir := g.dir(days, i)
	if _, err := os.Stat(dir + ".ok"); err == nil {
		return dir, nil
	}
	tmp := fmt.Sprintf("%s.tmp%d", dir, os.Getpid())
	os.RemoveAll(tmp)
	os.RemoveAll(dir)
	if _, err := synth.Generate(tmp, synth.Options{Days: days, Seed: g.seed + uint64(i), Start: synthStart}); err != nil {
		os.RemoveAll(tmp)
		return "", err
	}
	if err := os.Rename(tmp, dir); err != nil {
		os.RemoveAll(tmp)
		return "", err
	}
	g.mu.Lock()
	g.generated++
	g.mu.Unlock()
	return dir, os.WriteFile(dir+".ok", nil, 0o644)
}

// remove drops a cached workspace that the run does not use.
func (g *generator) remove(days, i int) {
	dir := g.dir(days, i)
	os.Remove(dir + ".ok")
	os.RemoveAll(dir)
}

// countItems counts the items a workspace's index will hold (facts and
// passages), by cutting its files into rows as the index does.
func countItems(ctx context.Context, dir string) (int, error) {
	files, _, err := workspace.List(dir)
	if err != nil {
		return 0, err
	}
	n := 0
	err = ingest.LoadAll(ctx, dir, files, ingest.Options{}, func(_ int, l ingest.Loaded) error {
		if l.Doc != nil {
			n += len(l.Doc.Facts) + len(l.Doc.Passages)
		}
		return nil
	})
	return n, err
}

// plan is the days per workspace found for a set of parameters, kept in
// the cache so that a second run need not search again.
type plan struct {
	Days  int `json:"days"`
	Items int `json:"items"`
}

// generate makes (or finds) w workspaces of equal length whose items
// total at least items, and returns their cached folders and the days.
func (g *generator) generate(ctx context.Context, w, items, parallel int) (dirs []string, days int, err error) {
	planPath := filepath.Join(g.cache, fmt.Sprintf("plan-%s-w%d-i%d-s%d.json", g.fp, w, items, g.seed))
	var p plan
	if b, err := os.ReadFile(planPath); err == nil && json.Unmarshal(b, &p) == nil && p.Days > 0 {
		days = p.Days
	} else {
		// Workspace 0 alone first, then all of them, lengthened until
		// they hold enough.
		per := (items + w - 1) / w
		days = max(1, int(math.Ceil((float64(per)-itemsFixed)/itemsPerDay)))
		var tried []int
		for {
			tried = append(tried, days)
			dir, err := g.ensure(days, 0)
			if err != nil {
				return nil, 0, err
			}
			n, err := countItems(ctx, dir)
			if err != nil {
				return nil, 0, err
			}
			if n >= per {
				break
			}
			days += max(1, int(math.Ceil(float64(per-n)/itemsPerDay)))
		}
		days = int(math.Ceil(float64(days) * calibrateMore))
		for _, d := range tried {
			if d != days {
				g.remove(d, 0)
			}
		}
	}
	for {
		dirs = make([]string, w)
		counts := make([]int, w)
		err := forEach(ctx, w, parallel, func(i int) error {
			dir, err := g.ensure(days, i)
			if err != nil {
				return err
			}
			dirs[i] = dir
			counts[i], err = countItems(ctx, dir)
			return err
		})
		if err != nil {
			return nil, 0, err
		}
		total := 0
		for _, n := range counts {
			total += n
		}
		if total >= items {
			b, _ := json.Marshal(plan{Days: days, Items: total})
			if err := os.WriteFile(planPath, b, 0o644); err != nil {
				return nil, 0, err
			}
			return dirs, days, nil
		}
		more := max(1, int(math.Ceil(float64(items-total)/float64(w)/itemsPerDay*calibrateMore)))
		fmt.Fprintf(g.log, "  %d items in %d days each, short of %d: %d days more\n", total, days, items, more)
		for i := range w {
			g.remove(days, i)
		}
		days += more
	}
}

// forEach runs f(0…n-1), at most parallel at once, and returns the first
// error (the others still run to their end).
func forEach(ctx context.Context, n, parallel int, f func(i int) error) error {
	errs := make([]error, n)
	sem := make(chan struct{}, parallel)
	var wg sync.WaitGroup
	for i := range n {
		if ctx.Err() != nil {
			errs[i] = ctx.Err()
			break
		}
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			errs[i] = f(i)
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}

// copyTree copies a workspace (regular files and folders).
func copyTree(src, dst string) (int64, error) {
	var bytes int64
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		bytes += int64(len(b))
		return os.WriteFile(target, b, 0o644)
	})
	return bytes, err
}

// dailyLogs lists a workspace's daily logs, workspace-relative and sorted.
func dailyLogs(dir string) ([]string, error) {
	entries, err := os.ReadDir(filepath.Join(dir, "memory"))
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".md") {
			out = append(out, "memory/"+e.Name())
		}
	}
	slices.Sort(out)
	return out, nil
}

// itemCount is the items of a status: facts and passages.
func itemCount(st memory.Status) int {
	n := st.Passages
	for _, c := range st.Facts {
		n += c
	}
	return n
}

func fileCount(st memory.Status) int {
	n := 0
	for _, c := range st.Files {
		n += c
	}
	return n
}
