package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"memoria"
	"memoria/internal/testworkspace"
	"memoria/safewrite"
)

// The example's line forgotten here, and a query only it answers.
const (
	forgetCite = "memory/2025-11-27.md#L13-L14"
	forgetText = "Clara landed from Lisbon at 11:50"
)

// TestForgetCommand: --dry-run prints each line that would go, with its
// file, number and why, and changes no byte (--json too); then forget
// removes them, says so, and recall finds them no more while get reads
// the tombstone where they were.
func TestForgetCommand(t *testing.T) {
	t.Parallel()
	ws := testworkspace.CopyExample(t)
	before := testworkspace.Files(t, ws)
	code, out, errOut := cli(t, "forget", "-w", ws, forgetCite, "--dry-run", "--reason", "Clara asked", "--now", "2025-12-02")
	if code != exitOK || !strings.Contains(out, "dry run: would forget 2 lines in 1 file (nothing was changed)\nmemory/2025-11-27.md\n  L13    "+forgetText) ||
		!strings.Contains(out, "(cited)") || !strings.Contains(out, "<!-- forgotten 2025-12-02: Clara asked -->") {
		t.Fatalf("dry run: %d %q %q", code, out, errOut)
	}
	code, out, _ = cli(t, "forget", "-w", ws, forgetCite, "--dry-run", "--json")
	var rep memoria.ForgetReport
	if code != exitOK || json.Unmarshal([]byte(out), &rep) != nil || !rep.DryRun || rep.Lines != 2 || rep.Files[0].Lines[0].Line != 13 {
		t.Fatalf("dry run --json: %d %q", code, out)
	}
	for rel, text := range testworkspace.Files(t, ws) {
		if before[rel] != text {
			t.Fatalf("the dry run changed %s", rel)
		}
	}
	code, out, errOut = cli(t, "forget", "-w", ws, forgetCite, "--reason", "Clara asked", "--now", "2025-12-02")
	if code != exitOK || !strings.HasPrefix(out, "forgot 2 lines in 1 file\n") || !strings.Contains(out, "record: forgotten.md got 2 new hashes") {
		t.Fatalf("forget: %d %q %q", code, out, errOut)
	}
	code, out, _ = cli(t, "recall", "-w", ws, "--lexical", "--json", "Clara landed from Lisbon, taxis to Bab Doukkala")
	if code != exitOK || strings.Contains(out, forgetText) {
		t.Errorf("recall after forget: %d %s", code, out)
	}
	code, out, _ = cli(t, "get", "-w", ws, "memory/2025-11-27.md#L13")
	if code != exitOK || out != "<!-- forgotten 2025-12-02: Clara asked -->\n" {
		t.Errorf("get where the lines were: %d %q", code, out)
	}
}

// TestForgetExitCodes: forget exits as the README says: 2 for a bad
// command line or a citation of anything but lines of a memory file, 4
// for lines, a file or an entity that are not there, or a selection of
// nothing, 3 without a workspace; and writes nothing then.
func TestForgetExitCodes(t *testing.T) {
	t.Parallel()
	ws := testworkspace.CopyExample(t)
	before := testworkspace.Files(t, ws)
	for _, c := range []struct {
		args []string
		code int
	}{
		{[]string{}, exitUsage},
		{[]string{"../../etc/passwd#L1"}, exitUsage},
		{[]string{"/etc/passwd#L1"}, exitUsage},
		{[]string{".memory/index.sqlite#L1"}, exitUsage},
		{[]string{"review/retain-proposals.md#L1"}, exitUsage},
		{[]string{"memory/2025-11-27.md"}, exitUsage},
		{[]string{"memory/2025-11-27.md#L14-L13"}, exitUsage},
		{[]string{forgetCite, "--k", "0"}, exitUsage},
		{[]string{forgetCite, "--now", "someday"}, exitUsage},
		{[]string{"memory/2025-11-27.md#L999"}, exitNotFound},
		{[]string{"memory/2099-01-01.md#L1"}, exitNotFound},
		{[]string{"--entity", "Nobody"}, exitNotFound},
		{[]string{"--query", "zeppelin xylophone quasar"}, exitNotFound},
	} {
		code, _, errOut := cli(t, append([]string{"forget", "-w", ws}, c.args...)...)
		if code != c.code || strings.Count(errOut, "memoria forget: ")+strings.Count(errOut, "memoria: ") != 1 {
			t.Errorf("forget %v: exit %d, want %d; stderr %q", c.args, code, c.code, errOut)
		}
	}
	if code, _, _ := cli(t, "forget", "-w", filepath.Join(t.TempDir(), "none"), forgetCite); code != exitNoSpace {
		t.Errorf("no workspace: exit %d", code)
	}
	for rel, text := range testworkspace.Files(t, ws) {
		if before[rel] != text {
			t.Errorf("a refused forget changed %s", rel)
		}
	}
}

// TestForgetLeavesNothingRunning: the memoria process that forgets exits
// with the write lock free and nothing of its own left in .memory/.
func TestForgetLeavesNothingRunning(t *testing.T) {
	needBinary(t)
	ws := indexedWorkspace(t)
	out, err := memoriaCmd(context.Background(), "", nil, "forget", "-w", ws, forgetCite).CombinedOutput()
	if err != nil {
		t.Fatalf("forget: %v\n%s", err, out)
	}
	k, err := safewrite.Lock(ws, safewrite.Options{LockTimeout: -1})
	if err != nil {
		t.Fatalf("the write lock is still held after forget exited: %v", err)
	}
	k.Unlock()
	entries, _ := os.ReadDir(filepath.Join(ws, ".memory"))
	for _, e := range entries {
		switch e.Name() {
		case "index.sqlite", "index.sqlite-wal", "index.sqlite-shm", "index.sqlite.vectors", "index.sqlite.vectors-wal",
			"index.sqlite.vectors-shm", ".gitignore", "write.lock":
		default:
			t.Errorf("left behind in .memory/: %s", e.Name())
		}
	}
	if runtime.GOOS == "linux" {
		if left := running(t, binary); len(left) > 0 {
			t.Errorf("memoria processes still running: %v", left)
		}
	}
}
