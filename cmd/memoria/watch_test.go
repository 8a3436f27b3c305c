package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"memoria/internal/testworkspace"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestWatchCommand runs `memoria watch --json` in-process, writes a log
// by rename, and waits for the sync line that reports it; then a recall
// (in another process, had it been one) finds it.
func TestWatchCommand(t *testing.T) {
	ws := testworkspace.CopyExample(t)
	outR, outW := io.Pipe()
	var errOut strings.Builder
	e := &env{stdout: outW, stderr: &errOut, stdin: strings.NewReader(""), getenv: func(string) string { return "" },
		home: func() (string, error) { return t.TempDir(), nil }}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int, 1)
	go func() { done <- run(ctx, e, []string{"watch", "-w", ws, "--json", "--debounce", "50ms"}); outW.Close() }()
	lines := make(chan map[string]int)
	go func() {
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			var m map[string]int
			if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
				t.Errorf("watch output %q: %v", sc.Text(), err)
				continue
			}
			lines <- m
		}
		close(lines)
	}()
	next := func() map[string]int {
		t.Helper()
		select {
		case m, ok := <-lines:
			if !ok {
				t.Fatalf("watch ended: %s", errOut.String())
			}
			return m
		case <-time.After(30 * time.Second):
			t.Fatal("no sync line within 30s")
		}
		return nil
	}
	first := next()
	tmp := filepath.Join(ws, "memory", "2025-12-07.md.tmp")
	if err := os.WriteFile(tmp, []byte("# 2025-12-07\n\nPeter adopted a tortoise named Brontolina.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, filepath.Join(ws, "memory", "2025-12-07.md")); err != nil {
		t.Fatal(err)
	}
	for m := next(); m["files"] != first["files"]+1 || m["parsed"] == 0; m = next() {
	}
	// A rebuild in another process does not wait for the watch to end: the
	// watch lets the index go and goes on with the new one.
	needBinary(t)
	if out, err := memoriaCmd(context.Background(), "", nil, "index", "-w", ws, "--rebuild", "--no-embed").CombinedOutput(); err != nil {
		t.Fatalf("rebuild while watching: %v\n%s", err, out)
	}
	if err := os.WriteFile(filepath.Join(ws, "memory", "2025-12-08.md"), []byte("# 2025-12-08\n\nBrontolina ate a strawberry.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for m := next(); m["files"] != first["files"]+2 || m["parsed"] == 0; m = next() {
	}
	cancel()
	select {
	case code := <-done:
		if code != exitOK {
			t.Fatalf("watch: exit %d, %s", code, errOut.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatal("watch did not stop when cancelled")
	}
	code, out, _ := cli(t, "status", "-w", ws, "--json")
	var st struct{ Pending int }
	if code != exitOK || json.Unmarshal([]byte(out), &st) != nil || st.Pending != 0 {
		t.Errorf("status after watch: exit %d, %s", code, out)
	}
	if code, out, _ := cli(t, "recall", "-w", ws, "tortoise Brontolina"); code != exitOK || !strings.Contains(out, "memory/2025-12-07.md#L3") {
		t.Errorf("recall: exit %d, %s", code, out)
	}
	if code, _, _ := cli(t, "watch", "-w", ws, "--debounce", "1ns"); code != exitUsage {
		t.Errorf("--debounce 1ns: exit %d, want 2", code)
	}
}
