package sqlite

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"memoria/memory"
)

// TestFailedRebuildKeepsIndex: a rebuild that fails (here: cancelled)
// leaves the open index as it was, answering queries; it used to have
// closed the database first, and the next call panicked.
func TestFailedRebuildKeepsIndex(t *testing.T) {
	ix := openTest(t, testWorkspace(t), Options{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ix.Rebuild(ctx); err == nil {
		t.Fatal("a cancelled rebuild succeeded")
	}
	if hits := search(t, ix, "marrakech"); len(hits) != 1 {
		t.Fatalf("after a failed rebuild: %d hits", len(hits))
	}
	if _, err := ix.Rebuild(context.Background()); err != nil {
		t.Fatal(err)
	}
	if hits := search(t, ix, "marrakech"); len(hits) != 1 {
		t.Fatalf("after a rebuild: %d hits", len(hits))
	}
	left, _ := filepath.Glob(ix.Path() + buildSuffix + "*")
	if len(left) > 0 {
		t.Errorf("build files left: %q", left)
	}
}

// TestRebuildUnderReaders: a rebuild does not wait for other open
// indexes of the same file (as other processes hold it): it writes the
// new content into the file they have open, and they read it at their
// next query.
func TestRebuildUnderReaders(t *testing.T) {
	dir := testWorkspace(t)
	reader := openTest(t, dir, Options{})
	if hits := search(t, reader, "marrakech"); len(hits) != 1 {
		t.Fatalf("before: %d hits", len(hits))
	}
	writer := openTest(t, dir, Options{})
	writeFile(t, dir, "memory/2025-11-28.md", "# 2025-11-28\n\nThe zeppelin flew over Marrakech.\n")
	if _, err := writer.Rebuild(context.Background()); err != nil {
		t.Fatal(err)
	}
	hits, err := reader.Search(context.Background(), []string{"zeppelin"}, memory.Filter{}, 10)
	if err != nil || len(hits) != 1 {
		t.Fatalf("the reader after the rebuild: %v, %d hits", err, len(hits))
	}
}

// TestParallelFirstOpen: indexes of a workspace never indexed, opened at
// once, all open; one builds the index and the others use it.
func TestParallelFirstOpen(t *testing.T) {
	dir := testWorkspace(t)
	const n = 6
	var wg sync.WaitGroup
	ixs := make([]*Index, n)
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() { ixs[i], errs[i] = Open(context.Background(), dir, Options{}) })
	}
	wg.Wait()
	built := 0
	for i := range n {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		defer ixs[i].Close()
		if ixs[i].Rebuilt != "" {
			built++
		}
		if hits := search(t, ixs[i], "marrakech"); len(hits) != 1 {
			t.Errorf("index %d: %d hits", i, len(hits))
		}
	}
	if built != 1 {
		t.Errorf("%d of %d opens built the index, want 1", built, n)
	}
}

// TestLeftoversRemoved: the build file of a process that no longer runs
// (killed during a build) is removed by the next open or build, and so
// are the files an older version kept beside the index.
func TestLeftoversRemoved(t *testing.T) {
	dir := testWorkspace(t)
	ix := openTest(t, dir, Options{})
	// A pid that no process has: above the kernel's largest.
	dead := ix.Path() + buildSuffix + "4194305"
	for _, p := range []string{dead, dead + "-journal"} {
		if err := os.WriteFile(p, []byte("partial"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// And the files older versions kept beside the index.
	for _, old := range []string{".lex", ".lex.lock", ".lock", ".sock", ".release"} {
		if err := os.WriteFile(ix.Path()+old, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	openTest(t, dir, Options{})
	if left, _ := filepath.Glob(ix.Path() + buildSuffix + "*"); len(left) > 0 {
		t.Errorf("left after an open: %q", left)
	}
	for _, old := range []string{".lex", ".lex.lock", ".lock", ".sock", ".release"} {
		if _, err := os.Stat(ix.Path() + old); !os.IsNotExist(err) {
			t.Errorf("%s left after an open: %v", old, err)
		}
	}
}

// TestWriteDuringRebuild: a file written and synced by another process
// while a rebuild builds (after its listing, before its replace) is in
// the index once the rebuild is in place, for the rebuilding process and
// for the other one: the rebuild puts in place the state it was built
// from, and what was synced meanwhile must not be lost with it. (Through
// processes, `go run ./bench/soak` checks the same under kills.)
func TestWriteDuringRebuild(t *testing.T) {
	ctx := context.Background()
	dir := testWorkspace(t)
	writer := openTest(t, dir, Options{})
	rebuilder := openTest(t, dir, Options{})
	rebuilder.beforeReplace = func() {
		writeFile(t, dir, "memory/2025-12-02.md", "# 2025-12-02\n\n## Retain\n- W @Peter: Adopted a tortoise named Ziggurat.\n")
		if _, err := writer.Sync(ctx); err != nil {
			t.Fatal(err)
		}
		if hits := search(t, writer, "ziggurat"); len(hits) != 1 {
			t.Fatalf("before the replace: %d hits", len(hits))
		}
	}
	if _, err := rebuilder.Rebuild(ctx); err != nil {
		t.Fatal(err)
	}
	for name, ix := range map[string]*Index{"writer": writer, "rebuilder": rebuilder} {
		if hits := search(t, ix, "ziggurat"); len(hits) != 1 {
			t.Errorf("%s after the rebuild: %d hits for the fact written during it", name, len(hits))
		}
	}
}
