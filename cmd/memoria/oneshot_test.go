package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"memoria/internal/testworkspace"
)

// TestOneShotLeavesNothing: one-shot commands run at once on workspaces
// never indexed all succeed (six first recalls of one workspace, twenty
// recalls over five), and none leaves a process or a file behind it: the
// index folder holds the index, its WAL pair and the vector store, no
// lock, socket or build file.
func TestOneShotLeavesNothing(t *testing.T) {
	needBinary(t)
	ctx := context.Background()
	run := func(ws, query string) error {
		out, err := memoriaCmd(ctx, "", nil, "recall", "-w", ws, "--json", "--lexical", query).CombinedOutput()
		if err != nil {
			return fmt.Errorf("recall %q in %s: %v\n%s", query, ws, err, out)
		}
		return nil
	}
	parallel := func(n int, f func(i int) error) {
		t.Helper()
		errs := make(chan error, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() { errs <- f(i) })
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Error(err)
			}
		}
	}
	first := testworkspace.CopyExample(t)
	parallel(6, func(int) error { return run(first, "who looks after the dog") })
	var five []string
	for range 5 {
		five = append(five, testworkspace.CopyExample(t))
	}
	queries := []string{"Marrakech", "what does Peter prefer", "since last week", "WhatsApp", "the castle"}
	parallel(20, func(i int) error { return run(five[i%5], queries[i/5%len(queries)]) })
	for _, ws := range append(five, first) {
		entries, err := os.ReadDir(filepath.Join(ws, ".memory"))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			switch e.Name() {
			case "index.sqlite", "index.sqlite-wal", "index.sqlite-shm",
				"index.sqlite.vectors", "index.sqlite.vectors-wal", "index.sqlite.vectors-shm", ".gitignore":
			default:
				t.Errorf("%s: left behind: %s", ws, e.Name())
			}
		}
	}
	if runtime.GOOS == "linux" {
		if left := running(t, binary); len(left) > 0 {
			t.Errorf("memoria processes still running: %s", strings.Join(left, ", "))
		}
	}
}

// running lists the processes whose executable is bin (Linux: /proc).
func running(t *testing.T, bin string) []string {
	t.Helper()
	procs, err := filepath.Glob("/proc/[0-9]*/exe")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, p := range procs {
		if exe, err := os.Readlink(p); err == nil && exe == bin {
			out = append(out, strings.TrimSuffix(strings.TrimPrefix(p, "/proc/"), "/exe"))
		}
	}
	return out
}
