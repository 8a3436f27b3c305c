package ann

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"memoria/ann/internal/synth"
)

type dataset struct {
	dim     int
	data    []float32
	queries []float32
	truth   [][]Hit
}

func makeDataset(t testing.TB, kind synth.Kind, n, nq, dim, k int) *dataset {
	g := synth.New(kind, dim, 5)
	ds := &dataset{dim: dim, data: g.Vectors(n, 1), queries: g.Vectors(nq, 2)}
	f := NewFlat(dim, FlatOptions{})
	f.Grow(n)
	for i := 0; i < n; i++ {
		f.Add(int64(i), ds.data[i*dim:(i+1)*dim])
	}
	for qi := 0; qi < nq; qi++ {
		h, _ := f.Search(ds.queries[qi*dim:(qi+1)*dim], k)
		ds.truth = append(ds.truth, h)
	}
	return ds
}

func (ds *dataset) recall(t testing.TB, idx interface {
	SearchEf([]float32, int, int) ([]Hit, error)
}, k, ef int) float64 {
	var sum float64
	for qi, want := range ds.truth {
		got, err := idx.SearchEf(ds.queries[qi*ds.dim:(qi+1)*ds.dim], k, ef)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != k {
			t.Fatalf("got %d hits, want %d", len(got), k)
		}
		for i := 1; i < len(got); i++ {
			if got[i].Score > got[i-1].Score {
				t.Fatalf("hits not sorted: %v", got)
			}
		}
		sum += recallAt(got, want[:k])
	}
	return sum / float64(len(ds.truth))
}

func buildHNSW(t testing.TB, ds *dataset, cfg HNSWConfig, workers int) *HNSW {
	h := NewHNSW(ds.dim, cfg)
	n := len(ds.data) / ds.dim
	ids := make([]int64, n)
	for i := range ids {
		ids[i] = int64(i)
	}
	if err := h.AddBatch(ids, ds.data, workers); err != nil {
		t.Fatal(err)
	}
	return h
}

// TestHNSWRecall: recall@10 ≥ 0.95 on 20k vectors, and recall grows with ef
// (the coder/hnsw bug made it flat).
func TestHNSWRecall(t *testing.T) {
	n := 20000
	if testing.Short() {
		n = 5000
	}
	for _, kind := range []synth.Kind{synth.Clustered, synth.Sentence} {
		ds := makeDataset(t, kind, n, 100, 64, 10)
		h := buildHNSW(t, ds, HNSWConfig{M: 16, EfConstruction: 100}, 0)
		r10 := ds.recall(t, h, 10, 10)
		r100 := ds.recall(t, h, 10, 100)
		t.Logf("%v n=%d: recall@10 ef=10 %.3f, ef=100 %.3f", kind, n, r10, r100)
		if r100 < 0.95 {
			t.Errorf("%v: recall@10 at ef=100 is %.3f < 0.95", kind, r100)
		}
		if r100 <= r10 && r10 < 0.999 {
			t.Errorf("%v: recall does not grow with ef (%.3f → %.3f)", kind, r10, r100)
		}
	}
}

// TestHNSWIncremental: one-by-one Add (no batch) gives a good graph too.
func TestHNSWIncremental(t *testing.T) {
	ds := makeDataset(t, synth.Sentence, 3000, 50, 32, 10)
	h := NewHNSW(ds.dim, HNSWConfig{M: 12, EfConstruction: 80, EfUpper: 1}) // greedy descent, as in the paper
	for i := 0; i < 3000; i++ {
		if err := h.Add(int64(i), ds.data[i*32:(i+1)*32]); err != nil {
			t.Fatal(err)
		}
	}
	if h.Len() != 3000 {
		t.Fatalf("Len %d", h.Len())
	}
	if r := ds.recall(t, h, 10, 64); r < 0.95 {
		t.Fatalf("recall %.3f", r)
	}
}

func TestHNSWDeleteCompact(t *testing.T) {
	n := 4000
	if testing.Short() {
		n = 1500
	}
	ds := makeDataset(t, synth.Clustered, n, 50, 32, 10)
	h := buildHNSW(t, ds, HNSWConfig{M: 12, EfConstruction: 80}, 2)
	// Delete the true top hit of every query: it must not come back.
	deleted := map[int64]bool{}
	for _, tr := range ds.truth {
		if !deleted[tr[0].ID] {
			deleted[tr[0].ID] = true
			if !h.Delete(tr[0].ID) {
				t.Fatal("Delete returned false")
			}
		}
	}
	if h.Delete(deleted0(deleted)) {
		t.Fatal("second Delete returned true")
	}
	if h.Len() != n-len(deleted) || h.Deleted() != len(deleted) {
		t.Fatalf("Len %d Deleted %d", h.Len(), h.Deleted())
	}
	check := func() {
		for qi := range ds.truth {
			got, _ := h.SearchEf(ds.queries[qi*32:(qi+1)*32], 10, 100)
			if len(got) != 10 {
				t.Fatalf("got %d hits", len(got))
			}
			for _, g := range got {
				if deleted[g.ID] {
					t.Fatalf("deleted id %d returned", g.ID)
				}
			}
		}
	}
	check()
	if err := h.Compact(2); err != nil {
		t.Fatal(err)
	}
	if h.Deleted() != 0 || h.Len() != n-len(deleted) {
		t.Fatalf("after Compact: Len %d Deleted %d", h.Len(), h.Deleted())
	}
	check()
	// Re-adding an id replaces its vector.
	v := ds.data[:32]
	h.Add(999, v)
	got, _ := h.SearchEf(v, 2, 50)
	if got[0].ID != 0 && got[0].ID != 999 || got[0].Score < 0.999 {
		t.Fatalf("replace: %+v", got)
	}
	if h.Deleted() != 1 {
		t.Fatalf("replace left %d tombstones, want 1", h.Deleted())
	}
	// Delete everything: searches return nothing.
	for i := 0; i < n; i++ {
		h.Delete(int64(i))
	}
	h.Delete(999)
	if got, _ := h.Search(v, 5); len(got) != 0 || h.Len() != 0 {
		t.Fatalf("all deleted: %v, Len %d", got, h.Len())
	}
}

