package main

import (
	"bytes"
	"context"
	"encoding/json"
	"memoria/internal/testworkspace"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// cliStdin is cli with stdin.
func cliStdin(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	home := t.TempDir()
	e := &env{
		stdout: &out, stderr: &errOut, stdin: strings.NewReader(stdin),
		getenv: func(string) string { return "" },
		home:   func() (string, error) { return home, nil },
	}
	code := run(context.Background(), e, args)
	return code, out.String(), errOut.String()
}

func sameFiles(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

func TestRetainAppendsAndRecalls(t *testing.T) {
	ws := testworkspace.CopyExample(t)
	code, out, errOut := cli(t, "retain", "-w", ws, "--date", "2025-11-30", "O(c=0.9) @Peter: Prefers oat milk in flat whites.")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.HasPrefix(out, "memory/2025-11-30.md#L") {
		t.Errorf("output %q", out)
	}
	data, _ := os.ReadFile(filepath.Join(ws, "memory", "2025-11-30.md"))
	if !strings.Contains(string(data), "\n## Retain\n- O(c=0.9) @Peter: Prefers oat milk in flat whites.\n") {
		t.Errorf("log:\n%s", data)
	}
	code, out, _ = cli(t, "recall", "-w", ws, "--json", "oat milk flat whites")
	if code != exitOK || !strings.Contains(out, "Prefers oat milk in flat whites.") || !strings.Contains(out, `"kind":"opinion"`) {
		t.Errorf("recall does not see the new fact: %s", out)
	}
	// The same fact again is not duplicated.
	code, out, _ = cli(t, "retain", "-w", ws, "--date", "2025-11-30", "--json", "O(c=0.9) @Peter: Prefers oat milk in flat whites.")
	var res struct {
		Added   []any    `json:"added"`
		Skipped []string `json:"skipped"`
	}
	if code != exitOK || json.Unmarshal([]byte(out), &res) != nil || len(res.Added) != 0 || len(res.Skipped) != 1 {
		t.Errorf("retry: exit %d, %s", code, out)
	}
}

func TestRetainNewLogAndStdin(t *testing.T) {
	ws := testworkspace.CopyExample(t)
	in := "W @Andy: Turns 40 on 2025-11-28.\n\n- B @warelay: I shipped v0.4.1.\r\n"
	code, out, errOut := cliStdin(t, in, "retain", "-w", ws, "--now", "2026-01-05", "-")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	data, err := os.ReadFile(filepath.Join(ws, "memory", "2026-01-05.md"))
	if err != nil {
		t.Fatal(err)
	}
	want := "# 2026-01-05\n\n## Retain\n- W @Andy: Turns 40 on 2025-11-28.\n- B @warelay: I shipped v0.4.1.\n"
	if string(data) != want {
		t.Errorf("new log %q, want %q", data, want)
	}
	if strings.Count(out, "\n") != 2 {
		t.Errorf("output %q", out)
	}
}

func TestRetainBadInputWritesNothing(t *testing.T) {
	ws := testworkspace.CopyExample(t)
	before := testworkspace.Files(t, ws)
	big := "W " + strings.Repeat("x", 10<<20)
	tests := []struct {
		name  string
		stdin string
		args  []string
		code  int
		msg   string
	}{
		{"unknown kind", "", []string{"X @Peter: a"}, exitUsage, "unknown kind letter 'X'"},
		{"confidence", "", []string{"O(c=1.7) @Peter: a"}, exitUsage, "c=1.7: confidence must be between 0 and 1"},
		{"path slug", "", []string{"W @../../etc: a"}, exitUsage, `unsafe entity slug "../../etc"`},
		{"empty", "", []string{""}, exitUsage, "empty fact"},
		{"no text", "", []string{"W @Peter:"}, exitUsage, "no text"},
		{"10 MB argument", "", []string{big}, exitUsage, "over the 4096-byte limit"},
		{"invalid UTF-8", "", []string{"W caf\xe9"}, exitUsage, "not valid UTF-8"},
		{"one bad among many", "", []string{"W good one.", "O(c=2) bad"}, exitUsage, "fact 2: c=2: confidence"},
		{"bad stdin line", "W fine.\nW also fine.\nZ nope\n", []string{"-"}, exitUsage, "stdin line 3: unknown kind letter"},
		{"10 MB stdin line", big, []string{"-"}, exitUsage, "stdin line 1: fact is longer than 4096 bytes"},
		{"empty stdin", "\n \n", []string{"-"}, exitUsage, "no facts"},
		{"no fact", "", nil, exitUsage, "needs a fact"},
		{"bad date", "", []string{"--date", "2025-13-01", "W a"}, exitUsage, "--date"},
		{"bad now", "", []string{"--now", "soon", "W a"}, exitUsage, "--now"},
		{"infer and accept", "", []string{"--infer", "--accept"}, exitUsage, "separate steps"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"retain", "-w", ws, "--date", "2025-11-30"}, tt.args...)
			if tt.name == "bad date" || tt.name == "infer and accept" {
				args = append([]string{"retain", "-w", ws}, tt.args...)
			}
			code, out, errOut := cliStdin(t, tt.stdin, args...)
			if code != tt.code {
				t.Errorf("exit %d, want %d (stderr %q)", code, tt.code, errOut)
			}
			if !strings.Contains(errOut, tt.msg) || strings.Count(errOut, "\n") != 1 || len(errOut) > 400 {
				t.Errorf("stderr %q, want one short line with %q", errOut, tt.msg)
			}
			if out != "" {
				t.Errorf("stdout %q", out)
			}
			if !sameFiles(before, testworkspace.Files(t, ws)) {
				t.Fatal("the workspace changed")
			}
		})
	}
}

