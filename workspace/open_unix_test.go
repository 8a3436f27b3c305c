//go:build unix

package workspace

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"memoria/memory"
)

// secrets are what must never be read as memory: a file outside the
// workspace (as /etc/passwd) and the index.
const (
	outsideSecret = "root:x:0:0:OUTSIDE-SECRET\n"
	indexSecret   = "SQLite format 3\x00INDEX-SECRET\n"
)

func leaks(text string) bool {
	return strings.Contains(text, "OUTSIDE-SECRET") || strings.Contains(text, "INDEX-SECRET")
}

// hostileWorkspace makes a workspace with memory/a.md, .memory/index.sqlite
// (indexSecret) and a file outside it (outsideSecret, returned).
func hostileWorkspace(t *testing.T) (dir, outside string) {
	t.Helper()
	outside = filepath.Join(t.TempDir(), "passwd")
	write(t, outside, outsideSecret)
	dir = t.TempDir()
	write(t, filepath.Join(dir, "memory.md"), "# Core\n")
	write(t, filepath.Join(dir, "memory", "a.md"), "inside\n")
	write(t, filepath.Join(dir, IndexDir, "index.sqlite"), indexSecret)
	return dir, outside
}

// TestReadRaceCannotEscape: get checked a path and then opened it again,
// so a file swapped in between was served: /etc/passwd through a symlink,
// 19 times in 36,311 calls, and a FIFO hung the call. Now the file is
// opened once and the open handle is what is checked. A goroutine swaps
// memory/a.md (by rename, atomically) between a regular file and each
// hostile thing while ReadLines reads it: no read returns a secret, and
// none blocks.
func TestReadRaceCannotEscape(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		make func(dir, outside, at string) error // makes the hostile thing at at
	}{
		{"symlink out of the workspace", func(_, outside, at string) error { return os.Symlink(outside, at) }},
		{"relative symlink out of the workspace", func(dir, outside, at string) error {
			rel, err := filepath.Rel(filepath.Join(dir, "memory"), outside)
			if err != nil {
				return err
			}
			return os.Symlink(rel, at)
		}},
		{"symlink into the index folder", func(_, _, at string) error { return os.Symlink("../.memory/index.sqlite", at) }},
		{"FIFO", func(_, _, at string) error { return unix.Mkfifo(at, 0o644) }},
		{"symlink to a FIFO among the memory files", func(dir, _, at string) error {
			if err := unix.Mkfifo(filepath.Join(dir, "memory", "pipe.md"), 0o644); err != nil && !errors.Is(err, os.ErrExist) {
				return err
			}
			return os.Symlink("pipe.md", at)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir, outside := hostileWorkspace(t)
			must(t, os.Mkdir(filepath.Join(dir, "stage"), 0o755))
			target := filepath.Join(dir, "memory", "a.md")
			stop := make(chan struct{})
			swapped := make(chan error, 1)
			go func() {
				// Bounded, and stops as soon as the reads are done.
				for i := range 1_000_000 {
					select {
					case <-stop:
						swapped <- nil
						return
					default:
					}
					tmp := filepath.Join(dir, "stage", "next")
					var err error
					if i%2 == 0 {
						err = os.WriteFile(tmp, []byte("inside\n"), 0o644)
					} else {
						err = tt.make(dir, outside, tmp)
					}
					if err == nil {
						err = os.Rename(tmp, target)
					}
					if err != nil {
						swapped <- err
						return
					}
				}
				swapped <- nil
			}()

			type result struct{ leaked, read, refused int }
			done := make(chan result, 1)
			go func() {
				var r result
				for range 2000 {
					l, err := ReadLines(dir, "memory/a.md")
					switch {
					case err != nil:
						r.refused++
					case leaks(l.Text):
						r.leaked++
					default:
						r.read++
					}
				}
				done <- r
			}()
			// A read that blocks never reports: the test fails when the
			// framework's deadline is near, rather than hanging with it.
			wait := time.Minute
			if d, ok := t.Deadline(); ok {
				wait = min(wait, time.Until(d)*9/10)
			}
			var r result
			select {
			case r = <-done:
			case <-time.After(wait):
				close(stop)
				t.Fatalf("a read blocked (or 2000 reads took over %v)", wait)
			}
			close(stop)
			if err := <-swapped; err != nil {
				t.Fatal(err)
			}
			if r.leaked > 0 {
				t.Errorf("%d of 2000 reads returned a secret (%d read, %d refused)", r.leaked, r.read, r.refused)
			}
			t.Logf("%d read, %d refused", r.read, r.refused)

			// Once the swapping stops, the file reads as ever.
			must(t, os.WriteFile(filepath.Join(dir, "stage", "next"), []byte("inside\n"), 0o644))
			must(t, os.Rename(filepath.Join(dir, "stage", "next"), target))
			if l, err := ReadLines(dir, "memory/a.md#L1"); err != nil || l.Text != "inside" {
				t.Errorf("after the race: %q, %v", l.Text, err)
			}
		})
	}
}

