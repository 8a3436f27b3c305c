package safewrite

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"

	"memoria/flock"
	"memoria/workspace"
)

func newWorkspace(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "memory"), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

func writeRaw(t *testing.T, p, s string, perm fs.FileMode) {
	t.Helper()
	if err := os.WriteFile(p, []byte(s), perm); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, perm); err != nil {
		t.Fatal(err)
	}
}

func readRaw(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// noTemps fails if a temporary file is left in dir.
func noTemps(t *testing.T, dir string) {
	t.Helper()
	m, _ := filepath.Glob(filepath.Join(dir, ".*.tmp"))
	if len(m) > 0 {
		t.Errorf("temporary files left: %v", m)
	}
}

func TestWriteFileKeepsPermissions(t *testing.T) {
	tests := []struct {
		name     string
		existing bool
		perm     fs.FileMode
		want     fs.FileMode
	}{
		{"new file", false, 0, DefaultPerm},
		{"private file", true, 0o600, 0o600},
		{"group-writable file", true, 0o664, 0o664},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := newWorkspace(t)
			p := filepath.Join(dir, "memory", "2025-11-27.md")
			if tt.existing {
				writeRaw(t, p, "old\n", tt.perm)
			}
			if err := WriteFile(dir, "memory/2025-11-27.md", []byte("new\n"), Options{}); err != nil {
				t.Fatal(err)
			}
			if got := readRaw(t, p); got != "new\n" {
				t.Errorf("content %q", got)
			}
			fi, err := os.Stat(p)
			if err != nil {
				t.Fatal(err)
			}
			if fi.Mode().Perm() != tt.want {
				t.Errorf("mode %v, want %v", fi.Mode().Perm(), tt.want)
			}
			noTemps(t, filepath.Join(dir, "memory"))
		})
	}
}

func TestConfinement(t *testing.T) {
	dir := newWorkspace(t)
	outside := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(dir, "out")); err != nil {
		t.Fatal(err)
	}
	writeRaw(t, filepath.Join(outside, "secret.md"), "secret\n", 0o644)
	if err := os.Symlink(filepath.Join(outside, "secret.md"), filepath.Join(dir, "memory", "link-out.md")); err != nil {
		t.Fatal(err)
	}
	for _, rel := range []string{"../x.md", "/etc/passwd", "memory/../../x.md", "out/secret.md", "out/new.md", "memory/link-out.md", `memory\x.md`} {
		t.Run(rel, func(t *testing.T) {
			err := WriteFile(dir, rel, []byte("pwned\n"), Options{})
			if err == nil {
				t.Fatalf("write %q succeeded", rel)
			}
			if strings.Count(err.Error(), "\n") > 0 {
				t.Errorf("error is not one line: %q", err)
			}
		})
	}
	if got := readRaw(t, filepath.Join(outside, "secret.md")); got != "secret\n" {
		t.Errorf("outside file changed: %q", got)
	}
	if m, _ := filepath.Glob(filepath.Join(outside, "*")); len(m) != 1 {
		t.Errorf("files created outside: %v", m)
	}
}

func TestSymlinkInsideIsWrittenThrough(t *testing.T) {
	dir := newWorkspace(t)
	real := filepath.Join(dir, "memory", "real.md")
	writeRaw(t, real, "old\n", 0o644)
	link := filepath.Join(dir, "memory", "link.md")
	if err := os.Symlink("real.md", link); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(dir, "memory/link.md", []byte("new\n"), Options{}); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("the symlink was replaced: %v", err)
	}
	if got := readRaw(t, real); got != "new\n" {
		t.Errorf("target content %q", got)
	}
}

