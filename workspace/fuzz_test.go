package workspace

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzPathConfinement: whatever path a caller gives (a citation's path, a
// retain's date made a file name, an MCP argument), Path either refuses it
// or returns a path inside the workspace whose resolved form stays inside
// too, and ReadLines never returns the bytes of a file outside the
// workspace (a secret beside it, reached through "..", an absolute path or
// a symlink). The seeds are the traversal variants of the reliability
// pass; `go test` runs them, `go test -fuzz FuzzPathConfinement` explores.
func FuzzPathConfinement(f *testing.F) {
	for _, s := range []string{
		"memory/2025-11-27.md", "../secret.md", "memory/../../secret.md", "/etc/passwd", "memory/./x.md",
		"bank/../../secret.md", "memory/out/secret.md", "memory.md", "..", ".", "memory//x.md",
		"memory\\..\\..\\secret.md", "memory/%2e%2e/secret.md", "\x00", "memory/\u2024\u2024/secret.md",
		"bank/entities/../../../secret.md", "out/secret.md", "memory/out", "./../secret.md",
	} {
		f.Add(s)
	}
	parent := f.TempDir()
	ws := filepath.Join(parent, "ws")
	secret := "TOP-SECRET-" + strings.Repeat("x", 16)
	for rel, text := range map[string]string{
		"ws/memory/2025-11-27.md": "# 2025-11-27\n\nOrdinary line.\n",
		"ws/memory.md":            "# Core\n",
		"secret.md":               secret + "\n",
		"outside/secret.md":       secret + "\n",
	} {
		p := filepath.Join(parent, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			f.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			f.Fatal(err)
		}
	}
	// Symlinks leading out: a folder and a file.
	if err := os.Symlink(filepath.Join(parent, "outside"), filepath.Join(ws, "memory", "out")); err != nil {
		f.Skip("no symlinks here:", err)
	}
	if err := os.Symlink(filepath.Join(parent, "secret.md"), filepath.Join(ws, "out")); err != nil {
		f.Fatal(err)
	}
	root, err := filepath.EvalSymlinks(ws)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, rel string) {
		if p, err := Path(ws, rel); err == nil {
			if !Within(root, p) {
				t.Fatalf("Path(%q) = %s, outside %s", rel, p, root)
			}
			if resolved, err := filepath.EvalSymlinks(p); err == nil && !Within(root, resolved) {
				t.Fatalf("Path(%q) = %s resolves to %s, outside", rel, p, resolved)
			}
		}
		for _, ref := range []string{rel, rel + "#L1", rel + "#L1-L3"} {
			if l, err := ReadLines(ws, ref); err == nil && strings.Contains(l.Text, secret) {
				t.Fatalf("ReadLines(%q) read a file outside the workspace", ref)
			}
		}
	})
}
