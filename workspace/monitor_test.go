package workspace_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"memoria/workspace"
)

// TestMonitor checks, step by step, that every change List could see is
// reported and that changes it cannot see are not.
func TestMonitor(t *testing.T) {
	dir := t.TempDir()
	if _, err := workspace.Init(dir); err != nil {
		t.Fatal(err)
	}
	m, err := workspace.NewMonitor(dir)
	if errors.Is(err, workspace.ErrMonitorUnsupported) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if m.Changed() {
		t.Fatal("changed before anything happened")
	}
	write := func(rel, text string) func() {
		return func() {
			p := filepath.Join(dir, filepath.FromSlash(rel))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	appendTo := func(rel, text string) func() {
		return func() {
			f, err := os.OpenFile(filepath.Join(dir, filepath.FromSlash(rel)), os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			f.WriteString(text)
			f.Close()
		}
	}
	steps := []struct {
		name string
		do   func()
		want bool
	}{
		{"new daily log", write("memory/2025-11-27.md", "# day\n"), true},
		{"append", appendTo("memory/2025-11-27.md", "- more\n"), true},
		{"touch", func() {
			ts := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
			os.Chtimes(filepath.Join(dir, "memory", "2025-11-27.md"), ts, ts)
		}, true},
		{"core memory", appendTo("memory.md", "- fact\n"), true},
		{"OpenClaw's user model", write("USER.md", "- Prefer tabs.\n"), true},
		{"OpenClaw's dream diary", write("DREAMS.md", "# Dream Diary\n"), true},
		{"a slugged daily note", write("memory/2025-11-27-1430.md", "# Session\n"), true},
		{"another root file", write("AGENTS.md", "# Agents\n"), false},
		{"file beside the workspace's folders", write("notes.txt", "x"), false},
		{"index folder", write(".memory/scratch", "x"), false},
		{"editor swap file", write("memory/.2025-11-27.md.swp", "x"), false},
		{"new subfolder", func() { os.MkdirAll(filepath.Join(dir, "bank", "entities", "people"), 0o755) }, true},
		{"file in the new subfolder", write("bank/entities/people/Alice.md", "# Alice\n"), true},
		{"rename into place", func() {
			write("memory/.tmp-1", "- atomic\n")()
			os.Rename(filepath.Join(dir, "memory", ".tmp-1"), filepath.Join(dir, "memory", "2025-11-28.md"))
		}, true},
		{"delete", func() { os.Remove(filepath.Join(dir, "memory", "2025-11-28.md")) }, true},
		{"folder replaced", func() {
			os.Rename(filepath.Join(dir, "memory"), filepath.Join(dir, "old-memory"))
			os.MkdirAll(filepath.Join(dir, "memory"), 0o755)
		}, true},
		{"write into the replacement", write("memory/2025-12-01.md", "- new\n"), true},
		{"write into the moved-away folder", write("old-memory/2025-12-02.md", "- away\n"), false},
		{"nothing", func() {}, false},
	}
	for _, s := range steps {
		s.do()
		got := m.Changed()
		if got != s.want {
			t.Errorf("%s: Changed() = %v, want %v", s.name, got, s.want)
		}
		if m.Changed() {
			t.Errorf("%s: Changed() twice in a row", s.name)
		}
	}
}
