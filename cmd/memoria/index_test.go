package main

import (
	"encoding/json"
	"memoria/internal/testworkspace"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestIndex(t *testing.T) {
	ws := testworkspace.CopyExample(t)
	code, out, errOut := cli(t, "index", "-w", ws)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	// Not a terminal: exactly one summary line, no progress bar.
	if strings.Count(out, "\n") != 1 || !strings.HasPrefix(out, "index built:") || strings.Contains(errOut, "\r") {
		t.Errorf("stdout %q stderr %q", out, errOut)
	}
	code, out, _ = cli(t, "index", "-w", ws, "--json")
	var got struct {
		Action string `json:"action"`
		Parsed int    `json:"parsed"`
	}
	if code != exitOK || json.Unmarshal([]byte(out), &got) != nil || got.Action != "updated" || got.Parsed != 0 {
		t.Errorf("second index: exit %d, %q", code, out)
	}
	code, out, _ = cli(t, "index", "-w", ws, "--rebuild")
	if code != exitOK || !strings.HasPrefix(out, "index rebuilt:") {
		t.Errorf("rebuild: exit %d, %q", code, out)
	}
	if _, err := os.Stat(filepath.Join(ws, ".memory", "index.sqlite")); err != nil {
		t.Error(err)
	}
}

func TestIndexBadFlag(t *testing.T) {
	code, _, errOut := cli(t, "index", "--frobnicate")
	if code != exitUsage || !strings.Contains(errOut, "frobnicate") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
}
