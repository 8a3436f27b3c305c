package main

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"memoria"
)

// TestReflectSet reflects a copy of the workspace through the library,
// twice, and requires every check of its checks.json: stale curated lines
// marked with the current value, lines no log contradicts kept, current
// values in the pages' summaries, a page for a new person, confidences in
// the ranges the update rule promises, the stale core line proposed, the
// logs byte-identical and a second run changing nothing.
func TestReflectSet(t *testing.T) {
	for _, r := range reflectSet(t, ".", true) {
		if !r.ok {
			t.Errorf("%s: %s", r.name, r.detail)
		}
	}
}

// TestHeldOutSets checks that each other set is well formed (its checks
// name what its workspace holds) and that reflect runs on it, and logs its
// score: such a set measures, it is not a specification. prairie, dublin,
// kisumu, singapore and rifugio are held out (nobody here reads their
// failing checks);
// sailing and bakery were held out until their failures were read, and
// garage and choir were written for development.
func TestHeldOutSets(t *testing.T) {
	for _, set := range []string{"sailing", "bakery", "garage", "choir", "prairie", "dublin", "kisumu", "singapore", "rifugio"} {
		t.Run(set, func(t *testing.T) {
			passed, results := 0, reflectSet(t, set, false)
			for _, r := range results {
				if r.ok {
					passed++
				}
			}
			t.Logf("score: %d of %d", passed, len(results))
		})
	}
}

// reflectSet runs reflect twice on a copy of set's workspace, after a dry
// run that must write nothing (and, when strict, show a stale mark), and
// returns the checks of its checks.json.
func reflectSet(t *testing.T, set string, strict bool) []check {
	t.Helper()
	c, err := loadChecks(filepath.Join(set, "checks.json"))
	if err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(set, "workspace")
	if err := c.validate(src); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	ws, err := memoria.Open(context.Background(), dir, memoria.Options{IndexPath: filepath.Join(t.TempDir(), "index.sqlite")})
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	now, err := time.Parse(time.DateOnly, c.Now)
	if err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, dir)
	rep, err := ws.Reflect(context.Background(), memoria.ReflectOptions{Now: now, DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	if after := snapshot(t, dir); after != before {
		t.Errorf("dry run changed files (a diff of %d bytes)", len(rep.Diff))
	}
	if strict && len(c.Stale) > 0 && !strings.Contains(rep.Diff, "marked stale by memoria reflect") {
		t.Errorf("dry run: no stale mark in a diff of %d bytes", len(rep.Diff))
	}
	var changed []string
	for range 2 {
		rep, err := ws.Reflect(context.Background(), memoria.ReflectOptions{Now: now})
		if err != nil {
			t.Fatal(err)
		}
		changed = rep.Changed
	}
	return checkWorkspace(c, src, dir, changed)
}

// snapshot is every file of the workspace but the index, as one string.
func snapshot(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		fmt.Fprintf(&b, "%s\n%s\n", p, data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}