// TestSymlinkIntoIndexDirNotReadable: a memory path that is a symlink to
// something that is not a memory file (the index under .memory/, a review
// file, a file outside) is neither listed (so neither indexed nor recalled)
// nor read by get; memory/X.md → ../.memory/index.sqlite used to return the
// SQLite bytes. The same goes for a memory/ or bank/ folder that is a
// symlink into .memory/. A symlink to another memory file still works for
// both, relative or absolute.
func TestSymlinkIntoIndexDirNotReadable(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		link string // workspace-relative path of the symlink
		to   func(dir, outside string) string
		ok   bool // a memory file: listed and read
	}{
		{"into the index, relative", "memory/x.md", func(string, string) string { return "../.memory/index.sqlite" }, false},
		{"into the index, absolute", "bank/x.md", func(dir, _ string) string { return filepath.Join(dir, IndexDir, "index.sqlite") }, false},
		{"core memory into the index", "memory.md", func(string, string) string { return ".memory/index.sqlite" }, false},
		{"through a memory symlink into the index", "memory/y.md", func(string, string) string { return "x2.md" }, false},
		{"to a review file", "memory/r.md", func(string, string) string { return "../review/core-proposals.md" }, false},
		{"to a Markdown file beside memory/", "memory/n.md", func(string, string) string { return "../notes.md" }, false},
		{"out of the workspace", "memory/o.md", func(_, outside string) string { return outside }, false},
		{"to a memory file, relative", "memory/b.md", func(string, string) string { return "a.md" }, true},
		{"to a memory file, absolute", "bank/b.md", func(dir, _ string) string { return filepath.Join(dir, "memory", "a.md") }, true},
		{"to a memory file in bank/", "memory/c.md", func(string, string) string { return "../bank/world.md" }, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir, outside := hostileWorkspace(t)
			write(t, filepath.Join(dir, "bank", "world.md"), "inside\n")
			write(t, filepath.Join(dir, "review", "core-proposals.md"), "INDEX-SECRET review\n")
			write(t, filepath.Join(dir, "notes.md"), "INDEX-SECRET notes\n")
			must(t, os.Symlink("../.memory/index.sqlite", filepath.Join(dir, "memory", "x2.md")))
			link := filepath.Join(dir, filepath.FromSlash(tt.link))
			if err := os.Remove(link); err != nil && !errors.Is(err, os.ErrNotExist) {
				t.Fatal(err)
			}
			must(t, os.Symlink(tt.to(dir, outside), link))
			files, skipped, err := List(dir)
			if err != nil {
				t.Fatal(err)
			}
			listed := false
			for _, f := range files {
				listed = listed || f.Rel == tt.link
			}
			if listed != tt.ok {
				t.Errorf("listed %v, want %v (skipped %v)", listed, tt.ok, skipped)
			}
			for _, ref := range []string{tt.link, tt.link + "#L1"} {
				l, err := ReadLines(dir, ref)
				switch {
				case leaks(l.Text):
					t.Errorf("get %s returned %q", ref, l.Text)
				case tt.ok && (err != nil || l.Text != "inside"):
					t.Errorf("get %s: %q, %v", ref, l.Text, err)
				case !tt.ok && !errors.Is(err, ErrNotMemoryFile):
					t.Errorf("get %s: %v, want a refusal as not a memory file", ref, err)
				}
			}
		})
	}

	// memory/ itself a symlink into .memory/: nothing in it is memory.
	t.Run("memory folder into the index folder", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		write(t, filepath.Join(dir, "memory.md"), "# Core\n")
		write(t, filepath.Join(dir, IndexDir, "notes.md"), "INDEX-SECRET\n")
		must(t, os.Symlink(IndexDir, filepath.Join(dir, "memory")))
		files, _, err := List(dir)
		if err != nil || len(files) != 1 {
			t.Errorf("listed %v, %v", relsOf(files), err)
		}
		if l, err := ReadLines(dir, "memory/notes.md"); err == nil || leaks(l.Text) {
			t.Errorf("get: %q, %v", l.Text, err)
		}
	})
}

// TestEveryCitationReadsBack: what the listing passes on to the index is
// cited as path#Lx-Ly, and get must read that citation back, whatever the
// file is called; a name whose citation could not be read back is skipped
// with a reason (which doctor shows), never indexed. Names with "#" were
// indexed but their citations were cut at the first "#", and names with a
// backslash were indexed but refused by get.
func TestEveryCitationReadsBack(t *testing.T) {
	t.Parallel()
	tests := []struct {
		rel    string
		listed bool
	}{
		{"memory/meeting #3.md", true},
		{"memory/C#.md", true},
		{"memory/a#L2.md", true},
		{"memory/x#L1-L2#.md", true},
		{"bank/notes#1/b.md", true},
		{"memory/100% sure.md", true},
		{"memory/with space.md", true},
		{"memory/ünïcødé.md", true},
		{`memory/back\slash.md`, false},
		{`memory/odd\..\..\memory.md`, false},
		{`bank/folder\with/b.md`, false},
	}
	for _, tt := range tests {
		t.Run(tt.rel, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			write(t, filepath.Join(dir, "memory.md"), "# Core\n")
			write(t, filepath.Join(dir, filepath.FromSlash(tt.rel)), "first\nsecond\n")
			files, skipped, err := List(dir)
			if err != nil {
				t.Fatal(err)
			}
			listed := false
			for _, f := range files {
				listed = listed || f.Rel == tt.rel
			}
			if listed != tt.listed {
				t.Fatalf("listed %v, want %v (files %v, skipped %v)", listed, tt.listed, relsOf(files), skipped)
			}
			if !listed {
				if len(skipped) != 1 || skipped[0].Rel != tt.rel || skipped[0].Reason == "" {
					t.Errorf("skipped %v, want %s with a reason", skipped, tt.rel)
				}
				return
			}
			for _, c := range []struct {
				src  memory.Source
				want string
			}{
				{memory.Source{Path: tt.rel, Start: 2}, "second"},
				{memory.Source{Path: tt.rel, Start: 1, End: 2}, "first\nsecond"},
				{memory.Source{Path: tt.rel}, "first\nsecond"},
			} {
				l, err := ReadLines(dir, c.src.String())
				if err != nil || l.Text != c.want || l.Source.Path != tt.rel {
					t.Errorf("get %s: %q (%s), %v; want %q", c.src, l.Text, l.Source, err, c.want)
				}
			}
		})
	}
}
