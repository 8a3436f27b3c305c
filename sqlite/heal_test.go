package sqlite

import (
	"context"
	"errors"
	"fmt"
	"memoria/vector"
	"os"
	"path/filepath"
	"testing"
	"time"

	"memoria/memory"
)

// TestSyncSeesRewriteWithinTimestampGranularity: a file rewritten with
// the same size within one step of its file system's timestamps keeps
// its size and mtime. The sync after the rewrite must still index the new
// content: in place or by rename, in a one-shot process or a long-lived
// one trusting its change monitor. The steps are made exact with Chtimes
// (a file system with one-second timestamps, both writes in one second).
func TestSyncSeesRewriteWithinTimestampGranularity(t *testing.T) {
	for _, longLived := range []bool{false, true} {
		for _, how := range []string{"in place", "temp file and rename"} {
			t.Run(fmt.Sprintf("%s/long-lived=%v", how, longLived), func(t *testing.T) {
				t.Parallel()
				ctx := context.Background()
				dir := testWorkspace(t)
				rel := "memory/2025-12-01.md"
				path := filepath.Join(dir, filepath.FromSlash(rel))
				second := time.Now().Truncate(time.Second)
				write := func(word string) {
					t.Helper()
					text := []byte("# 2025-12-01\n\nThe password is " + word + ".\n")
					target := path
					if how != "in place" {
						target = path + ".tmp"
					}
					if err := os.WriteFile(target, text, 0o644); err != nil {
						t.Fatal(err)
					}
					if err := os.Chtimes(target, second, second); err != nil {
						t.Fatal(err)
					}
					if target != path {
						if err := os.Rename(target, path); err != nil {
							t.Fatal(err)
						}
					}
				}
				write("quince0001")
				ix := openTest(t, dir, Options{})
				if longLived {
					for range 3 { // the monitor is trusted from the third
						if _, err := ix.Sync(ctx); err != nil {
							t.Fatal(err)
						}
					}
				}
				for i := 2; i <= 5; i++ {
					word := fmt.Sprintf("quince%04d", i)
					write(word)
					var hits []memory.Hit
					// Through the path recall takes: SyncAround, which in a
					// one-shot process lists while the query runs.
					_, err := ix.SyncAround(ctx, func() (err error) {
						hits, err = ix.Search(ctx, []string{word}, memory.Filter{}, 10)
						return err
					})
					if err != nil {
						t.Fatal(err)
					}
					if len(hits) == 0 {
						t.Fatalf("rewrite %d: %q not found after the sync (same size and mtime as the content indexed)", i, word)
					}
				}
			})
		}
	}
}

// TestSyncSeesChangeDrainedByConcurrentCheck: in a long-lived process,
// two checks of freshness overlap. The first listed the files before a
// write; the second drained the monitor's report of that write and is
// still under way when the first ends. The first's success must not make
// the monitor vouch for the index: a third check after both began must
// look, and find the write.
func TestSyncSeesChangeDrainedByConcurrentCheck(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := testWorkspace(t)
	ix := openTest(t, dir, Options{})
	for range 3 {
		if _, err := ix.Sync(ctx); err != nil {
			t.Fatal(err)
		}
	}
	// A: a check that the monitor sends to look (a change elsewhere),
	// and that lists the files before the write.
	writeFile(t, dir, "memory/2025-11-29.md", "# 2025-11-29\n\nA kestrel hovered.\n")
	v, err := ix.dataVersion(ctx)
	if err != nil {
		t.Fatal(err)
	}
	_, ok, epochA := ix.fresh.quiet(ix.ws, v)
	if ok {
		t.Fatal("the monitor vouched for a workspace with a new file")
	}
	listedA := ix.list()
	// The write, then B: a check that drains its report (and has yet to
	// apply what it lists when A ends).
	writeFile(t, dir, "memory/2025-11-30.md", "# 2025-11-30\n\nThe marmot whistled.\n")
	if _, ok, _ := ix.fresh.quiet(ix.ws, v); ok {
		t.Fatal("the monitor vouched for a workspace with a new file")
	}
	// A ends.
	if _, err := ix.sync(ctx, time.Now(), listedA, &epochA); err != nil {
		t.Fatal(err)
	}
	// C: begins after the write completed and must see it.
	if hits := search(t, ix, "marmot"); len(hits) == 0 {
		t.Fatal("a write drained by a concurrent check was missed: the check that listed before it made the monitor vouch")
	}
}

// TestSyncWithOlderListingKeepsNewerFiles: checks overlap in a
// long-lived process. One that listed the files before a new log was
// written, and applies its listing after another check indexed the log,
// must not remove the log from the index (a recall in between missed it
// although its write completed before the recall began).
func TestSyncWithOlderListingKeepsNewerFiles(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := testWorkspace(t)
	ix := openTest(t, dir, Options{})
	older := ix.list()
	writeFile(t, dir, "memory/2025-11-30.md", "# 2025-11-30\n\nThe marmot whistled.\n")
	if hits := search(t, ix, "marmot"); len(hits) == 0 {
		t.Fatal("the new log is not indexed")
	}
	if _, err := ix.sync(ctx, time.Now(), older, nil); err != nil {
		t.Fatal(err)
	}
	hits, err := ix.Search(ctx, []string{"marmot"}, memory.Filter{}, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) == 0 {
		t.Fatal("a check with a listing older than the log removed it from the index")
	}
}

