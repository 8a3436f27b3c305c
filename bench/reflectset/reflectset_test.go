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
// twice, and requires every check of checkWorkspace: stale curated lines
// marked with the current value, lines no log contradicts kept, current
// values in the pages' summaries, a page for a new person, confidences in
// the ranges the update rule promises, the stale core line proposed, the
// logs byte-identical and a second run changing nothing.
func TestReflectSet(t *testing.T) {
	src := "workspace"
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	ws, err := memoria.Open(context.Background(), dir, memoria.Options{IndexPath: filepath.Join(t.TempDir(), "index.sqlite")})
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	now, _ := time.Parse(time.DateOnly, Now)
	// A dry run shows the changes and writes nothing.
	before := snapshot(t, dir)
	rep, err := ws.Reflect(context.Background(), memoria.ReflectOptions{Now: now, DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	if after := snapshot(t, dir); after != before || !strings.Contains(rep.Diff, "marked stale by memoria reflect") {
		t.Errorf("dry run: files changed %v, diff of %d bytes", after != before, len(rep.Diff))
	}
	var changed []string
	for range 2 {
		rep, err := ws.Reflect(context.Background(), memoria.ReflectOptions{Now: now})
		if err != nil {
			t.Fatal(err)
		}
		changed = rep.Changed
	}
	passed := 0
	checks := checkWorkspace(src, dir, changed)
	for _, c := range checks {
		if c.ok {
			passed++
		} else {
			t.Errorf("%s: %s", c.name, c.detail)
		}
	}
	t.Logf("score: %d of %d", passed, len(checks))
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
