package main

import (
	"encoding/json"
	"memoria/internal/testworkspace"
	"os"
	"path/filepath"
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
