package watch_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"memoria"
	"memoria/internal/testworkspace"
	"memoria/memory"
	"memoria/watch"
)

// harness runs watch.Run on a workspace and exposes its syncs.
type harness struct {
	t     *testing.T
	ws    *memoria.Workspace
	syncs chan memory.Stats
}

func start(t *testing.T, dir string) *harness {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ws, err := memoria.Open(ctx, dir, memoria.Options{})
	if err != nil {
		t.Fatal(err)
	}
	h := &harness{t: t, ws: ws, syncs: make(chan memory.Stats, 100)}
	done := make(chan error, 1)
	go func() {
		done <- watch.Run(ctx, ws, watch.Options{Debounce: 50 * time.Millisecond, OnSync: func(st memory.Stats, err error) {
			if err != nil {
				t.Errorf("sync: %v", err)
				return
			}
			h.syncs <- st
		}})
	}()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("watch.Run: %v", err)
		}
		ws.Close()
	})
	h.next() // the sync at start
	return h
}

// next waits for the next sync, with a deadline.
func (h *harness) next() memory.Stats {
	h.t.Helper()
	select {
	case st := <-h.syncs:
		return st
	case <-time.After(30 * time.Second):
		h.t.Fatal("no sync within 30s")
	}
	return memory.Stats{}
}

// waitIndexed waits, sync by sync, until the index (read without syncing,
// through Status) holds want files and nothing is pending; then it checks
// that a recall finds word.
func (h *harness) waitIndexed(want int, word string) {
	h.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		st, err := h.ws.Status(context.Background())
		if err != nil {
			h.t.Fatal(err)
		}
		n := 0
		for _, c := range st.Files {
			n += c
		}
		if n == want && st.Pending == 0 {
			break
		}
		if time.Now().After(deadline) {
			h.t.Fatalf("index has %d files (want %d), %d pending", n, want, st.Pending)
		}
		h.next()
	}
	rs, err := h.ws.Recall(context.Background(), word, memoria.RecallOptions{K: 3})
	if err != nil {
		h.t.Fatal(err)
	}
	if len(rs) == 0 || !strings.Contains(strings.ToLower(rs[0].Content), strings.ToLower(word)) {
		h.t.Fatalf("recall %q: %+v", word, rs)
	}
}

func (h *harness) files() int {
	st, err := h.ws.Status(context.Background())
	if err != nil {
		h.t.Fatal(err)
	}
	n := 0
	for _, c := range st.Files {
		n += c
	}
	return n
}

func TestWatchWriteRenameAndNewFolder(t *testing.T) {
	dir := testworkspace.CopyExample(t)
	h := start(t, dir)
	n := h.files()

	// A new daily log written in place.
	write := func(rel, text string) {
		t.Helper()
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("memory/2025-12-05.md", "# 2025-12-05\n\nPeter bought a theremin called Zephyrine.\n")
	h.waitIndexed(n+1, "Zephyrine")

	// An editor's atomic save: a temporary file renamed over the original.
	write("memory/.2025-12-05.md.swp", "junk")
	write("memory/2025-12-05.md.tmp", "# 2025-12-05\n\nPeter sold the theremin; he plays a glockenspiel named Quillibet now.\n")
	if err := os.Rename(filepath.Join(dir, "memory", "2025-12-05.md.tmp"), filepath.Join(dir, "memory", "2025-12-05.md")); err != nil {
		t.Fatal(err)
	}
	h.waitIndexed(n+1, "Quillibet")
	if rs, _ := h.ws.Recall(context.Background(), "Zephyrine", memoria.RecallOptions{}); len(rs) > 0 && strings.Contains(rs[0].Content, "Zephyrine") {
		t.Errorf("old content still recalled: %+v", rs[0])
	}

	// A new file renamed into place (written elsewhere first).
	other := filepath.Join(t.TempDir(), "draft.md")
	if err := os.WriteFile(other, []byte("# Boats\n\nThe kayak Flotsam lives at the Alte Donau.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(other, filepath.Join(dir, "bank", "boats.md")); err != nil {
		t.Fatal(err)
	}
	h.waitIndexed(n+2, "Flotsam")

	// Folders created after the watch started, nested, then a file in them.
	deep := filepath.Join(dir, "bank", "projects", "2026")
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	write("bank/projects/2026/plan.md", "# Plan\n\nShip the Marimbaphone release in spring.\n")
	h.waitIndexed(n+3, "Marimbaphone")
	// A later write in that folder is seen too (the folder is watched).
	write("bank/projects/2026/ideas.md", "# Ideas\n\nA Xylorimba plugin.\n")
	h.waitIndexed(n+4, "Xylorimba")

	// A removed file leaves the index.
	if err := os.Remove(filepath.Join(dir, "bank", "boats.md")); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for h.files() != n+3 {
		if time.Now().After(deadline) {
			t.Fatalf("removed file still indexed: %d files", h.files())
		}
		h.next()
	}
}

func TestWatchFolderCreatedLater(t *testing.T) {
	// A workspace with only memory.md: memory/ appears later.
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "memory.md"), []byte("# Core\n\n## About\n- Nothing yet.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	h := start(t, dir)
	if err := os.Mkdir(filepath.Join(dir, "memory"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "memory", "2025-12-06.md"), []byte("# 2025-12-06\n\nMet Ottoline at the Naschmarkt.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	h.waitIndexed(2, "Ottoline")
	// Core memory edited in place.
	if err := os.WriteFile(filepath.Join(dir, "memory.md"), []byte("# Core\n\n## About\n- Prefers Pomelozzi tea.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	h.waitIndexed(2, "Pomelozzi")
}

// TestWatchOpenClawRootFiles: OpenClaw's files at the workspace's root,
// USER.md and DREAMS.md, are watched like memory.md.
func TestWatchOpenClawRootFiles(t *testing.T) {
	t.Parallel()
	dir := testworkspace.CopyExample(t)
	h := start(t, dir)
	n := h.files()
	write := func(rel, text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(rel)), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("USER.md", "<!-- observed: 2026-07-27 | status: active -->\n\n- Prefer replies signed Quokkaville.\n")
	h.waitIndexed(n+1, "Quokkaville")
	write("DREAMS.md", "# Dream Diary\n\nThe sweep noticed Wombatfield twice this week.\n")
	h.waitIndexed(n+2, "Wombatfield")
	write("AGENTS.md", "# Agents\n\nNever index Numbatown.\n")
	write("memory/2025-12-06-1430.md", "# Session\n\nWe named the build bot Bilbyburg.\n")
	h.waitIndexed(n+3, "Bilbyburg")
}
