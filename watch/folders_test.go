package watch_test

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"memoria/watch"
)

// TestFoldersTake: each folder's changes are reported to Take once, for
// that folder only, including those in folders created after the watch
// began; what the index ignores (hidden files, other files at the root)
// is no change; a folder that cannot be watched says so.
func TestFoldersTake(t *testing.T) {
	t.Parallel()
	if runtime.GOOS != "linux" {
		t.Skip("folders are watched on Linux only")
	}
	// c is a barrier: the watcher reads events in order, so once a change
	// in c written after others is seen, the others have been.
	a, b, c := t.TempDir(), t.TempDir(), t.TempDir()
	for _, d := range []string{a, b, c} {
		if err := os.MkdirAll(filepath.Join(d, "memory"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	seen := make(chan int, 100)
	began := time.Now()
	// "" is no folder; a is there twice, as two workspaces may share one.
	roots := []string{a, b, c, "", a}
	f, err := watch.WatchFoldersHook(roots, func(m string) { t.Errorf("warning: %s", m) }, func(i int) { seen <- i })
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	write := func(dir, rel, text string) {
		t.Helper()
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// settle waits until the watcher has seen every change written
	// before it.
	marks := 0
	settle := func() {
		t.Helper()
		marks++
		// A new folder: one event only, none left for the next settle.
		if err := os.Mkdir(filepath.Join(c, "memory", fmt.Sprintf("mark%d", marks)), 0o755); err != nil {
			t.Fatal(err)
		}
		for {
			select {
			case i := <-seen:
				if i == 2 {
					f.Take(2)
					return
				}
			case <-time.After(30 * time.Second):
				t.Fatal("the barrier's change not seen within 30s")
			}
		}
	}
	take := func(i int, want bool) time.Time {
		t.Helper()
		at, watched := f.Take(i)
		if !watched {
			t.Fatalf("folder %d is not watched", i)
		}
		if at.IsZero() == want {
			t.Fatalf("folder %d: changed at %v, want a change: %v", i, at, want)
		}
		return at
	}
	// The first Take: changed as of the watch's start, whatever an
	// earlier sync saw.
	if at := take(0, true); at.Before(began) {
		t.Errorf("first change at %v, before the watch began (%v)", at, began)
	}
	take(1, true)
	take(0, false)
	take(1, false)
	take(2, true)
	if at, watched := f.Take(3); watched || at.IsZero() {
		t.Errorf(`folder "": changed at %v, watched %v; want a change, not watched`, at, watched)
	}

	take(4, true)
	take(4, false)

	before := time.Now()
	write(a, "memory/2026-01-02.md", "# 2026-01-02\n\nA line.\n")
	settle()
	if at := take(0, true); at.Before(before) {
		t.Errorf("change at %v, before the write (%v)", at, before)
	}
	take(4, true)
	take(1, false)

	// Names the index ignores, and a change in b.
	write(a, "memory/.2026-01-02.md.swp", "junk")
	write(a, "notes.txt", "not memory")
	write(b, "memory.md", "# Core\n")
	settle()
	take(0, false)
	take(1, true)

	// Folders created after the watch began, then a file in them; and a
	// later file in the new folder, which is watched too.
	write(b, "bank/entities/Peter.md", "# Peter\n")
	settle()
	take(1, true)
	write(b, "bank/entities/Ana.md", "# Ana\n")
	settle()
	take(1, true)
	take(0, false)
}
