package main

import (
	"encoding/json"
	"fmt"
	"memoria/internal/testworkspace"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestGet(t *testing.T) {
	ws := testworkspace.CopyExample(t)
	data, err := os.ReadFile(filepath.Join(ws, "memory", "2025-11-27.md"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	code, out, errOut := cli(t, "get", "-w", ws, "memory/2025-11-27.md#L2-L4")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if want := strings.Join(lines[1:4], "\n") + "\n"; out != want {
		t.Errorf("got %q, want %q", out, want)
	}
	code, out, _ = cli(t, "get", "-w", ws, "--json", "memory/2025-11-27.md#L1")
	var got []map[string]string
	if code != exitOK || json.Unmarshal([]byte(out), &got) != nil || got[0]["content"] != lines[0] {
		t.Errorf("json: exit %d, %q", code, out)
	}
}

// TestGetErrors: a citation outside the workspace's memory files or one
// that is not a citation (a reversed range) is a usage error (2; they were
// 1); a file or lines that do not exist are 4, with words that say what to
// do instead of a Go error ("stat …: no such file or directory").
func TestGetErrors(t *testing.T) {
	ws := testworkspace.CopyExample(t)
	tests := []struct {
		ref  string
		code int
		msg  string
	}{
		{"memory/2025-11-27.md#L99999", exitNotFound, "past the end"},
		{"memory/2099-01-01.md#L1", exitNotFound, "no such file in the workspace"},
		{"../../etc/passwd#L1", exitUsage, "not a memory file"},
		{"/etc/passwd", exitUsage, "not a memory file"},
		{".memory/index.sqlite#L1-L3", exitUsage, "not a memory file"},
		{"memory/2025-11-27.md#Lx", exitUsage, "want path#L12"},
		{"memory/2025-11-27.md#L4-L3", exitUsage, "ends before it starts"},
	}
	for _, tt := range tests {
		code, out, errOut := cli(t, "get", "-w", ws, tt.ref)
		if code != tt.code || out != "" || strings.Count(strings.TrimSpace(errOut), "\n") != 0 || !strings.Contains(errOut, tt.msg) ||
			strings.Contains(errOut, "stat ") {
			t.Errorf("get %s: exit %d (want %d), stdout %q, stderr %q", tt.ref, code, tt.code, out, errOut)
		}
	}
	if code, _, _ := cli(t, "get", "-w", ws); code != exitUsage {
		t.Errorf("get without a citation: exit %d", code)
	}
}

// TestGetPastTheEnd: one rule for lines past the end: the lines of the
// range that exist are printed, with a note on stderr; a range none of
// whose lines exist is exit 4. (#L3-L99 used to stop silently while #L99
// was 4.) Several citations are read in one call.
func TestGetPastTheEnd(t *testing.T) {
	ws := testworkspace.CopyExample(t)
	data, _ := os.ReadFile(filepath.Join(ws, "memory", "2025-11-27.md"))
	n := strings.Count(string(data), "\n")
	code, out, errOut := cli(t, "get", "-w", ws, fmt.Sprintf("memory/2025-11-27.md#L%d-L%d", n-1, n+50))
	if code != exitOK || strings.Count(out, "\n") != 2 || !strings.Contains(errOut, fmt.Sprintf("has %d lines", n)) {
		t.Errorf("range past the end: exit %d, %q %q", code, out, errOut)
	}
	code, out, _ = cli(t, "get", "-w", ws, "memory/2025-11-27.md#L1", "memory.md#L1-L2")
	if code != exitOK || !strings.Contains(out, "memory/2025-11-27.md#L1\n") || !strings.Contains(out, "memory.md#L1-L2\n") {
		t.Errorf("multi-get: exit %d, %q", code, out)
	}
}
