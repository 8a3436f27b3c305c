package sqlite

import (
	"bytes"
	"context"
	"database/sql"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"memoria/internal/testworkspace"
	"memoria/memory"
)

// warnings collects an Index's warnings.
type warnings struct {
	mu   sync.Mutex
	msgs []string
}

func (w *warnings) add(msg string) { w.mu.Lock(); w.msgs = append(w.msgs, msg); w.mu.Unlock() }
func (w *warnings) all() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return strings.Join(w.msgs, "\n")
}

// writeSnapshot writes the postings snapshot as a server does when it
// starts, and returns the file's path.
func writeSnapshot(t *testing.T, dir, path string) string {
	t.Helper()
	ctx := context.Background()
	ix, err := OpenAt(ctx, dir, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if err := ix.Warm(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(ix.lexSnapFile()); err != nil {
		t.Fatalf("no snapshot after Warm: %v", err)
	}
	return ix.lexSnapFile()
}

// compareWithSQL checks that a one-shot process ranking over the snapshot
// answers Search, EntityItems and TermStats exactly as one that asks
// SQLite, and returns the one-shot state's count of items reloaded over
// the snapshot. After deletions, FTS5 scores with stale totals (a
// contentless table's bm25 totals still count deleted rows), so
// deleted is set there and Search and TermStats are compared with
// postings loaded afresh from the index instead.
func compareWithSQL(t *testing.T, dir, path string, deleted bool) (dirty int) {
	t.Helper()
	ctx := context.Background()
	snap, err := OpenAt(ctx, dir, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer snap.Close()
	sql, err := OpenAt(ctx, dir, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer sql.Close()
	sql.lex.snapTried = true // never looks for the snapshot
	ranker := sql
	if deleted {
		ranker, err = OpenAt(ctx, dir, path, Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer ranker.Close()
		ranker.lex.snapTried = true
		loadLexicalNow(t, ranker)
	}
	filters := []Filter{
		{},
		{Since: time.Date(2025, 10, 1, 0, 0, 0, 0, time.UTC), Until: time.Date(2025, 11, 15, 0, 0, 0, 0, time.UTC)},
		{Kinds: []memory.Kind{memory.KindOpinion, memory.KindWorld}},
		{Entities: []string{"peter", "Warelay"}},
	}
	compared := 0
	for _, words := range queryWords(t, dir, 80) {
		for fi, f := range filters {
			for _, limit := range []int{1000, 7} {
				got, err := snap.Search(ctx, words, f, limit)
				if err != nil {
					t.Fatal(err)
				}
				if snap.lex.snap == nil {
					t.Fatalf("%q: not ranked over the snapshot", words)
				}
				want, err := ranker.Search(ctx, words, f, limit)
				if err != nil {
					t.Fatal(err)
				}
				if msg := sameRanking(got, want, limit); msg != "" {
					t.Fatalf("%q, filter %d, limit %d: %s", words, fi, limit, msg)
				}
				compared += len(want)
			}
		}
		got, gotTotal, err := snap.TermStats(ctx, words)
		if err != nil {
			t.Fatal(err)
		}
		want, wantTotal, err := ranker.TermStats(ctx, words)
		if err != nil {
			t.Fatal(err)
		}
		if gotTotal != wantTotal || !slices.Equal(got, want) {
			t.Fatalf("TermStats %q: %d %v, SQL %d %v", words, gotTotal, got, wantTotal, want)
		}
	}
	if compared < 500 {
		t.Errorf("only %d results compared", compared)
	}
	for _, slugs := range [][]string{{"peter"}, {"Peter", "warelay"}, {"biscuit"}, {"nobody"}} {
		for fi, f := range filters {
			for _, limit := range []int{1, 10, 100000} {
				got, err := snap.EntityItems(ctx, slugs, f, limit)
				if err != nil {
					t.Fatal(err)
				}
				want, err := sql.EntityItems(ctx, slugs, f, limit)
				if err != nil {
					t.Fatal(err)
				}
				ids := func(items []EntityItem) (out []int64) {
					for _, it := range items {
						out = append(out, it.RowID)
					}
					return out
				}
				if !slices.Equal(ids(got), ids(want)) {
					t.Fatalf("EntityItems %v, filter %d, limit %d: %v, SQL %v", slugs, fi, limit, ids(got), ids(want))
				}
			}
		}
	}
	// Every item, as the in-memory state makes it, is the index's.
	ids := queryIDs(t, sql, `SELECT id FROM items`)
	wantItems, err := sql.itemsWithIDs(ctx, ids)
	if err != nil {
		t.Fatal(err)
	}
	// Nearby, for a sample of items (every seventh).
	for i := 0; i < len(ids); i += 7 {
		it := wantItems[ids[i]]
		want, err := sql.Nearby(ctx, it, 2)
		if err != nil {
			t.Fatal(err)
		}
		got, err := snap.Nearby(ctx, it, 2)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("Nearby(%d): %+v, SQL %+v", it.RowID, got, want)
		}
	}
	for _, ix := range []*Index{snap, ranker} {
		if ix == sql {
			continue
		}
		ix.lex.mu.Lock()
		got, err := ix.itemsInMemory(ctx, &ix.lex.lexState, ids)
		ix.lex.mu.Unlock()
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(wantItems) || len(got) != len(ids) {
			t.Fatalf("%d items in memory, %d in the index", len(got), len(wantItems))
		}
		for id, want := range wantItems {
			if !reflect.DeepEqual(got[id], want) {
				t.Fatalf("item %d in memory:\n%+v\nin the index:\n%+v", id, got[id], want)
			}
		}
	}
	return snap.lex.dirty
}

// TestSnapshotAnswersLikeSQL: a one-shot process over the postings
// snapshot answers as SQLite does, right after the snapshot was written
// and after files were changed, removed and added since.
func TestSnapshotAnswersLikeSQL(t *testing.T) {
	for _, src := range []string{"../examples/workspace", "../bench/multilingual/workspace"} {
		t.Run(filepath.Base(filepath.Dir(src)), func(t *testing.T) {
			dir := testworkspace.Copy(t, src)
			path := filepath.Join(t.TempDir(), "index.sqlite")
			writeSnapshot(t, dir, path)
			if dirty := compareWithSQL(t, dir, path, false); dirty != 0 {
				t.Errorf("fresh snapshot: %d items reloaded", dirty)
			}
			// Change the workspace and sync it from another process.
			var logs []string
			filepath.WalkDir(filepath.Join(dir, "memory"), func(p string, d fs.DirEntry, err error) error {
				if err == nil && !d.IsDir() {
					logs = append(logs, p)
				}
				return nil
			})
			if len(logs) < 3 {
				t.Fatalf("%d logs", len(logs))
			}
			data, _ := os.ReadFile(logs[0])
			os.WriteFile(logs[0], append(data, "\n## Retain\n- W @Peter: Peter moved the aardvark release to Friday.\n"...), 0o644)
			os.Remove(logs[1])
			writeFile(t, dir, "memory/2030-01-02.md", "# 2030-01-02\n\nPeter and the aardvark team shipped warelay 9.\n")
			touch(t, dir, strings.TrimPrefix(filepath.ToSlash(logs[0]), filepath.ToSlash(dir)+"/"), 1)
			ix, err := OpenAt(context.Background(), dir, path, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if st, err := ix.Sync(context.Background()); err != nil || !st.Changed() {
				t.Fatalf("sync: %+v, %v", st, err)
			}
			ix.Close()
			if dirty := compareWithSQL(t, dir, path, true); dirty == 0 {
				t.Error("changed files not reloaded over the snapshot")
			}
			// Written again from the old snapshot and the changed files: a
			// current snapshot with the same answers.
			ix, err = OpenAt(context.Background(), dir, path, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if wrote, err := ix.WritePostings(context.Background(), 0); err != nil || !wrote {
				t.Fatalf("WritePostings: %v, %v", wrote, err)
			}
			ix.Close()
			if dirty := compareWithSQL(t, dir, path, true); dirty != 0 {
				t.Errorf("rewritten snapshot: %d items reloaded", dirty)
			}
		})
	}
}

// TestSnapshotTooFarBehind: past the reload limit, a one-shot process
// lets FTS5 rank, with the same answers.
func TestSnapshotTooFarBehind(t *testing.T) {
	ctx := context.Background()
	dir := testworkspace.Copy(t, "../examples/workspace")
	path := filepath.Join(t.TempDir(), "index.sqlite")
	writeSnapshot(t, dir, path)
	writeFile(t, dir, "memory/2030-01-02.md", "# 2030-01-02\n\nThe aardvark shipped.\n")
	old := maxSnapshotDirty
	maxSnapshotDirty = 0
	defer func() { maxSnapshotDirty = old }()
	ix, err := OpenAt(ctx, dir, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if _, err := ix.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	hits, err := ix.Search(ctx, []string{"aardvark"}, Filter{}, 10)
	if err != nil || len(hits) != 1 {
		t.Fatalf("hits %v, %v", hits, err)
	}
	if ix.lex.state != lexNone || ix.lex.snap != nil {
		t.Errorf("state %d over a snapshot too far behind", ix.lex.state)
	}
}

// TestSnapshotDamagedOrForeign: a damaged snapshot, or one written for an
// earlier build of the index, is ignored (with a warning when damaged) and
// FTS5 ranks; nothing panics.
func TestSnapshotDamagedOrForeign(t *testing.T) {
	ctx := context.Background()
	dir := testworkspace.Copy(t, "../examples/workspace")
	path := filepath.Join(t.TempDir(), "index.sqlite")
	file := writeSnapshot(t, dir, path)
	good, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	search := func(name string) (*warnings, *Index) {
		t.Helper()
		w := &warnings{}
		ix, err := OpenAt(ctx, dir, path, Options{Warn: w.add})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { ix.Close() })
		if _, err := ix.Search(ctx, []string{"Peter", "release"}, Filter{}, 10); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if _, err := ix.EntityItems(ctx, []string{"peter"}, Filter{}, 10); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return w, ix
	}
	damaged := map[string][]byte{
		"garbage":   []byte("not a snapshot at all"),
		"truncated": good[:len(good)/2],
		"empty":     nil,
	}
	for _, at := range []int{20, len(good) / 3, len(good) - 10} {
		b := slices.Clone(good)
		b[at] ^= 0x5a
		damaged["flipped byte "+string(rune('0'+at%10))] = b
	}
	for name, data := range damaged {
		if err := os.WriteFile(file, data, 0o644); err != nil {
			t.Fatal(err)
		}
		w, _ := search(name)
		_ = w // a flipped byte in the postings may go unnoticed; it must not crash
	}
	os.WriteFile(file, []byte("not a snapshot at all"), 0o644)
	if w, ix := search("garbage"); !strings.Contains(w.all(), "ignored") || ix.lex.snap != nil {
		t.Errorf("garbage: warnings %q, over a snapshot: %v", w.all(), ix.lex.snap != nil)
	}
	// A rebuilt index: the old snapshot belongs to another build.
	os.WriteFile(file, good, 0o644)
	ix, err := OpenAt(ctx, dir, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	meta := `UPDATE meta SET value = '2001-01-01T00:00:00Z' WHERE key = 'built'`
	if _, err := ix.db.ExecContext(ctx, meta); err != nil {
		t.Fatal(err)
	}
	ix.Close()
	if w, ix := search("foreign"); w.all() != "" || ix.lex.snap != nil {
		t.Errorf("foreign snapshot: warnings %q, used: %v", w.all(), ix.lex.snap != nil)
	}
}

// TestLoadRowsInGo: the postings loaded from rows made in Go (ftsRows)
// are byte for byte those loaded from the rows the full-text table's own
// SQL makes, on workspaces that were built and then synced.
func TestLoadRowsInGo(t *testing.T) {
	ctx := context.Background()
	for _, src := range []string{"../examples/workspace", "../bench/multilingual/workspace"} {
		dir := testworkspace.Copy(t, src)
		path := filepath.Join(t.TempDir(), "index.sqlite")
		ix, err := OpenAt(ctx, dir, path, Options{})
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, dir, "memory/2030-01-02.md", "# 2030-01-02\n\nPeter and the aardvark team shipped warelay 9.\n\n## Later\n\n- one\n- two\n")
		if _, err := ix.Sync(ctx); err != nil {
			t.Fatal(err)
		}
		ix.Close()
		load := func(inGo bool) lexState {
			lexRowsInGo = inGo
			defer func() { lexRowsInGo = true }()
			l, _, err := loadLexical(ctx, path)
			if err != nil {
				t.Fatal(err)
			}
			return l
		}
		db, err := sql.Open("sqlite", "file:"+path)
		if err != nil {
			t.Fatal(err)
		}
		tx, err := db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		if ok, err := scanLexItems(ctx, tx, func(lexRow) { n++ }); !ok || err != nil || n == 0 {
			t.Fatalf("%s: rows made in Go: ok %v, %v, %d rows", src, ok, err, n)
		}
		tx.Rollback()
		db.Close()
		goRows, sqlRows := load(true), load(false)
		if !bytes.Equal(goRows.seg, sqlRows.seg) || len(goRows.seg) == 0 {
			t.Errorf("%s: postings from rows made in Go differ (%d bytes, SQL %d)", src, len(goRows.seg), len(sqlRows.seg))
		}
		if !reflect.DeepEqual(goRows.fields, sqlRows.fields) || !reflect.DeepEqual(goRows.files, sqlRows.files) ||
			!reflect.DeepEqual(goRows.byEntity, sqlRows.byEntity) || !reflect.DeepEqual(goRows.pathOf, sqlRows.pathOf) {
			t.Errorf("%s: fields, files or entity links differ", src)
		}
	}
}
