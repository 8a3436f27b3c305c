package ann

import (
	"math"
	"math/rand/v2"
	"sort"
	"testing"

	"memoria/ann/internal/synth"
)

// naiveTopK is the reference: score everything in float64, sort.
func naiveTopK(data []float32, dim int, q []float32, k int) []Hit {
	n := len(data) / dim
	hits := make([]Hit, n)
	for i := 0; i < n; i++ {
		var s float64
		for j := 0; j < dim; j++ {
			s += float64(q[j]) * float64(data[i*dim+j])
		}
		hits[i] = Hit{ID: int64(i), Score: float32(s)}
	}
	sort.Slice(hits, func(a, b int) bool {
		if hits[a].Score != hits[b].Score {
			return hits[a].Score > hits[b].Score
		}
		return hits[a].ID < hits[b].ID
	})
	return hits[:min(k, n)]
}

func recallAt(got []Hit, want []Hit) float64 {
	set := make(map[int64]bool, len(want))
	for _, w := range want {
		set[w.ID] = true
	}
	n := 0
	for _, g := range got {
		if set[g.ID] {
			n++
		}
	}
	return float64(n) / float64(len(want))
}

func TestDot(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for n := 0; n < 300; n++ {
		a, b := make([]float32, n), make([]float32, n)
		var want float64
		for i := range a {
			a[i], b[i] = r.Float32()-0.5, r.Float32()-0.5
			want += float64(a[i]) * float64(b[i])
		}
		if got := Dot(a, b); math.Abs(float64(got)-want) > 1e-4 {
			t.Fatalf("n=%d: Dot=%v want %v", n, got, want)
		}
		if got := dotGeneric(a, b); math.Abs(float64(got)-want) > 1e-4 {
			t.Fatalf("n=%d: dotGeneric=%v want %v", n, got, want)
		}
	}
}

func TestFlatExact(t *testing.T) {
	const n, dim, k = 3000, 96, 25
	g := synth.New(synth.Sentence, dim, 7)
	data := g.Vectors(n, 1)
	queries := g.Vectors(50, 2)
	f := NewFlat(dim, FlatOptions{})
	for i := 0; i < n; i++ {
		if err := f.Add(int64(i), data[i*dim:(i+1)*dim]); err != nil {
			t.Fatal(err)
		}
	}
	for qi := 0; qi < 50; qi++ {
		q := queries[qi*dim : (qi+1)*dim]
		got, err := f.Search(q, k)
		if err != nil {
			t.Fatal(err)
		}
		want := naiveTopK(data, dim, q, k)
		if len(got) != k {
			t.Fatalf("got %d hits", len(got))
		}
		for i := range got {
			// Ties in float32 may swap order; compare scores, then the set.
			if math.Abs(float64(got[i].Score-want[i].Score)) > 1e-5 {
				t.Fatalf("query %d rank %d: score %v want %v", qi, i, got[i].Score, want[i].Score)
			}
		}
		if r := recallAt(got, want); r != 1 {
			t.Fatalf("query %d: recall %v", qi, r)
		}
	}
	// Workers > 1 gives the same answer.
	f.opts.Workers = 2
	q := queries[:dim]
	got, _ := f.Search(q, k)
	if r := recallAt(got, naiveTopK(data, dim, q, k)); r != 1 {
		t.Fatalf("2 workers: recall %v", r)
	}
}

func TestFlatDeleteReplace(t *testing.T) {
	const dim = 16
	f := NewFlat(dim, FlatOptions{Rerank: 4})
	r := rand.New(rand.NewPCG(3, 4))
	vec := func() []float32 {
		v := make([]float32, dim)
		for i := range v {
			v[i] = float32(r.NormFloat64())
		}
		return v
	}
	var vs [][]float32
	for i := 0; i < 500; i++ {
		v := vec()
		vs = append(vs, v)
		f.Add(int64(i), v)
	}
	if !f.Delete(10) || f.Delete(10) || f.Len() != 499 {
		t.Fatal("delete")
	}
	// The vector of 10 must no longer be found; 499 moved into its slot.
	hits, _ := f.SearchExact(vs[10], 1)
	if hits[0].ID == 10 {
		t.Fatal("deleted id returned")
	}
	hits, _ = f.Search(vs[499], 1)
	if hits[0].ID != 499 {
		t.Fatalf("moved vector lost: %+v", hits)
	}
	// Replace 5 with 7's vector: both now score equally on it.
	f.Add(5, vs[7])
	hits, _ = f.SearchExact(vs[7], 2)
	if len(hits) != 2 || hits[0].Score != hits[1].Score {
		t.Fatalf("replace: %+v", hits)
	}
	if err := f.Add(1, vec()[:3]); err == nil {
		t.Fatal("wrong dimension accepted")
	}
	if err := f.Add(1, make([]float32, dim)); err != nil {
		t.Fatal(err)
	}
	bad := make([]float32, dim)
	bad[0] = float32(math.NaN())
	if err := f.Add(2, bad); err == nil {
		t.Fatal("NaN accepted")
	}
}

// TestFlatBinaryRecall: the sign-bit prefilter with rerank 10×k finds
// nearly all of the exact top 25.
func TestFlatBinaryRecall(t *testing.T) {
	const dim, k = 256, 25
	n := 20000
	if testing.Short() {
		n = 5000
	}
	for _, kind := range []synth.Kind{synth.Clustered, synth.Sentence} {
		g := synth.New(kind, dim, 11)
		data := g.Vectors(n, 1)
		queries := g.Vectors(40, 2)
		exact := NewFlat(dim, FlatOptions{})
		bin := NewFlat(dim, FlatOptions{Rerank: 10})
		for i := 0; i < n; i++ {
			exact.Add(int64(i), data[i*dim:(i+1)*dim])
			bin.Add(int64(i), data[i*dim:(i+1)*dim])
		}
		var sum float64
		for qi := 0; qi < 40; qi++ {
			q := queries[qi*dim : (qi+1)*dim]
			want, _ := exact.Search(q, k)
			got, _ := bin.Search(q, k)
			sum += recallAt(got, want)
		}
		rec := sum / 40
		t.Logf("%v: binary rerank 10×k recall@%d = %.3f", kind, k, rec)
		if rec < 0.95 {
			t.Errorf("%v: recall %.3f < 0.95", kind, rec)
		}
	}
}
