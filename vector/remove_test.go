package vector

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestRemove: Remove takes a text's vector out of every batch that holds
// it (a text embedded twice is in two), deletes a batch it leaves empty,
// keeps the others' vectors, and draws a new epoch, so that another Store
// (process) with the vectors in memory loads them again at its next
// search and no longer finds the removed one; the saved graph goes, and
// no byte of the removed vector is left in the store's files.
func TestRemove(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	s, other := openTest(t, dir), openTest(t, dir)
	if err := s.UseModel(ctx, "m"); err != nil {
		t.Fatal(err)
	}
	gone := unit(64, 7)
	for _, b := range [][]int{{1, 2, 3}, {4, 7}, {7}} {
		var hs []string
		var vs [][]float32
		for _, i := range b {
			hs, vs = append(hs, hash(i)), append(vs, unit(64, i))
		}
		if err := s.Put(ctx, hs, vs); err != nil {
			t.Fatal(err)
		}
	}
	ix, err := other.Index(ctx)
	if err != nil || ix.Len() != 5 {
		t.Fatalf("before: %v, %v", ix, err)
	}
	if hits, _ := ix.Search(gone, 1); len(hits) != 1 || hits[0].ID != 1007 {
		t.Fatalf("before: the nearest of text 7's vector is %v", hits)
	}
	if err := os.WriteFile(s.GraphPath(), []byte("a saved graph"), 0o644); err != nil {
		t.Fatal(err)
	}
	n, err := s.Remove(ctx, []string{hash(7), hash(2), "not a hash"})
	if err != nil || n != 2 {
		t.Fatalf("Remove = %d, %v; want 2 texts", n, err)
	}
	if c, _ := s.Count(ctx); c != 3 {
		t.Errorf("%d texts have a vector, want 3", c)
	}
	all, err := s.All(ctx)
	if err != nil || len(all) != 3 || all[1007] != nil || all[1002] != nil || all[1001] == nil || all[1004] == nil {
		t.Errorf("left: %v, %v", len(all), err)
	}
	var batches int
	s.handle().QueryRowContext(ctx, `SELECT count(*) FROM batches`).Scan(&batches)
	if batches != 2 {
		t.Errorf("%d batches, want 2 (the one that held only text 7 goes)", batches)
	}
	ix, err = other.Index(ctx)
	if err != nil || ix.Len() != 3 {
		t.Fatalf("another process after Remove: %v, %v", ix, err)
	}
	for _, h := range mustSearch(t, ix, gone, 5) {
		if h == 1007 || h == 1002 {
			t.Errorf("another process still finds removed text %d", h)
		}
	}
	if _, err := os.Stat(s.GraphPath()); !os.IsNotExist(err) {
		t.Errorf("the saved graph is still there: %v", err)
	}
	enc := Encode(gone)[4:]
	for _, suffix := range []string{"", "-wal"} {
		b, _ := os.ReadFile(filepath.Join(dir, "index.sqlite.vectors"+suffix))
		if bytes.Contains(b, enc) {
			t.Errorf("index.sqlite.vectors%s still holds the removed vector's bytes", suffix)
		}
	}
	if n, err := s.Remove(ctx, []string{hash(7)}); err != nil || n != 0 {
		t.Errorf("removing again: %d, %v", n, err)
	}
}

func mustSearch(t *testing.T, ix *Index, q []float32, k int) []int64 {
	t.Helper()
	hits, err := ix.Search(q, k)
	if err != nil {
		t.Fatal(err)
	}
	var ids []int64
	for _, h := range hits {
		ids = append(ids, h.ID)
	}
	return ids
}