func deleted0(m map[int64]bool) int64 {
	for k := range m {
		return k
	}
	return -1
}

func TestHNSWPersistence(t *testing.T) {
	ds := makeDataset(t, synth.Sentence, 3000, 30, 24, 10)
	h := buildHNSW(t, ds, HNSWConfig{M: 8, EfConstruction: 60, EfSearch: 40, Seed: 9, EfUpper: 4, KeepPruned: true}, 2)
	h.Delete(17)
	path := filepath.Join(t.TempDir(), "g.hnsw")
	if err := h.Save(path); err != nil {
		t.Fatal(err)
	}
	g, err := LoadHNSW(path)
	if err != nil {
		t.Fatal(err)
	}
	if g.Len() != h.Len() || g.Deleted() != 1 || g.Config() != h.Config() {
		t.Fatalf("loaded Len %d Deleted %d cfg %+v", g.Len(), g.Deleted(), g.Config())
	}
	for qi := range ds.truth {
		q := ds.queries[qi*24 : (qi+1)*24]
		a, _ := h.Search(q, 10)
		b, _ := g.Search(q, 10)
		if len(a) != len(b) {
			t.Fatal("different results after load")
		}
		for i := range a {
			if a[i] != b[i] {
				t.Fatalf("different results after load: %v vs %v", a, b)
			}
		}
	}
	// The loaded graph accepts inserts.
	if err := g.Add(5000, ds.queries[:24]); err != nil {
		t.Fatal(err)
	}
	if r, _ := g.Search(ds.queries[:24], 1); r[0].ID != 5000 {
		t.Fatalf("insert after load: %v", r)
	}
	// An empty graph round-trips.
	e := NewHNSW(8, HNSWConfig{})
	var buf bytes.Buffer
	if _, err := e.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	if e2, err := ReadHNSW(bytes.NewReader(buf.Bytes()), int64(buf.Len())); err != nil || e2.Len() != 0 {
		t.Fatalf("empty: %v", err)
	}
	// No temporary files are left behind.
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Fatalf("folder holds %d files", len(entries))
	}
}

// TestHNSWCorrupt: truncations and bit flips anywhere give ErrCorrupt,
// never a panic.
func TestHNSWCorrupt(t *testing.T) {
	ds := makeDataset(t, synth.Clustered, 300, 1, 8, 1)
	h := buildHNSW(t, ds, HNSWConfig{M: 4, EfConstruction: 20}, 1)
	var buf bytes.Buffer
	if _, err := h.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	good := buf.Bytes()
	load := func(b []byte) error {
		_, err := ReadHNSW(bytes.NewReader(b), int64(len(b)))
		return err
	}
	if err := load(good); err != nil {
		t.Fatal(err)
	}
	for _, cut := range []int{0, 3, 8, 20, headerSize, headerSize + 10, len(good) / 2, len(good) - 5, len(good) - 1} {
		if err := load(good[:cut]); !errors.Is(err, ErrCorrupt) {
			t.Fatalf("truncated to %d: %v", cut, err)
		}
	}
	if err := load(append(append([]byte(nil), good...), 0)); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("trailing byte: %v", err)
	}
	bad := make([]byte, len(good))
	for i := 0; i < len(good); i += 1 + i/64 {
		for _, bit := range []byte{1, 0x80} {
			copy(bad, good)
			bad[i] ^= bit
			if err := load(bad); !errors.Is(err, ErrCorrupt) {
				t.Fatalf("flip at byte %d: %v", i, err)
			}
		}
	}
	path := filepath.Join(t.TempDir(), "x")
	os.WriteFile(path, []byte("not an index"), 0o644)
	if _, err := LoadHNSW(path); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("garbage file: %v", err)
	}
}

// TestConcurrentSearch runs searches from several goroutines while another
// adds and deletes (run with -race).
func TestConcurrentSearch(t *testing.T) {
	ds := makeDataset(t, synth.Sentence, 2000, 20, 16, 5)
	h := buildHNSW(t, ds, HNSWConfig{M: 8, EfConstruction: 40}, 2)
	f := NewFlat(16, FlatOptions{Rerank: 4})
	for i := 0; i < 2000; i++ {
		f.Add(int64(i), ds.data[i*16:(i+1)*16])
	}
	var wg sync.WaitGroup
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for it := 0; it < 200; it++ {
				q := ds.queries[(it%20)*16 : (it%20+1)*16]
				for _, idx := range []Index{h, f} {
					if r, err := idx.Search(q, 5); err != nil || len(r) == 0 {
						t.Errorf("search: %v %v", r, err)
						return
					}
				}
			}
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; i < 200; i++ {
			v := ds.queries[(i%20)*16 : (i%20+1)*16]
			for _, idx := range []Index{h, f} {
				idx.Add(int64(10000+i), v)
				idx.Delete(int64(i))
			}
		}
	}()
	wg.Wait()
	if h.Len() != 2000 || f.Len() != 2000 {
		t.Fatalf("Len %d %d", h.Len(), f.Len())
	}
}
