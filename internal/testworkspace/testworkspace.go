// Package testworkspace gives tests private copies of workspaces, so that
// no test ever indexes or writes into the repository's own files.
package testworkspace

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// Example is the path of the bundled examples/workspace, wherever the
// calling test's package lives.
func Example() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "examples", "workspace")
}

// OpenClaw is the path of a workspace laid out as OpenClaw's builtin
// memory writes it (openclaw/README.md): MEMORY.md, USER.md, DREAMS.md,
// daily notes with and without a slug, a dreaming report and the memory
// OpenClaw imported from Codex, Claude Code and Hermes.
func OpenClaw() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "openclaw")
}

// CopyOpenClaw is Copy of the OpenClaw workspace.
func CopyOpenClaw(t testing.TB) string {
	t.Helper()
	return Copy(t, OpenClaw())
}

// Copy copies the workspace in src, without its derived .memory/ folder,
// into a new temporary folder and returns that folder.
func Copy(t testing.TB, src string) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == ".memory" {
				return fs.SkipDir
			}
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatalf("copy workspace %s: %v", src, err)
	}
	return dst
}

// CopyExample is Copy of the bundled example workspace.
func CopyExample(t testing.TB) string {
	t.Helper()
	return Copy(t, Example())
}

// Files returns every file under dir but the derived .memory/ folder, by
// slash-separated relative path, with its content: a snapshot to check that
// an operation wrote nothing it should not have.
func Files(t testing.TB, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".memory" {
			return filepath.SkipDir
		}
		if d.IsDir() || d.Type()&fs.ModeSymlink != 0 {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		out[filepath.ToSlash(rel)] = string(data)
		return nil
	})
	if err != nil {
		t.Fatalf("snapshot %s: %v", dir, err)
	}
	return out
}
