package main

import (
	"encoding/json"
	"memoria/internal/testworkspace"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

func TestStatus(t *testing.T) {
	ws := testworkspace.CopyExample(t)
	code, out, errOut := cli(t, "status", "-w", ws)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"daily logs", "facts", "world", "opinion", "passages", "entities", "up to date"} {
		if !strings.Contains(out, want) {
			t.Errorf("status lacks %q:\n%s", want, out)
		}
	}
	// An edit makes the index stale until the next recall or index.
	log := filepath.Join(ws, "memory", "2025-11-30.md")
	if err := os.WriteFile(log, []byte("# 2025-11-30\n\nA new line.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ts := time.Unix(1_800_000_000, 0)
	os.Chtimes(log, ts, ts)
	code, out, _ = cli(t, "status", "-w", ws, "--json")
	var st struct {
		Fresh   bool           `json:"fresh"`
		Pending int            `json:"pending"`
		Facts   map[string]int `json:"facts"`
	}
	if code != exitOK || json.Unmarshal([]byte(out), &st) != nil {
		t.Fatalf("exit %d, %q", code, out)
	}
	if st.Fresh || st.Pending != 1 || st.Facts["world"] == 0 {
		t.Errorf("status after an edit: %+v", st)
	}
}

// TestDoctorCommand: `memoria doctor` and `status --deep` list each check
// with what to run for the failing ones, and exit 1 when one fails; --json
// gives the findings.
func TestDoctorCommand(t *testing.T) {
	ws := testworkspace.CopyExample(t)
	if code, _, errOut := cli(t, "index", "--no-embed", "-w", ws); code != exitOK {
		t.Fatal(errOut)
	}
	os.WriteFile(filepath.Join(ws, ".memory", "stray.bin"), []byte("x"), 0o644)
	code, out, errOut := cli(t, "doctor", "-w", ws)
	if code != exitError || !strings.Contains(out, "FIX  index folder") || !strings.Contains(out, "stray.bin") || !strings.Contains(out, "ok   index ") ||
		!strings.Contains(errOut, "found") {
		t.Errorf("doctor: exit %d, %q %q", code, out, errOut)
	}
	code, out, _ = cli(t, "status", "--deep", "--json", "-w", ws)
	var st struct {
		Passages int
		Problems int
		Findings []struct {
			Check string
			OK    bool
			Fix   string
		}
	}
	if code != exitError || json.Unmarshal([]byte(out), &st) != nil || st.Passages == 0 || st.Problems == 0 || len(st.Findings) < 6 {
		t.Errorf("status --deep --json: exit %d, %q", code, out)
	}
}

// TestStatusDerivedFiles: status shows the size of each derived file, in
// text and JSON, and which rule chose the workspace.
func TestStatusDerivedFiles(t *testing.T) {
	ws := testworkspace.CopyExample(t)
	code, out, _ := cli(t, "status", "-w", ws)
	if code != exitOK || !regexp.MustCompile(`(?m)^derived +.* in \d+ files: index\.sqlite [\d.]+ (KB|MB)`).MatchString(out) || !strings.Contains(out, "(chosen by --workspace)") {
		t.Errorf("status: %d %q", code, out)
	}
	code, out, _ = cli(t, "status", "-w", ws, "--json")
	var st struct {
		Derived map[string]int64 `json:"derived_files"`
		By      string           `json:"workspace_by"`
	}
	if code != exitOK || json.Unmarshal([]byte(out), &st) != nil || st.Derived["index.sqlite"] == 0 || st.By != "--workspace" {
		t.Errorf("status --json: %d %q", code, out)
	}
}
