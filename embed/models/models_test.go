package models

import (
	"os"
	"path/filepath"
	"testing"
)

// TestSelectedFor: with several models installed, a workspace mostly not in English
// gets the first that is not English-only, an English one the first installed; with
// none installed, the one to install is the multilingual model for the first and the
// default for the second.
func TestSelectedFor(t *testing.T) {
	t.Setenv("MEMORIA_MODEL", "")
	dir := t.TempDir()
	pick := func(notEnglish bool) string {
		m, _, err := SelectedFor(dir, notEnglish)
		if err != nil {
			t.Fatal(err)
		}
		return m.Name
	}
	install := func(name string) {
		m, err := Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		// Installed only looks for the file.
		if err := os.WriteFile(filepath.Join(dir, m.FileName), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, step := range []struct {
		install             string
		english, notEnglish string
	}{
		{"", Default.Name, "e5"},
		{"minilm", "minilm", "minilm"},
		{"e5", "minilm", "e5"},
		{"uselite", "uselite", "e5"},
	} {
		if step.install != "" {
			install(step.install)
		}
		if got := pick(false); got != step.english {
			t.Errorf("after installing %q: English workspace gets %s, want %s", step.install, got, step.english)
		}
		if got := pick(true); got != step.notEnglish {
			t.Errorf("after installing %q: workspace not in English gets %s, want %s", step.install, got, step.notEnglish)
		}
	}
	t.Setenv("MEMORIA_MODEL", "minilm")
	if got := pick(true); got != "minilm" {
		t.Errorf("MEMORIA_MODEL=minilm: got %s", got)
	}
}