// TestUnusableErrors: the errors that mean the open index cannot serve
// are damage (memory.ErrCorrupt) once the index names them, whichever of
// SQLite's codes says so; others are not.
func TestUnusableErrors(t *testing.T) {
	t.Parallel()
	ix := &Index{path: "/ws/.memory/index.sqlite"}
	for _, c := range []struct {
		code int
		want bool
	}{
		{11, true},         // SQLITE_CORRUPT
		{11 | 1<<8, true},  // SQLITE_CORRUPT_VTAB
		{26, true},         // SQLITE_NOTADB
		{10, true},         // SQLITE_IOERR
		{10 | 34<<8, true}, // SQLITE_IOERR_IN_PAGE: a truncated -shm
		{10 | 21<<8, true}, // SQLITE_IOERR_SHMMAP
		{14, true},         // SQLITE_CANTOPEN
		{8 | 4<<8, true},   // SQLITE_READONLY_DBMOVED: the file deleted under it
		{8, false},         // SQLITE_READONLY
		{5, false},         // SQLITE_BUSY
		{9, false},         // SQLITE_INTERRUPT
		{13, false},        // SQLITE_FULL
		{1, false},         // SQLITE_ERROR
	} {
		err := ix.wrapErr(codeError(c.code))
		if got := errors.Is(err, memory.ErrCorrupt); got != c.want {
			t.Errorf("code %d: %v; damage = %v, want %v", c.code, err, got, c.want)
		}
	}
	if _, err := decodeManifest("not a manifest line\n"); !errors.Is(ix.wrapErr(err), memory.ErrCorrupt) {
		t.Errorf("a manifest that does not decode: %v, not damage", err)
	}
}

// codeError is an error with an SQLite result code, as the driver's.
type codeError int

func (c codeError) Error() string { return fmt.Sprintf("sqlite error (%d)", int(c)) }
func (c codeError) Code() int     { return int(c) }

// TestReopenRestoresVectorStore: after .memory/ is deleted under a
// long-lived index, its repair opens the vector store again too, at its
// path: it used to go on reading and writing the deleted file, so that
// vectors embedded after the repair reached no other process.
func TestReopenRestoresVectorStore(t *testing.T) {
	ctx := context.Background()
	dir := testWorkspace(t)
	ix := openTest(t, dir, Options{})
	vectors := filepath.Join(dir, ".memory", "index.sqlite.vectors")
	if _, err := os.Stat(vectors); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(dir, ".memory")); err != nil {
		t.Fatal(err)
	}
	if err := ix.Reopen(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(vectors); err != nil {
		t.Errorf("the vector store is not back at its path: %v", err)
	}
	if !ix.VectorsLost() {
		t.Error("the index does not say its vectors were lost")
	}
	if err := ix.vec.UseModel(ctx, "m/1"); err != nil {
		t.Fatal(err)
	}
	if err := ix.vec.Put(ctx, []string{vector.TextHash(1001)}, [][]float32{{1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}}); err != nil {
		t.Fatal(err)
	}
	other, err := vector.Open(ctx, vectors, vectors+".hnsw", vector.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if have, err := other.Texts(ctx); err != nil || len(have) != 1 {
		t.Errorf("another process sees %d texts (%v), want the one embedded after the repair", len(have), err)
	}
}

// TestRacyFileSettlesWithoutPending: a file indexed while its mtime was
// too recent to trust (racy) and not written since is no change: once it
// ages, status must not count it as pending (it did, until some sync
// stored its mtime, and `memoria watch`, which syncs only on events,
// never did: status said "1 file changed" of an unchanged file), while
// the next sync still stores its mtime.
func TestRacyFileSettlesWithoutPending(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := testWorkspace(t)
	rel := "memory/2025-12-01.md"
	path := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.WriteFile(path, []byte("# 2025-12-01\n\nThe medlar ripened.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ix := openTest(t, dir, Options{}) // indexes the file while it is racy
	old := time.Now().Add(-time.Minute)
	if err := os.Chtimes(path, old, old); err != nil { // it ages, unwritten
		t.Fatal(err)
	}
	st, err := ix.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.Pending != 0 {
		t.Errorf("status: %d pending of an unchanged file", st.Pending)
	}
	sst, err := ix.Sync(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if sst.Parsed != 0 {
		t.Errorf("the sync read %d unchanged files again", sst.Parsed)
	}
	stored, err := ix.storedFiles(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if s, _ := stored.get(rel); s.mtime != old.UnixNano() {
		t.Errorf("mtime stored after the sync: %d, want %d", s.mtime, old.UnixNano())
	}
}
