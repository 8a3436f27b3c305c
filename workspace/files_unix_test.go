//go:build unix

package workspace

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

func TestListFifo(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "memory", "2025-01-01.md"), "x\n")
	must(t, unix.Mkfifo(filepath.Join(dir, "memory", "pipe.md"), 0o644))
	files, skipped, err := List(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 1 || fmt.Sprint(skipped) != "[{memory/pipe.md not a regular file}]" {
		t.Errorf("files %v, skipped %v", relsOf(files), skipped)
	}
}

// TestReadLinesFifo: get refuses a FIFO at once; reading it used to block
// forever (and a server with it).
func TestReadLinesFifo(t *testing.T) {
	dir := t.TempDir()
	must(t, os.MkdirAll(filepath.Join(dir, "memory"), 0o755))
	must(t, unix.Mkfifo(filepath.Join(dir, "memory", "pipe.md"), 0o644))
	done := make(chan error, 1)
	go func() {
		_, err := ReadLines(dir, "memory/pipe.md#L1")
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Fatalf("got %v", err)
		}
	case <-time.After(10 * time.Second):
		// Unblock the reader so the test binary can exit.
		f, _ := os.OpenFile(filepath.Join(dir, "memory", "pipe.md"), os.O_WRONLY, 0)
		f.Close()
		t.Fatal("get blocked on a FIFO")
	}
}

// TestOneConfinementRule: what belongs to a workspace is the same for the
// listing (so the index and recall) and for get: a memory/ folder that is
// a symlink out of the workspace is neither listed nor read (it used to be
// indexed and recalled while get refused it), one that stays inside is
// both; and get reads only the memory files (it used to return any file
// of the folder, .memory/index.sqlite included).
func TestOneConfinementRule(t *testing.T) {
	outside := t.TempDir()
	write(t, filepath.Join(outside, "2025-01-01.md"), "# 2025-01-01\n\nA secret from elsewhere.\n")
	dir := t.TempDir()
	write(t, filepath.Join(dir, "memory.md"), "# Core\n")
	must(t, os.Symlink(outside, filepath.Join(dir, "memory")))
	files, skipped, err := List(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if strings.HasPrefix(f.Rel, "memory/") {
			t.Errorf("listed through a symlink out of the workspace: %s", f.Rel)
		}
	}
	if len(skipped) != 1 || skipped[0].Rel != "memory" {
		t.Errorf("skipped %+v", skipped)
	}
	if _, err := ReadLines(dir, "memory/2025-01-01.md#L3"); err == nil {
		t.Error("get read through a symlink out of the workspace")
	}

	// Inside the workspace, a symlinked folder is fine for both.
	in := t.TempDir()
	write(t, filepath.Join(in, "logs", "2025-01-02.md"), "# 2025-01-02\n\nAn ordinary day.\n")
	must(t, os.Symlink(filepath.Join(in, "logs"), filepath.Join(in, "memory")))
	files, _, err = List(in)
	if err != nil || len(files) != 1 || files[0].Rel != "memory/2025-01-02.md" {
		t.Fatalf("inside: %+v, %v", files, err)
	}
	if l, err := ReadLines(in, "memory/2025-01-02.md#L3"); err != nil || l.Text != "An ordinary day." {
		t.Errorf("inside: %+v, %v", l, err)
	}

	// Only memory files are read.
	write(t, filepath.Join(in, ".memory", "index.sqlite"), "SQLite format 3\n")
	write(t, filepath.Join(in, "notes.txt"), "not memory\n")
	for _, ref := range []string{".memory/index.sqlite#L1-L3", "notes.txt#L1", "review/core-proposals.md#L1"} {
		if _, err := ReadLines(in, ref); err == nil || !strings.Contains(err.Error(), "not a memory file") {
			t.Errorf("get %s: %v", ref, err)
		}
	}
}
