package sqlite

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestLongLivedSyncSeesChanges: once a long-lived Index trusts its change
// monitor (from the third Sync on), every kind of change still reaches
// recall, including a change to a symlinked file's target outside the
// watched folders.
func TestLongLivedSyncSeesChanges(t *testing.T) {
	ctx := context.Background()
	dir := testWorkspace(t)
	// The target is a memory file (a symlink to anything else is not
	// indexed) in a hidden folder: not listed itself, and not watched.
	writeFile(t, dir, "memory/.drafts/linked.md", "# linked\n\nThe lighthouse keeper waved.\n")
	if err := os.Symlink(filepath.Join(".drafts", "linked.md"), filepath.Join(dir, "memory", "2025-11-01.md")); err != nil {
		t.Fatal(err)
	}
	ix := openTest(t, dir, Options{})
	for range 3 {
		if _, err := ix.Sync(ctx); err != nil {
			t.Fatal(err)
		}
	}
	found := func(word string) bool {
		t.Helper()
		return len(search(t, ix, word)) > 0
	}
	// With a symlink in the workspace the monitor is not trusted.
	writeFile(t, dir, "memory/.drafts/linked.md", "# linked\n\nThe zeppelin landed.\n")
	if !found("zeppelin") || found("lighthouse") {
		t.Fatal("a change to a symlink's target was missed")
	}
	if err := os.Remove(filepath.Join(dir, "memory", "2025-11-01.md")); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if _, err := ix.Sync(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if found("zeppelin") {
		t.Fatal("removed symlink still recalled")
	}
	steps := []struct {
		name string
		do   func()
		word string
		want bool
	}{
		{"append to a log", func() {
			f, err := os.OpenFile(filepath.Join(dir, "memory", "2025-11-27.md"), os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			f.WriteString("\nThe quokka smiled.\n")
			f.Close()
		}, "quokka", true},
		{"new log", func() { writeFile(t, dir, "memory/2025-11-28.md", "Bought a theremin.\n") }, "theremin", true},
		{"log removed", func() { os.Remove(filepath.Join(dir, "memory", "2025-11-28.md")) }, "theremin", false},
		{"new entity folder and page", func() { writeFile(t, dir, "bank/entities/places/Oslo.md", "# Oslo\n\nFjord city.\n") }, "fjord", true},
		{"core memory rewritten", func() { writeFile(t, dir, "memory.md", "# Core\n\n- Peter likes matcha.\n") }, "matcha", true},
		{"nothing", func() {}, "matcha", true},
	}
	for _, s := range steps {
		s.do()
		if got := found(s.word); got != s.want {
			t.Errorf("%s: %q found = %v, want %v", s.name, s.word, got, s.want)
		}
	}
}