// TestSymlinkToNonMemoryFileNeitherReadNorWritten: a memory path that is a
// symlink to a file of the workspace that is not a memory file (the index,
// a review file, a file of a code repository beside the Markdown) is
// neither read (core show, reflect) nor written (retain, core, reflect),
// as readers refuse it (workspace.Reader); one to another memory file is
// read and written through.
func TestSymlinkToNonMemoryFileNeitherReadNorWritten(t *testing.T) {
	dir := newWorkspace(t)
	for _, target := range []string{".memory/index.sqlite", "review/core-proposals.md", "src/main.go", "bank/.keep"} {
		p := filepath.Join(dir, filepath.FromSlash(target))
		os.MkdirAll(filepath.Dir(p), 0o755)
		writeRaw(t, p, "not memory\n", 0o644)
	}
	for link, target := range map[string]string{
		"memory.md":            ".memory/index.sqlite",
		"memory/2026-01-10.md": "../review/core-proposals.md",
		"bank/world.md":        "../src/main.go",
	} {
		if err := os.Symlink(target, filepath.Join(dir, filepath.FromSlash(link))); err != nil {
			t.Fatal(err)
		}
		if data, _, err := Snapshot(dir, link); !errors.Is(err, workspace.ErrNotMemoryFile) {
			t.Errorf("Snapshot %s -> %s: %q, %v", link, target, data, err)
		}
		err := Update(dir, link, func(old []byte) ([]byte, error) { return append(old, "written\n"...), nil })
		if !errors.Is(err, workspace.ErrNotMemoryFile) {
			t.Errorf("Update %s -> %s: %v", link, target, err)
		}
		if err := WriteFile(dir, link, []byte("written\n"), Options{}); !errors.Is(err, workspace.ErrNotMemoryFile) {
			t.Errorf("WriteFile %s -> %s: %v", link, target, err)
		}
	}
	for _, target := range []string{".memory/index.sqlite", "review/core-proposals.md", "src/main.go"} {
		if got := readRaw(t, filepath.Join(dir, filepath.FromSlash(target))); got != "not memory\n" {
			t.Errorf("%s was written: %q", target, got)
		}
	}
	writeRaw(t, filepath.Join(dir, "bank", "experience.md"), "- B I bake.\n", 0o644)
	os.Symlink("../bank/experience.md", filepath.Join(dir, "memory", "2026-01-11.md"))
	if data, _, err := Snapshot(dir, "memory/2026-01-11.md"); err != nil || string(data) != "- B I bake.\n" {
		t.Errorf("a symlink to a memory file: %q, %v", data, err)
	}
	if err := WriteFile(dir, "memory/2026-01-11.md", []byte("- B I bake rye.\n"), Options{}); err != nil {
		t.Errorf("a symlink to a memory file: %v", err)
	}
}

