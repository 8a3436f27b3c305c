package vector

import (
	"context"
	"database/sql"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestEncode(t *testing.T) {
	v := []float32{0.5, -0.25, 0.125, 0, -0.75}
	got := make([]float32, len(v))
	if err := Decode(Encode(v), got); err != nil {
		t.Fatal(err)
	}
	for i := range v {
		if math.Abs(float64(got[i]-v[i])) > 0.75/127 {
			t.Errorf("component %d: %v → %v", i, v[i], got[i])
		}
	}
	if Decode(Encode(v), make([]float32, 3)) == nil {
		t.Error("a vector of another dimension decoded")
	}
}

func unit(dim, seed int) []float32 {
	v := make([]float32, dim)
	var n float64
	for i := range v {
		v[i] = float32(math.Sin(float64(seed*31 + i*7)))
		n += float64(v[i] * v[i])
	}
	for i := range v {
		v[i] /= float32(math.Sqrt(n))
	}
	return v
}

func hash(i int) string { return TextHash(int64(1000 + i)) }

func openTest(t *testing.T, dir string) *Store {
	t.Helper()
	s, err := Open(context.Background(), filepath.Join(dir, "index.sqlite.vectors"), filepath.Join(dir, "index.sqlite.hnsw"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// TestOneCopy: each vector is stored once, a batch per row, and nothing
// beside the store holds them again; a Store loads its index from the
// batches, and adds a batch another Store (process) put, without a
// reload.
func TestOneCopy(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	a := openTest(t, dir)
	if err := a.UseModel(ctx, "m/1"); err != nil {
		t.Fatal(err)
	}
	for b := range 3 {
		if err := a.Put(ctx, []string{hash(2 * b), hash(2*b + 1)}, [][]float32{unit(16, 2*b), unit(16, 2*b+1)}); err != nil {
			t.Fatal(err)
		}
	}
	var batches, vectors, texts int
	if err := a.db.QueryRow(`SELECT count(*), sum(length(ids)) / 8, (SELECT count(*) FROM texts) FROM batches`).Scan(&batches, &vectors, &texts); err != nil {
		t.Fatal(err)
	}
	if batches != 3 || vectors != 6 || texts != 6 {
		t.Errorf("%d batches holding %d vectors, %d texts", batches, vectors, texts)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), "index.sqlite.vectors") {
			t.Errorf("a file beside the store: %s", e.Name())
		}
	}
	ix, err := a.Index(ctx)
	if err != nil || ix == nil || ix.Len() != 6 || ix.From() != "sqlite" || ix.Seq() != 3 {
		t.Fatalf("index %+v, %v", ix, err)
	}
	hits, err := ix.Search(unit(16, 4), 1)
	if err != nil || len(hits) != 1 || hits[0].ID != 1004 {
		t.Fatalf("search: %+v, %v", hits, err)
	}
	b := openTest(t, dir)
	if err := b.Put(ctx, []string{hash(6)}, [][]float32{unit(16, 6)}); err != nil {
		t.Fatal(err)
	}
	again, err := a.Index(ctx)
	if err != nil || again != ix || ix.Len() != 7 || ix.Seq() != 4 {
		t.Fatalf("after another store put a batch: same %v, %d vectors, seq %d, %v", again == ix, ix.Len(), ix.Seq(), err)
	}
	// A new model empties the store.
	if err := b.UseModel(ctx, "m/2"); err != nil {
		t.Fatal(err)
	}
	if n, _ := a.Count(ctx); n != 0 {
		t.Errorf("%d texts after a model change", n)
	}
}

// TestMigrates: a store of the layout before batches (a row per vector
// in a table "vectors", with or without seq, and a copy of every vector
// in index.sqlite.vecs) is moved into batches on open, once; the old
// table and file go, and nothing needs embedding again.
func TestMigrates(t *testing.T) {
	ctx := context.Background()
	for _, withSeq := range []bool{true, false} {
		dir := t.TempDir()
		path := filepath.Join(dir, "index.sqlite.vectors")
		db, err := sql.Open("sqlite", path)
		if err != nil {
			t.Fatal(err)
		}
		table := `CREATE TABLE vectors(text_hash TEXT PRIMARY KEY, vec BLOB NOT NULL, seq INTEGER NOT NULL DEFAULT 0) WITHOUT ROWID`
		if !withSeq {
			table = `CREATE TABLE vectors(text_hash TEXT PRIMARY KEY, vec BLOB NOT NULL) WITHOUT ROWID`
		}
		if _, err := db.Exec(table + `; CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID; INSERT INTO meta VALUES('model', 'm/1')`); err != nil {
			t.Fatal(err)
		}
		for i := range 5 {
			if _, err := db.Exec(`INSERT INTO vectors(text_hash, vec) VALUES(?, ?)`, hash(i), Encode(unit(8, i))); err != nil {
				t.Fatal(err)
			}
		}
		db.Close()
		os.WriteFile(filepath.Join(dir, "index.sqlite.vecs"), []byte("the old copy"), 0o644)

		s := openTest(t, dir)
		have, err := s.Texts(ctx)
		if err != nil || len(have) != 5 {
			t.Fatalf("with seq %v: %d texts, %v", withSeq, len(have), err)
		}
		if m, _ := s.Model(ctx); m != "m/1" {
			t.Errorf("with seq %v: model %q", withSeq, m)
		}
		ix, err := s.Index(ctx)
		if err != nil || ix == nil || ix.Len() != 5 {
			t.Fatalf("with seq %v: index %v, %v", withSeq, ix, err)
		}
		var n int
		s.db.QueryRow(`SELECT count(*) FROM sqlite_schema WHERE name = 'vectors'`).Scan(&n)
		if _, err := os.Stat(filepath.Join(dir, "index.sqlite.vecs")); n != 0 || !os.IsNotExist(err) {
			t.Errorf("with seq %v: old table %d, old file %v", withSeq, n, err)
		}
	}
}

// TestDamagedStoreStartsAfresh: a store whose pages are damaged is found
// out by the search that reads them: it is set aside and started afresh,
// with one warning, and the search finds nothing instead of failing (a
// garbled vectors file used to make every hybrid recall fail). Embedding
// fills it again.
func TestDamagedStoreStartsAfresh(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s := openTest(t, dir)
	if err := s.UseModel(ctx, "m/1"); err != nil {
		t.Fatal(err)
	}
	for b := range 4 {
		var hs []string
		var vs [][]float32
		for i := range 40 {
			hs, vs = append(hs, hash(b*40+i)), append(vs, unit(256, b*40+i))
		}
		if err := s.Put(ctx, hs, vs); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	path := filepath.Join(dir, "index.sqlite.vectors")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for i := 4096; i < len(data); i++ { // every page but the first
		data[i] = 0xA5
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	var warnings []string
	s, err = Open(ctx, path, filepath.Join(dir, "index.sqlite.hnsw"), Options{Warn: func(m string) { warnings = append(warnings, m) }})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ix, err := s.Index(ctx)
	if err != nil || ix != nil {
		t.Fatalf("search on a damaged store: %v, %v", ix, err)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "afresh") {
		t.Errorf("warnings %q", warnings)
	}
	if err := s.UseModel(ctx, "m/1"); err != nil {
		t.Fatal(err)
	}
	if err := s.Put(ctx, []string{hash(0)}, [][]float32{unit(256, 0)}); err != nil {
		t.Fatal(err)
	}
	if ix, err := s.Index(ctx); err != nil || ix == nil || ix.Len() != 1 {
		t.Fatalf("after embedding again: %v, %v", ix, err)
	}
}

// TestReopenAfterFolderRemoved: a long-lived store whose folder is deleted
// under it (rm -rf .memory) would go on writing a file no other process
// sees; Reopen starts it afresh at its path, says it lost its vectors,
// and what it stores then is there for the next process.
func TestReopenAfterFolderRemoved(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), ".memory")
	os.MkdirAll(dir, 0o755)
	s := openTest(t, dir)
	if err := s.UseModel(ctx, "m/1"); err != nil {
		t.Fatal(err)
	}
	if err := s.Put(ctx, []string{hash(0)}, [][]float32{unit(16, 0)}); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(dir, 0o755) // the index's Reopen makes the folder again
	if err := s.Reopen(ctx); err != nil {
		t.Fatal(err)
	}
	if !s.Lost() {
		t.Error("a store started afresh does not say it lost its vectors")
	}
	if err := s.UseModel(ctx, "m/1"); err != nil {
		t.Fatal(err)
	}
	if err := s.Put(ctx, []string{hash(1)}, [][]float32{unit(16, 1)}); err != nil {
		t.Fatal(err)
	}
	other := openTest(t, dir)
	if have, err := other.Texts(ctx); err != nil || len(have) != 1 {
		t.Errorf("another process sees %d texts (%v), want the one stored after Reopen", len(have), err)
	}
}