func TestRetainMissingWorkspace(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nope")
	code, _, errOut := cli(t, "retain", "-w", missing, "W a fact.")
	if code != exitNoSpace || !strings.Contains(errOut, "memoria init") {
		t.Errorf("exit %d, %q", code, errOut)
	}
	if _, err := os.Stat(missing); err == nil {
		t.Error("workspace created")
	}
}

func TestRetainKeepsCRLF(t *testing.T) {
	ws := t.TempDir()
	os.MkdirAll(filepath.Join(ws, "memory"), 0o755)
	p := filepath.Join(ws, "memory", "2025-11-30.md")
	old := "# 2025-11-30\r\n\r\n## retain (edited)\r\n- W old.\r\n\r\n## Later\r\nno final newline"
	os.WriteFile(p, []byte(old), 0o600)
	code, _, errOut := cli(t, "retain", "-w", ws, "--date", "2025-11-30", "W new.")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	data, _ := os.ReadFile(p)
	want := strings.Replace(old, "- W old.\r\n", "- W old.\r\n- W new.\r\n", 1)
	if string(data) != want {
		t.Errorf("got %q, want %q", data, want)
	}
	if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600 kept", fi.Mode().Perm())
	}
}

func TestRetainWriteFailures(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T, ws, outside string)
		msg   string
	}{
		{"log path is a folder", func(t *testing.T, ws, outside string) {
			os.MkdirAll(filepath.Join(ws, "memory", "2025-11-30.md"), 0o755)
		}, "not a regular file"},
		{"log symlinked outside", func(t *testing.T, ws, outside string) {
			os.MkdirAll(filepath.Join(ws, "memory"), 0o755)
			os.Symlink(filepath.Join(outside, "victim.md"), filepath.Join(ws, "memory", "2025-11-30.md"))
		}, "a symlink out of the workspace"},
		{"memory folder symlinked outside", func(t *testing.T, ws, outside string) {
			os.Symlink(outside, filepath.Join(ws, "memory"))
		}, "a symlink out of the workspace"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ws, outside := t.TempDir(), t.TempDir()
			os.WriteFile(filepath.Join(outside, "victim.md"), []byte("untouched\n"), 0o644)
			tt.setup(t, ws, outside)
			code, out, errOut := cli(t, "retain", "-w", ws, "--date", "2025-11-30", "W @Peter: a fact.")
			// The index may warn about the odd file first; the error is one line.
			lines := strings.Split(strings.TrimSpace(errOut), "\n")
			last := lines[len(lines)-1]
			if code != exitError || !strings.HasPrefix(last, "memoria retain: ") || !strings.Contains(last, tt.msg) || out != "" {
				t.Errorf("exit %d, stderr %q, stdout %q", code, errOut, out)
			}
			if b, _ := os.ReadFile(filepath.Join(outside, "victim.md")); string(b) != "untouched\n" {
				t.Errorf("file outside the workspace changed: %q", b)
			}
			if m, _ := filepath.Glob(filepath.Join(outside, "*")); len(m) != 1 {
				t.Errorf("files created outside: %v", m)
			}
		})
	}
}
