package ann

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"memoria/ann/internal/synth"
)

func TestDot8(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for n := 0; n < 300; n++ {
		a, b := make([]float32, n), make([]int8, n)
		var want float64
		for i := range a {
			a[i], b[i] = r.Float32()-0.5, int8(r.IntN(256)-128)
			want += float64(a[i]) * float64(b[i])
		}
		if got := Dot8(a, b); math.Abs(float64(got)-want) > 1e-3 {
			t.Fatalf("n=%d: Dot8=%v want %v", n, got, want)
		}
		if got := dot8Generic(a, b); math.Abs(float64(got)-want) > 1e-3 {
			t.Fatalf("n=%d: dot8Generic=%v want %v", n, got, want)
		}
	}
}

func TestQuantize(t *testing.T) {
	v := []float32{0.5, -0.25, 0.125, 0, -0.75}
	q := make([]int8, len(v))
	s := Quantize(v, q)
	for i := range v {
		if math.Abs(float64(float32(q[i])*s-v[i])) > 0.75/127 {
			t.Errorf("component %d: %v → %v", i, v[i], float32(q[i])*s)
		}
	}
	if q[4] != -127 {
		t.Errorf("largest component %d, want -127", q[4])
	}
	if s := Quantize(make([]float32, 3), q[:3]); s != 0 || q[0] != 0 {
		t.Errorf("zero vector: scale %v", s)
	}
}

// TestFlatInt8: an int8 store ranks like the float32 one (exactly with
// Rerank 0, to the quantisation) and supports Delete, replace and Score.
func TestFlatInt8(t *testing.T) {
	const n, dim, k = 3000, 96, 25
	g := synth.New(synth.Sentence, dim, 7)
	data := g.Vectors(n, 1)
	queries := g.Vectors(40, 2)
	exact := NewFlat(dim, FlatOptions{})
	q8 := NewFlat(dim, FlatOptions{Int8: true})
	bin8 := NewFlat(dim, FlatOptions{Int8: true, Rerank: 20})
	for i := 0; i < n; i++ {
		v := data[i*dim : (i+1)*dim]
		exact.Add(int64(i), v)
		if err := q8.Add(int64(i), v); err != nil {
			t.Fatal(err)
		}
		qv := make([]int8, dim)
		if err := bin8.AddInt8(int64(i), qv, Quantize(v, qv)); err != nil {
			t.Fatal(err)
		}
	}
	var r8, rb float64
	for qi := 0; qi < 40; qi++ {
		q := queries[qi*dim : (qi+1)*dim]
		want, _ := exact.Search(q, k)
		got, _ := q8.Search(q, k)
		r8 += recallAt(got, want)
		for i := range got {
			if s, ok := q8.Score(q, got[i].ID); !ok || s != got[i].Score {
				t.Fatalf("Score(%d) = %v, %v; Search gave %v", got[i].ID, s, ok, got[i].Score)
			}
			e, _ := exact.Score(q, got[i].ID)
			if math.Abs(float64(e-got[i].Score)) > 0.02 {
				t.Fatalf("int8 score %v, float32 %v", got[i].Score, e)
			}
		}
		got, _ = bin8.Search(q, k)
		rb += recallAt(got, want)
	}
	t.Logf("int8 exact recall@%d %.3f, int8 + prefilter %.3f", k, r8/40, rb/40)
	if r8/40 < 0.97 || rb/40 < 0.95 {
		t.Errorf("int8 recall %.3f, with prefilter %.3f", r8/40, rb/40)
	}
	// Delete and replace keep the rows and codes consistent.
	v10, _ := bin8.Vector(10)
	if !bin8.Delete(10) || bin8.Delete(10) || bin8.Len() != n-1 {
		t.Fatal("delete")
	}
	if _, ok := bin8.Score(v10, 10); ok {
		t.Fatal("deleted id scored")
	}
	last := data[(n-1)*dim:]
	if hits, _ := bin8.Search(last, 1); hits[0].ID != n-1 {
		t.Fatalf("moved vector lost: %+v", hits)
	}
	bin8.Add(5, data[7*dim:8*dim])
	if hits, _ := bin8.SearchExact(data[7*dim:8*dim], 2); len(hits) != 2 || hits[0].Score != hits[1].Score {
		t.Fatalf("replace: %+v", hits)
	}
	if err := NewFlat(4, FlatOptions{}).AddInt8(1, make([]int8, 4), 1); err == nil {
		t.Fatal("AddInt8 on a float32 store accepted")
	}
	if err := bin8.AddInt8(1, make([]int8, 3), 1); err == nil {
		t.Fatal("wrong dimension accepted")
	}
	if err := bin8.AddInt8(1, make([]int8, dim), float32(math.Inf(1))); err == nil {
		t.Fatal("infinite scale accepted")
	}
	ids := bin8.IDs()
	if len(ids) != bin8.Len() {
		t.Fatalf("IDs: %d, Len %d", len(ids), bin8.Len())
	}
}

