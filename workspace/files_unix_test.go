//go:build unix

package workspace

import (
	"fmt"
	"path/filepath"
	"testing"

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
