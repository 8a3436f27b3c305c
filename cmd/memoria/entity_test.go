package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"memoria/recall"
)

// entityWorkspace writes a small workspace with an entity page, a fact
// that changed, an opinion and a dated event.
func entityWorkspace(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"memory.md":              "# Core\n\n- Peter is the person I work for.\n",
		"bank/entities/Peter.md": "---\naliases: [Pete]\n---\n# Peter Steinberger\n\nDeveloper in Vienna.\n",
		"memory/2025-09-15.md": "# 2025-09-15\n\n## Retain\n- W @Peter: Lives in a rented flat at Neubaugasse 12.\n" +
			"- O(c=0.8) @Peter: Prefers long, detailed replies.\n",
		"memory/2025-11-03.md": "# 2025-11-03\n\n## Retain\n- W @Peter: Lives at The Castle since the move.\n" +
			"- O(c=0.95) @Peter: Prefers concise replies on WhatsApp, with more detail in files under notes for later.\n" +
			"- B @Peter: I set up his new phone on 2025-11-03.\n",
	}
	for rel, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestEntityCommand(t *testing.T) {
	ws := entityWorkspace(t)
	code, out, errOut := cli(t, "entity", "-w", ws, "pete")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		"Peter Steinberger (@Peter); also: Pete",
		"Page (1)\n  [passage @Peter] Developer in Vienna. (bank/entities/Peter.md#L6)",
		"Current facts (1)\n  [world 2025-11-03 @Peter] Lives at The Castle since the move. (memory/2025-11-03.md#L4)",
		"superseded by memory/2025-11-03.md#L4",
		"Opinions (2)\n  [opinion c=0.95 2025-11-03 @Peter] Prefers concise replies",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// The timeline is in time order.
	tl := out[strings.Index(out, "Timeline"):strings.Index(out, "Opinions")]
	if i, j := strings.Index(tl, "2025-09-15"), strings.Index(tl, "2025-11-03"); i < 0 || j < 0 || i > j {
		t.Errorf("timeline not in time order:\n%s", tl)
	}
}

func TestEntityJSON(t *testing.T) {
	ws := entityWorkspace(t)
	code, out, errOut := cli(t, "entity", "-w", ws, "--json", "@Peter")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rep struct {
		Slug     string
		Aliases  []string
		Page     []jsonResult
		Current  []jsonResult
		Timeline []struct {
			Source       string
			SupersededBy []struct{ Source string } `json:"superseded_by"`
		}
		Opinions []jsonResult
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v in %s", err, out)
	}
	if rep.Slug != "Peter" || len(rep.Page) != 1 || len(rep.Current) != 1 || len(rep.Opinions) != 2 || len(rep.Timeline) != 5 {
		t.Errorf("report %+v", rep)
	}
	if rep.Timeline[0].Source != "memory/2025-09-15.md#L4" || len(rep.Timeline[0].SupersededBy) != 1 {
		t.Errorf("the first timeline entry should be the old home, superseded: %+v", rep.Timeline[0])
	}
}

func TestEntityErrors(t *testing.T) {
	ws := entityWorkspace(t)
	tests := []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"entity", "-w", ws, "--kind", "x"}, exitUsage, "flag provided but not defined"},
		{[]string{"entity", "-w", ws, "Nobody"}, exitNotFound, `unknown entity "Nobody"`},
	}
	for _, tc := range tests {
		code, _, errOut := cli(t, tc.args...)
		if code != tc.code || !strings.Contains(errOut, tc.msg) {
			t.Errorf("%v: exit %d, stderr %q; want %d, %q", tc.args, code, errOut, tc.code, tc.msg)
		}
	}
}

func TestRecallCompactFormat(t *testing.T) {
	ws := entityWorkspace(t)
	code, out, errOut := cli(t, "recall", "-w", ws, "--now", "2025-12-01", "--format", "compact", "--k", "3", "what does Pete prefer?")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) == 0 || len(lines) > 3 {
		t.Fatalf("want 1–3 lines, got %q", out)
	}
	want := "[opinion c=0.95 2025-11-03 @Peter] Prefers concise replies on WhatsApp, with more detail in files under notes for later. (memory/2025-11-03.md#L5)"
	if lines[0] != want {
		t.Errorf("first line\n%s\nwant\n%s", lines[0], want)
	}
	code, _, errOut = cli(t, "recall", "-w", ws, "--format", "yaml", "x")
	if code != exitUsage || !strings.Contains(errOut, "--format") {
		t.Errorf("bad format: exit %d, %q", code, errOut)
	}
	// Long content is cut to one line with an ellipsis.
	long := compactLine(jsonToResult(strings.Repeat("word ", 100)))
	if strings.Contains(long, "\n") || !strings.Contains(long, "…") || len(long) > compactMax+60 {
		t.Errorf("long line: %q", long)
	}
}

func jsonToResult(content string) recall.Result {
	return recall.Result{Kind: "passage", Content: "- " + content + "\n  more", Source: "memory/2025-11-03.md#L1-L2"}
}

// TestEntityList: `memoria entity` with no name lists the known entities,
// most mentioned first, with their pages; the unknown-entity error points
// to it. The error used to send people to `memoria status`, which lists
// none.
func TestEntityList(t *testing.T) {
	ws := entityWorkspace(t)
	os.WriteFile(filepath.Join(ws, "memory", "2025-11-04.md"), []byte("# 2025-11-04\n\n## Retain\n- W @The-Castle: Has a leaking roof.\n"), 0o644)
	code, out, errOut := cli(t, "entity", "-w", ws)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != exitOK || len(lines) != 2 || !strings.HasPrefix(lines[0], "@Peter ") || !strings.Contains(lines[0], "page bank/entities/Peter.md") ||
		!strings.HasPrefix(lines[1], "@The-Castle ") {
		t.Fatalf("entity: exit %d, %q %q", code, out, errOut)
	}
	code, out, _ = cli(t, "entity", "-w", ws, "--json")
	var list []struct {
		Slug, Name, Page string
		Items            int
	}
	if code != exitOK || json.Unmarshal([]byte(out), &list) != nil || len(list) != 2 || list[0].Name != "Peter Steinberger" || list[0].Items < 5 || list[1].Items != 1 {
		t.Errorf("entity --json: exit %d, %q", code, out)
	}
	code, _, errOut = cli(t, "entity", "-w", ws, "Nobody")
	if code != exitNotFound || !strings.Contains(errOut, "`memoria entity` lists") {
		t.Errorf("unknown entity: exit %d, %q", code, errOut)
	}
}
