package main

import (
	"encoding/json"
	"errors"
	"memoria"
	"memoria/embed/models"
	"memoria/internal/testworkspace"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestIndex(t *testing.T) {
	ws := testworkspace.CopyExample(t)
	code, out, errOut := cli(t, "index", "-w", ws, "--no-embed")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	// Not a terminal: exactly one summary line, no progress bar.
	if strings.Count(out, "\n") != 1 || !strings.HasPrefix(out, "index built:") || strings.Contains(errOut, "\r") {
		t.Errorf("stdout %q stderr %q", out, errOut)
	}
	code, out, _ = cli(t, "index", "-w", ws, "--json", "--no-embed")
	var got struct {
		Action string `json:"action"`
		Parsed int    `json:"parsed"`
	}
	if code != exitOK || json.Unmarshal([]byte(out), &got) != nil || got.Action != "updated" || got.Parsed != 0 {
		t.Errorf("second index: exit %d, %q", code, out)
	}
	code, out, _ = cli(t, "index", "-w", ws, "--rebuild", "--no-embed")
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

// TestIndexEmbeds runs the real embedding model (installed by
// `memoria model install`, as CI does) on a small workspace.
func TestIndexEmbeds(t *testing.T) {
	if _, err := memoria.DefaultEmbedder(); errors.Is(err, memoria.ErrNoModel) {
		t.Skip("embedding model not installed: memoria model install")
	}
	ws := t.TempDir()
	os.MkdirAll(filepath.Join(ws, "memory"), 0o755)
	os.WriteFile(filepath.Join(ws, "memory", "2025-11-27.md"), []byte("# 2025-11-27\n\nI shoot with a Sony A7 IV.\n\nBought oat milk.\n"), 0o644)
	code, out, errOut := cli(t, "index", "-w", ws)
	if code != exitOK || !strings.Contains(out, "semantic: 2 texts embedded now, 2 in all (") {
		t.Fatalf("exit %d: %q %q", code, out, errOut)
	}
	code, out, _ = cli(t, "index", "-w", ws)
	if code != exitOK || !strings.Contains(out, "semantic: 0 texts embedded now, 2 in all") {
		t.Errorf("second index: %q", out)
	}
}

// TestIndexEmbedsWithTheWorkspacesModel: a workspace mostly not in English is
// embedded with e5 when it is installed (as CI does).
func TestIndexEmbedsWithTheWorkspacesModel(t *testing.T) {
	e5, err := models.Lookup("e5")
	if err != nil {
		t.Fatal(err)
	}
	if !e5.Installed("") {
		if os.Getenv("MEMORIA_REQUIRE_MODEL") != "" {
			t.Fatal("e5 is not installed: memoria model install e5")
		}
		t.Skip("e5 is not installed: memoria model install e5")
	}
	ws := t.TempDir()
	os.MkdirAll(filepath.Join(ws, "memory"), 0o755)
	os.WriteFile(filepath.Join(ws, "memory", "2025-11-27.md"), []byte("# 2025-11-27\n\nJ'ai rendu la voiture de location à l'aéroport.\n\nLa réunion des parents d'élèves est jeudi soir.\n"), 0o644)
	code, out, errOut := cli(t, "index", "-w", ws)
	if code != exitOK || !strings.Contains(out, "semantic: 2 texts embedded now, 2 in all ("+e5.Identity+")") {
		t.Fatalf("exit %d: %q %q", code, out, errOut)
	}
}
