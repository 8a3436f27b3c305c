package main

import (
	"encoding/json"
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

func TestGetErrors(t *testing.T) {
	ws := testworkspace.CopyExample(t)
	tests := []struct {
		ref  string
		code int
	}{
		{"memory/2025-11-27.md#L99999", exitNotFound},
		{"memory/2099-01-01.md#L1", exitNotFound},
		{"../../etc/passwd#L1", exitError},
		{"/etc/passwd", exitError},
		{"memory/2025-11-27.md#Lx", exitError},
	}
	for _, tt := range tests {
		code, out, errOut := cli(t, "get", "-w", ws, tt.ref)
		if code != tt.code || out != "" || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
			t.Errorf("get %s: exit %d (want %d), stdout %q, stderr %q", tt.ref, code, tt.code, out, errOut)
		}
	}
	if code, _, _ := cli(t, "get", "-w", ws); code != exitUsage {
		t.Errorf("get without a citation: exit %d", code)
	}
}
