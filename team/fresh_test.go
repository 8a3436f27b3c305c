package team_test

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"memoria"
	"memoria/internal/testworkspace"
	"memoria/team"
)

// TestKeepFreshWatched: KeepFresh finds a change to a watched folder and
// syncs its workspace, so that a recall allowing a stale index finds it
// without checking the files itself; the unchanged workspace's index is
// vouched fresh all the while, as is the changed one's after its sync.
func TestKeepFreshWatched(t *testing.T) {
	t.Parallel()
	if runtime.GOOS != "linux" {
		t.Skip("folders are watched on Linux only")
	}
	ctx := context.Background()
	var spaces []team.Space
	for _, name := range []string{"a", "b"} {
		dir := testworkspace.CopyExample(t)
		ws, err := memoria.Open(ctx, dir, memoria.Options{IndexPath: filepath.Join(t.TempDir(), "index.sqlite")})
		if err != nil {
			t.Fatal(err)
		}
		defer ws.Close()
		spaces = append(spaces, team.Space{Name: name, WS: ws})
	}
	const maxStale = 40 * time.Millisecond
	bg, stop := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Go(func() { team.KeepFresh(bg, spaces, maxStale, func(m string) { t.Errorf("warning: %s", m) }) })
	defer func() { stop(); wg.Wait() }()

	// waitUntil waits for what KeepFresh does in the background.
	waitUntil := func(what string, cond func() bool) {
		t.Helper()
		deadline := time.Now().Add(30 * time.Second)
		for !cond() {
			if time.Now().After(deadline) {
				t.Fatalf("not within 30s: %s", what)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	fresh := func(s team.Space, after time.Time) func() bool {
		return func() bool { return s.WS.Checked().After(after) }
	}
	began := time.Now()
	for _, s := range spaces {
		waitUntil("workspace "+s.Name+" synced at start", fresh(s, began))
	}

	// A recall allowed an index an hour old never checks the files
	// itself: only KeepFresh's sync can make it find the new line.
	stale := memoria.RecallOptions{MaxStale: time.Hour, Lexical: true}
	found := func() bool {
		res, err := spaces[0].WS.Recall(ctx, "Quarzbrot", stale)
		if err != nil {
			t.Fatal(err)
		}
		return len(res) > 0 && strings.Contains(res[0].Content, "Quarzbrot")
	}
	if found() {
		t.Fatal("found before it was written")
	}
	written := time.Now()
	if err := os.WriteFile(filepath.Join(spaces[0].WS.Dir(), "memory", "2025-12-09.md"), []byte("# 2025-12-09\n\nBaked a Quarzbrot loaf.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	waitUntil("the new line found", found)
	later := time.Now()
	for _, s := range spaces {
		waitUntil("workspace "+s.Name+" fresh after the change", fresh(s, later))
	}
	if spaces[1].WS.Checked().Before(written) {
		t.Errorf("the unchanged workspace was last checked at %v, before the change (%v)", spaces[1].WS.Checked(), written)
	}
}