func TestFailedWriteLeavesOldFile(t *testing.T) {
	tests := []struct {
		name string
		fail func(f *os.File, b []byte) (int, error)
	}{
		{"disk full at once", func(f *os.File, b []byte) (int, error) { return 0, syscall.ENOSPC }},
		{"disk full half way", func(f *os.File, b []byte) (int, error) {
			n, _ := f.Write(b[:len(b)/2])
			return n, syscall.ENOSPC
		}},
		{"quota", func(f *os.File, b []byte) (int, error) { return 0, syscall.EDQUOT }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := newWorkspace(t)
			p := filepath.Join(dir, "memory", "2025-11-27.md")
			old := "# 2025-11-27\n\n## Retain\n- W @Peter: old fact\n"
			writeRaw(t, p, old, 0o644)
			saved := write
			write = tt.fail
			defer func() { write = saved }()
			err := Update(dir, "memory/2025-11-27.md", func(b []byte) ([]byte, error) {
				return append(b, []byte(strings.Repeat("- W new fact\n", 1000))...), nil
			})
			if !errors.Is(err, syscall.ENOSPC) && !errors.Is(err, syscall.EDQUOT) {
				t.Fatalf("err = %v, want the disk error", err)
			}
			if got := readRaw(t, p); got != old {
				t.Errorf("old file changed to %q", got)
			}
			noTemps(t, filepath.Join(dir, "memory"))
			// The lock was released: a later write succeeds.
			write = saved
			if err := WriteFile(dir, "memory/2025-11-27.md", []byte("ok\n"), Options{LockTimeout: -1}); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestReadOnlyFolder(t *testing.T) {
	dir := newWorkspace(t)
	if os.Geteuid() == 0 {
		// root ignores folder permissions: simulate what the kernel
		// would answer anyone else.
		saved := createTemp
		createTemp = func(dir, pattern string) (*os.File, error) {
			return nil, &fs.PathError{Op: "open", Path: filepath.Join(dir, pattern), Err: syscall.EACCES}
		}
		defer func() { createTemp = saved }()
	}
	os.MkdirAll(filepath.Join(dir, ".memory"), 0o755)
	p := filepath.Join(dir, "memory", "2025-11-27.md")
	writeRaw(t, p, "old\n", 0o644)
	if err := os.Chmod(filepath.Join(dir, "memory"), 0o555); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(filepath.Join(dir, "memory"), 0o755)
	err := WriteFile(dir, "memory/2025-11-27.md", []byte("new\n"), Options{})
	if !errors.Is(err, fs.ErrPermission) {
		t.Fatalf("err = %v, want permission denied", err)
	}
	if !strings.Contains(err.Error(), "memory/2025-11-27.md") {
		t.Errorf("error does not name the file: %v", err)
	}
	if got := readRaw(t, p); got != "old\n" {
		t.Errorf("old file changed to %q", got)
	}
}

func TestUpdate(t *testing.T) {
	tests := []struct {
		name    string
		initial *string
		fn      func([]byte) ([]byte, error)
		want    *string
		wantErr bool
	}{
		{"create", nil, func(b []byte) ([]byte, error) { return []byte("a\n"), nil }, ptr("a\n"), false},
		{"append", ptr("a\n"), func(b []byte) ([]byte, error) { return append(b, "b\n"...), nil }, ptr("a\nb\n"), false},
		{"fn fails", ptr("a\n"), func(b []byte) ([]byte, error) { return nil, errors.New("bad fact") }, ptr("a\n"), true},
		{"no change, no file", nil, func(b []byte) ([]byte, error) { return b, nil }, nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := newWorkspace(t)
			p := filepath.Join(dir, "memory", "x.md")
			if tt.initial != nil {
				writeRaw(t, p, *tt.initial, 0o644)
			}
			err := Update(dir, "memory/x.md", tt.fn)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v", err)
			}
			b, rerr := os.ReadFile(p)
			switch {
			case tt.want == nil && rerr == nil:
				t.Errorf("file created: %q", b)
			case tt.want != nil && string(b) != *tt.want:
				t.Errorf("content %q, want %q", b, *tt.want)
			}
		})
	}
}

func ptr(s string) *string { return &s }

func TestWriteIfUnchanged(t *testing.T) {
	dir := newWorkspace(t)
	p := filepath.Join(dir, "memory.md")
	writeRaw(t, p, "v1\n", 0o644)
	_, h, err := Snapshot(dir, "memory.md")
	if err != nil {
		t.Fatal(err)
	}
	writeRaw(t, p, "v2 by a person\n", 0o644) // edited meanwhile
	k, err := Lock(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer k.Unlock()
	if err := k.WriteIfUnchanged("memory.md", h, []byte("v1 reflected\n")); !errors.Is(err, ErrChanged) {
		t.Fatalf("err = %v, want ErrChanged", err)
	}
	if got := readRaw(t, p); got != "v2 by a person\n" {
		t.Errorf("overwritten: %q", got)
	}
	if err := k.WriteIfUnchanged("memory.md", Hash([]byte("v2 by a person\n")), []byte("v3\n")); err != nil {
		t.Fatal(err)
	}
	if err := k.WriteIfUnchanged("new.md", Hash(nil), []byte("fresh\n")); err != nil {
		t.Fatalf("missing file hashes as empty: %v", err)
	}
}

func TestLockTimeoutNamesHolder(t *testing.T) {
	dir := newWorkspace(t)
	k, err := Lock(dir, Options{Holder: "memoria retain"})
	if err != nil {
		t.Fatal(err)
	}
	defer k.Unlock()
	err = WriteFile(dir, "memory/x.md", []byte("x\n"), Options{LockTimeout: -1})
	if !errors.Is(err, ErrLocked) {
		t.Fatalf("err = %v, want ErrLocked", err)
	}
	want := fmt.Sprintf("pid %d (%s; retain, since ", os.Getpid(), flock.Command())
	if !strings.Contains(err.Error(), want) {
		t.Errorf("error %q does not name the holder %q", err, want)
	}
	if _, err := os.Stat(filepath.Join(dir, "memory", "x.md")); err == nil {
		t.Error("written without the lock")
	}
}

func TestStaleTempRemoved(t *testing.T) {
	dir := newWorkspace(t)
	stale := filepath.Join(dir, "memory", ".2025-11-27.md.12345.tmp")
	writeRaw(t, stale, "half", 0o600)
	other := filepath.Join(dir, "memory", ".other.md.1.tmp")
	writeRaw(t, other, "half", 0o600)
	if err := WriteFile(dir, "memory/2025-11-27.md", []byte("x\n"), Options{}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); err == nil {
		t.Error("stale temporary file left")
	}
	// Another file's, too: only writers holding the workspace lock make
	// them, so under the lock they are a killed writer's (they used to
	// stay until that very file was written again).
	if _, err := os.Stat(other); !os.IsNotExist(err) {
		t.Error("another file's stale temporary file left")
	}
	keep := filepath.Join(dir, "memory", ".notes.tmp") // not one of ours
	writeRaw(t, keep, "user", 0o600)
	if err := WriteFile(dir, "memory/2025-11-27.md", []byte("y\n"), Options{}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(keep); err != nil {
		t.Error("a file that is not a temporary file of ours was removed")
	}
}

func TestConcurrentUpdates(t *testing.T) {
	dir := newWorkspace(t)
	const writers, each = 8, 25
	var wg sync.WaitGroup
	errs := make(chan error, writers*each)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				errs <- Update(dir, "memory/log.md", func(b []byte) ([]byte, error) {
					return fmt.Appendf(b, "- W fact %d.%d\n", w, i), nil
				})
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	got := readRaw(t, filepath.Join(dir, "memory", "log.md"))
	if n := strings.Count(got, "\n"); n != writers*each {
		t.Errorf("%d lines, want %d", n, writers*each)
	}
}

// TestPrepareFile: a prepared replacement leaves the old file as it is
// until Commit, and Discard leaves nothing behind.
func TestPrepareFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "derived.bin")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	write := func(s string) func(io.Writer) error {
		return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
	}
	read := func() string {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	entries := func() int {
		es, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		return len(es)
	}
	p, err := PrepareFile(path, 0o644, write("new"))
	if err != nil {
		t.Fatal(err)
	}
	if read() != "old" || entries() != 2 {
		t.Fatalf("prepared: %q, %d files", read(), entries())
	}
	if err := p.Commit(); err != nil {
		t.Fatal(err)
	}
	if read() != "new" || entries() != 1 {
		t.Fatalf("committed: %q, %d files", read(), entries())
	}
	p, err = PrepareFile(path, 0o644, write("newer"))
	if err != nil {
		t.Fatal(err)
	}
	p.Discard()
	if read() != "new" || entries() != 1 {
		t.Fatalf("discarded: %q, %d files", read(), entries())
	}
	if _, err := PrepareFile(path, 0o644, func(io.Writer) error { return errors.New("boom") }); err == nil || entries() != 1 {
		t.Fatalf("a failed write: %v, %d files", err, entries())
	}
}
