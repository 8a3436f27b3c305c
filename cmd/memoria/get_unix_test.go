//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"memoria/internal/testworkspace"
)

// TestGetSymlinkIntoIndexDirNotReadable: `memoria get` of a memory path
// that is a symlink to the index (or out of the workspace) is refused as
// not a memory file, exit 2, without a byte of what it leads to
// (memory/X.md → ../.memory/index.sqlite printed the SQLite bytes); a
// file whose name holds "#" reads back by its citation.
func TestGetSymlinkIntoIndexDirNotReadable(t *testing.T) {
	t.Parallel()
	ws := testworkspace.CopyExample(t)
	if code, _, errOut := cli(t, "index", "-w", ws); code != exitOK {
		t.Fatalf("index: exit %d: %s", code, errOut)
	}
	outside := filepath.Join(t.TempDir(), "passwd")
	if err := os.WriteFile(outside, []byte("root:x:0:0:OUTSIDE-SECRET\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for link, to := range map[string]string{
		"memory/X.md": "../.memory/index.sqlite",
		"memory/O.md": outside,
	} {
		if err := os.Symlink(to, filepath.Join(ws, filepath.FromSlash(link))); err != nil {
			t.Fatal(err)
		}
	}
	for _, ref := range []string{"memory/X.md", "memory/X.md#L1-L3", "memory/O.md#L1"} {
		code, out, errOut := cli(t, "get", "-w", ws, ref)
		if code != exitUsage || out != "" || !strings.Contains(errOut, "not a memory file") || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
			t.Errorf("get %s: exit %d, stdout %q, stderr %q", ref, code, out, errOut)
		}
	}

	if err := os.WriteFile(filepath.Join(ws, "memory", "meeting #3.md"), []byte("# Meeting 3\n\nBudget agreed.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, errOut := cli(t, "get", "-w", ws, "memory/meeting #3.md#L3"); code != exitOK || out != "Budget agreed.\n" {
		t.Errorf("get memory/meeting #3.md#L3: exit %d, %q, %q", code, out, errOut)
	}
}

// TestDoctorNamesUnreadableMemoryFiles: doctor lists the files the index
// passes over because get could not read them back as memory: a name with
// a backslash (its citation would name another path) and a symlink to what
// is not a memory file. Neither was reported (the backslash name was
// indexed and cited, and get refused the citation).
func TestDoctorNamesUnreadableMemoryFiles(t *testing.T) {
	t.Parallel()
	ws := testworkspace.CopyExample(t)
	if err := os.WriteFile(filepath.Join(ws, "memory", `a\b.md`), []byte("# Notes\n\nA note.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../.memory/index.sqlite", filepath.Join(ws, "memory", "X.md")); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := cli(t, "index", "--no-embed", "-w", ws); code != exitOK {
		t.Fatal(errOut)
	}
	_, out, _ := cli(t, "doctor", "-w", ws)
	if !strings.Contains(out, "FIX  skipped files") || !strings.Contains(out, `memory/a\b.md: a backslash`) || !strings.Contains(out, "memory/X.md: symlink to .memory/index.sqlite") {
		t.Errorf("doctor: %s", out)
	}
}
