package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEntityNamesOnTheCommandLine: `memoria entity NAME` and `recall
// --entity NAME` take a name as people write it (display name, a word of
// it, without its diacritics) and agree on it; a name two entities share
// exits 2 with one line naming both; an unknown name exits as before (4
// for entity, 2 for recall). `entity "Project Atlas"` used to exit 4 and
// `recall --entity Atlas` 2.
func TestEntityNamesOnTheCommandLine(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	for rel, text := range map[string]string{
		"bank/entities/Zoë-Müller.md": "---\naliases: [Zo]\n---\n# Zoë Müller\n\nDesigner in Lyon.\n",
		"memory/2026-01-10.md": "# 2026-01-10\n\n## Retain\n- W @Project-Atlas: The migration is due in March.\n" +
			"- W @Zoë-Müller: Leads the design review.\n- W @Alex-Kim: Runs the budget.\n- W @Alex-Moreau: Writes the release notes.\n",
	} {
		p := filepath.Join(ws, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const ambiguous = `entity "Alex" is ambiguous: Alex-Kim, Alex-Moreau; name one`
	for _, c := range []struct {
		name            string
		entity, recall  int    // exit codes
		heading, stderr string // what stdout of entity, and stderr of both, contain
	}{
		{"Project Atlas", exitOK, exitOK, "(@Project-Atlas)", ""},
		{"Atlas", exitOK, exitOK, "(@Project-Atlas)", ""},
		{"project-atlas", exitOK, exitOK, "(@Project-Atlas)", ""},
		{"Zoe Muller", exitOK, exitOK, "Zoë Müller (@Zoë-Müller); also: Zo", ""},
		{"muller", exitOK, exitOK, "(@Zoë-Müller)", ""},
		{"Zo", exitOK, exitOK, "(@Zoë-Müller)", ""},
		{"Moreau", exitOK, exitOK, "(@Alex-Moreau)", ""},
		{"Alex", exitUsage, exitUsage, "", ambiguous},
		{"Nobody", exitNotFound, exitUsage, "", `unknown entity "Nobody"`},
	} {
		code, out, errOut := cli(t, "entity", "-w", ws, c.name)
		if code != c.entity || !strings.Contains(out, c.heading) || !strings.Contains(errOut, c.stderr) ||
			strings.Count(strings.TrimSpace(errOut), "\n") > 0 {
			t.Errorf("entity %q: exit %d, stdout %.80q, stderr %q; want exit %d, %q", c.name, code, out, errOut, c.entity, c.heading+c.stderr)
		}
		code, out, errOut = cli(t, "recall", "-w", ws, "--lexical", "--entity", c.name, "")
		if code != c.recall || !strings.Contains(errOut, c.stderr) || strings.Count(strings.TrimSpace(errOut), "\n") > 0 ||
			(code == exitOK && !strings.Contains(out, strings.Trim(c.heading[strings.Index(c.heading, "(")+1:strings.Index(c.heading, ")")], "@"))) {
			t.Errorf("recall --entity %q: exit %d, stdout %.80q, stderr %q; want exit %d", c.name, code, out, errOut, c.recall)
		}
	}
}
