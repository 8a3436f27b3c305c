package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"memoria/internal/testworkspace"
)

// TestRecallRefreshesPostings: `memoria index` writes the postings
// snapshot; a recall that finds it missing asks for a background
// `index --postings-only`, whose run writes it; a recall over a current
// snapshot asks for nothing; MEMORIA_NO_BACKGROUND turns the request off.
func TestRecallRefreshesPostings(t *testing.T) {
	ws := testworkspace.CopyExample(t)
	snapshot := filepath.Join(ws, ".memory", "index.sqlite.lex")
	code, out, errOut := cli(t, "index", "-w", ws, "--no-embed", "--no-postings")
	if code != exitOK || !strings.Contains(out, "postings snapshot skipped") {
		t.Fatalf("index --no-postings: exit %d, %q %q", code, out, errOut)
	}
	if _, err := os.Stat(snapshot); err == nil {
		t.Fatal("--no-postings wrote the snapshot")
	}
	postings := func() (state string, behind int) {
		t.Helper()
		code, out, errOut := cli(t, "status", "-w", ws, "--json")
		var st struct {
			Postings string `json:"postings"`
			Behind   int    `json:"postings_behind"`
		}
		if code != exitOK || json.Unmarshal([]byte(out), &st) != nil {
			t.Fatalf("status: exit %d, %q %q", code, out, errOut)
		}
		return st.Postings, st.Behind
	}
	if state, _ := postings(); state != "none" {
		t.Errorf("status before the snapshot: %q", state)
	}
	recallWith := func(getenv func(string) string) [][]string {
		t.Helper()
		var started [][]string
		var stdout, stderr bytes.Buffer
		e := &env{
			stdout: &stdout, stderr: &stderr, stdin: strings.NewReader(""),
			getenv: getenv,
			home:   func() (string, error) { return t.TempDir(), nil },
			background: func(args []string) error {
				started = append(started, args)
				return nil
			},
		}
		if code := run(context.Background(), e, []string{"recall", "-w", ws, "--json", "Peter"}); code != exitOK {
			t.Fatalf("recall: exit %d: %s", code, stderr.String())
		}
		return started
	}
	// The recall server, which recall also starts, has a test of its own.
	noEnv := func(k string) string {
		if k == "MEMORIA_NO_SERVER" {
			return "1"
		}
		return ""
	}
	off := func(k string) string {
		if k == "MEMORIA_NO_BACKGROUND" || k == "MEMORIA_NO_SERVER" {
			return "1"
		}
		return ""
	}
	if got := recallWith(off); len(got) != 0 {
		t.Errorf("MEMORIA_NO_BACKGROUND: started %v", got)
	}
	got := recallWith(noEnv)
	want := []string{"index", "--postings-only", "--workspace", ws, "--index", filepath.Join(ws, ".memory", "index.sqlite")}
	if len(got) != 1 || !slices.Equal(got[0], want) {
		t.Fatalf("started %q, want one %q", got, want)
	}
	code, out, errOut = cli(t, got[0]...)
	if code != exitOK || !strings.Contains(out, "postings snapshot: written") {
		t.Fatalf("%v: exit %d, %q %q", got[0], code, out, errOut)
	}
	if _, err := os.Stat(snapshot); err != nil {
		t.Fatal(err)
	}
	if got := recallWith(noEnv); len(got) != 0 {
		t.Errorf("over a current snapshot: started %v", got)
	}
	if state, _ := postings(); state != "current" {
		t.Errorf("status after the snapshot: %q", state)
	}
	// A changed file: the snapshot is behind by one, and recall still
	// asks for nothing (one file is cheap to reload).
	appendText(t, filepath.Join(ws, "memory", "2025-11-27.md"), "\nPeter took the aardvark to Zurich.\n")
	if got := recallWith(noEnv); len(got) != 0 {
		t.Errorf("one file behind: started %v", got)
	}
	if state, behind := postings(); state != "behind" || behind != 1 {
		t.Errorf("status with a changed file: %q, %d behind", state, behind)
	}
	// `memoria index` keeps a snapshot a few edits behind; --postings-only
	// writes it anyway.
	code, out, _ = cli(t, "index", "-w", ws, "--no-embed")
	if code != exitOK || !strings.Contains(out, "postings snapshot kept") {
		t.Errorf("index one file behind: exit %d, %q", code, out)
	}
	if state, behind := postings(); state != "behind" || behind != 1 {
		t.Errorf("index rewrote a snapshot one file behind: %q, %d behind", state, behind)
	}
	code, out, _ = cli(t, want...)
	if code != exitOK || !strings.Contains(out, "written") {
		t.Errorf("--postings-only one file behind: exit %d, %q", code, out)
	}
	code, out, _ = cli(t, want...)
	if code != exitOK || !strings.Contains(out, "already current") {
		t.Errorf("second --postings-only: exit %d, %q", code, out)
	}
	code, out, _ = cli(t, "index", "-w", ws, "--no-embed")
	if code != exitOK || !strings.Contains(out, "postings snapshot kept") {
		t.Errorf("index over a current snapshot: exit %d, %q", code, out)
	}
}

// TestIndexPostingsFailureIsAWarning: when the snapshot cannot be written
// (here a folder stands where the file goes), `memoria index` still
// succeeds, with a one-line warning; recall goes on through FTS5.
func TestIndexPostingsFailureIsAWarning(t *testing.T) {
	ws := testworkspace.CopyExample(t)
	blocker := filepath.Join(ws, ".memory", "index.sqlite.lex")
	if err := os.MkdirAll(filepath.Join(blocker, "keep"), 0o755); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := cli(t, "index", "-w", ws, "--no-embed")
	if code != exitOK || !strings.Contains(out, "postings snapshot not written") {
		t.Fatalf("index: exit %d, %q", code, out)
	}
	if strings.Count(strings.TrimSpace(errOut), "\n") != 0 || !strings.HasPrefix(errOut, "warning: ") {
		t.Errorf("want one warning line, got %q", errOut)
	}
	if _, err := os.Stat(filepath.Join(blocker, "keep")); err != nil {
		t.Errorf("the folder in the way was touched: %v", err)
	}
	if got := recallJSON(t, ws, "Biscuit"); len(got) == 0 {
		t.Error("no recall results without a snapshot")
	}
}

// appendText appends text to the file at path, as an agent adds to a log.
func appendText(t *testing.T, path, text string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, append(data, text...), 0o644); err != nil {
		t.Fatal(err)
	}
}
