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
