package main

import (
	"encoding/json"
	"memoria/internal/testworkspace"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReflectCLI(t *testing.T) {
	ws := testworkspace.CopyExample(t)
	before := testworkspace.Files(t, ws)

	// --dry-run prints a unified diff and writes nothing.
	code, out, errOut := cli(t, "reflect", "-w", ws, "--dry-run", "--now", "2025-11-30")
	if code != exitOK {
		t.Fatalf("dry run: exit %d: %s", code, errOut)
	}
	for _, want := range []string{"--- a/bank/opinions.md\n+++ b/bank/opinions.md\n@@ ", "+<!-- memoria:begin hash=", "files would change"} {
		if !strings.Contains(out, want) {
			t.Errorf("dry run output lacks %q", want)
		}
	}
	if !sameFiles(before, testworkspace.Files(t, ws)) {
		t.Fatal("--dry-run wrote")
	}

	// A real run writes bank/, never memory.md or the logs.
	code, out, errOut = cli(t, "reflect", "-w", ws, "--now", "2025-11-30", "--json")
	if code != exitOK {
		t.Fatalf("reflect: exit %d: %s", code, errOut)
	}
	var rep struct {
		Facts    int
		Changed  []string
		Opinions []struct{ Statement string }
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if rep.Facts == 0 || len(rep.Changed) == 0 || len(rep.Opinions) == 0 {
		t.Fatalf("report %+v", rep)
	}
	after := testworkspace.Files(t, ws)
	for rel, data := range before {
		if !strings.HasPrefix(rel, "bank") && after[rel] != data {
			t.Errorf("reflect changed %s", rel)
		}
	}
	peter := after[filepath.Join("bank", "entities", "Peter.md")]
	if !strings.HasPrefix(peter, before[filepath.Join("bank", "entities", "Peter.md")]) || !strings.Contains(peter, "<!-- memoria:end -->") {
		t.Error("Peter.md: hand-written text changed or no managed block")
	}
	// The index was brought up to date: recall finds the new opinion file lines.
	code, out, _ = cli(t, "recall", "-w", ws, "--json", "--k", "50", "Prefers concise replies")
	if code != exitOK || !strings.Contains(out, "bank/opinions.md") {
		t.Errorf("recall after reflect: %d %s", code, out)
	}

	// Twice in a row: nothing changes.
	code, out, _ = cli(t, "reflect", "-w", ws, "--now", "2025-11-30")
	if code != exitOK || !strings.Contains(out, ": 0 files changed") {
		t.Errorf("second run: %d %q", code, out)
	}
	if !sameFiles(after, testworkspace.Files(t, ws)) {
		t.Error("second run changed bytes")
	}
}

func TestReflectUsage(t *testing.T) {
	ws := testworkspace.CopyExample(t)
	for _, args := range [][]string{
		{"reflect", "-w", ws, "--since", "soon"},
		{"reflect", "-w", ws, "--now", "tomorrow-ish"},
		{"reflect", "-w", ws, "extra"},
		{"reflect", "-w", ws, "--min-facts", "-1"},
	} {
		if code, _, errOut := cli(t, args...); code != exitUsage || !strings.HasPrefix(errOut, "memoria reflect: ") {
			t.Errorf("%v: exit %d, %q", args, code, errOut)
		}
	}
	if _, err := os.Stat(filepath.Join(ws, "review")); err == nil {
		t.Error("a bad command line wrote a review file")
	}
}

func TestReflectSince(t *testing.T) {
	ws := testworkspace.CopyExample(t)
	for _, tt := range []struct {
		since string
		pages bool
	}{{"7d", true}, {"2d", false}} { // the example has no typed facts after 2025-11-27
		code, out, errOut := cli(t, "reflect", "-w", ws, "--since", tt.since, "--now", "2025-11-30", "--dry-run", "--json")
		if code != exitOK {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		var rep struct {
			DryRun bool `json:"dry_run"`
			Pages  []struct{ Path string }
			Diff   string
		}
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatal(err)
		}
		if !rep.DryRun || (len(rep.Pages) > 0) != tt.pages || (rep.Diff != "") != tt.pages {
			t.Errorf("--since %s: %+v", tt.since, rep)
		}
	}
}