// TestFlatPersistence: both layouts round-trip with identical results,
// and the loaded store keeps accepting vectors.
func TestFlatPersistence(t *testing.T) {
	const n, dim = 2000, 40
	g := synth.New(synth.Sentence, dim, 3)
	data := g.Vectors(n, 1)
	queries := g.Vectors(20, 2)
	for _, opts := range []FlatOptions{{}, {Rerank: 4}, {Int8: true}, {Int8: true, Rerank: 5, NoCenter: true}} {
		f := NewFlat(dim, opts)
		for i := 0; i < n; i++ {
			f.Add(int64(i)*7, data[i*dim:(i+1)*dim])
		}
		f.Delete(14)
		path := filepath.Join(t.TempDir(), "f.flat")
		if err := f.Save(path); err != nil {
			t.Fatal(err)
		}
		h, err := LoadFlat(path)
		if err != nil {
			t.Fatalf("%+v: %v", opts, err)
		}
		if h.Len() != f.Len() || h.opts != f.opts {
			t.Fatalf("%+v: loaded Len %d opts %+v", opts, h.Len(), h.opts)
		}
		for qi := 0; qi < 20; qi++ {
			q := queries[qi*dim : (qi+1)*dim]
			a, _ := f.Search(q, 10)
			b, _ := h.Search(q, 10)
			if len(a) != len(b) {
				t.Fatal("different results after load")
			}
			for i := range a {
				if a[i] != b[i] {
					t.Fatalf("%+v: different results after load: %v vs %v", opts, a, b)
				}
			}
		}
		if err := h.Add(99999, queries[:dim]); err != nil {
			t.Fatal(err)
		}
		if r, _ := h.Search(queries[:dim], 1); r[0].ID != 99999 {
			t.Fatalf("insert after load: %v", r)
		}
		entries, _ := os.ReadDir(filepath.Dir(path))
		if len(entries) != 1 {
			t.Fatalf("folder holds %d files", len(entries))
		}
	}
	var buf bytes.Buffer
	if _, err := NewFlat(8, FlatOptions{Int8: true, Rerank: 20}).WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	if e, err := ReadFlat(bytes.NewReader(buf.Bytes()), int64(buf.Len())); err != nil || e.Len() != 0 {
		t.Fatalf("empty: %v", err)
	}
}

// TestFlatCorrupt: truncations and bit flips give ErrCorrupt, never a panic.
func TestFlatCorrupt(t *testing.T) {
	g := synth.New(synth.Clustered, 70, 1)
	data := g.Vectors(50, 1)
	f := NewFlat(70, FlatOptions{Int8: true, Rerank: 20})
	for i := 0; i < 50; i++ {
		f.Add(int64(i), data[i*70:(i+1)*70])
	}
	var buf bytes.Buffer
	if _, err := f.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	good := buf.Bytes()
	load := func(b []byte) error {
		_, err := ReadFlat(bytes.NewReader(b), int64(len(b)))
		return err
	}
	if err := load(good); err != nil {
		t.Fatal(err)
	}
	for _, cut := range []int{0, 3, 8, 20, flatHeaderSize, flatHeaderSize + 10, len(good) / 2, len(good) - 5, len(good) - 1} {
		if err := load(good[:cut]); !errors.Is(err, ErrCorrupt) {
			t.Fatalf("truncated to %d: %v", cut, err)
		}
	}
	if err := load(append(append([]byte(nil), good...), 0)); !errors.Is(err, ErrCorrupt) {
		t.Fatalf("trailing byte: %v", err)
	}
	bad := make([]byte, len(good))
	for i := 0; i < len(good); i += 1 + i/32 {
		for _, bit := range []byte{1, 0x80} {
			copy(bad, good)
			bad[i] ^= bit
			if err := load(bad); !errors.Is(err, ErrCorrupt) {
				t.Fatalf("flip at byte %d: %v", i, err)
			}
		}
	}
}

func TestHNSWScoreIDs(t *testing.T) {
	ds := makeDataset(t, synth.Sentence, 500, 5, 16, 5)
	h := buildHNSW(t, ds, HNSWConfig{M: 8, EfConstruction: 40}, 1)
	h.Delete(3)
	ids := h.IDs()
	if len(ids) != h.Len() {
		t.Fatalf("IDs %d, Len %d", len(ids), h.Len())
	}
	q := ds.queries[:16]
	hits, _ := h.Search(q, 3)
	for _, x := range hits {
		if s, ok := h.Score(q, x.ID); !ok || s != x.Score {
			t.Fatalf("Score(%d) = %v, %v; Search gave %v", x.ID, s, ok, x.Score)
		}
	}
	if _, ok := h.Score(q, 3); ok {
		t.Fatal("deleted id scored")
	}
	if v, ok := h.Vector(4); !ok || len(v) != 16 {
		t.Fatal("Vector")
	}
}
