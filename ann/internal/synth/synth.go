// Package synth generates deterministic synthetic unit vectors for testing
// and benchmarking vector search.
package synth

import (
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
)

// Kind selects the shape of the data.
type Kind int

const (
	// Clustered follows research/deps.md: 200 topics × 10 subtopics with
	// unit-norm centres; a point is a subtopic centre plus isotropic Gaussian
	// noise of norm ≈ 0.6, normalised. Isotropic noise makes it hard for
	// graphs (high intrinsic dimension) and easy for sign bits.
	Clustered Kind = iota
	// Sentence imitates sentence embeddings: a shared mean direction (random
	// pairs have cosine ≈ 0.3), a power-law variance spectrum (a few
	// directions carry most of the variance), Zipf-sized topics and
	// subtopics, all mixed by a random rotation so that no axis is special.
	// Sign-bit codes lose more here, as they do on real embeddings.
	Sentence
)

func (k Kind) String() string {
	if k == Sentence {
		return "sentence"
	}
	return "clustered"
}

// Gen holds the fixed structure (centres, spectrum, rotation) of a data set.
type Gen struct {
	kind   Kind
	dim    int
	pdim   int // dim rounded up to a power of two, for the rotation
	topics [][]float32
	subs   [][]float32 // subtopic centres, 10 per topic
	zipf   []float64   // cumulative topic weights (Sentence)
	mean   []float32
	spec   []float32
	signs1 []float32
	signs2 []float32
	signs3 []float32
	perm   []int32
	nSub   int
	noise  float64
}

// New builds the structure of a data set from seed, with 200 topics.
func New(kind Kind, dim int, seed uint64) *Gen { return NewTopics(kind, dim, 200, seed) }

// NewTopics is New with nTopics topics (of 10 subtopics each): fewer topics
// put more points in each cluster, which is what makes search hard, so a
// small set with few topics imitates a large set with many.
func NewTopics(kind Kind, dim, nTopics int, seed uint64) *Gen {
	r := rand.New(rand.NewPCG(seed, 0x6d656d6f726961))
	g := &Gen{kind: kind, dim: dim, nSub: 10}
	g.pdim = 1
	for g.pdim < dim {
		g.pdim *= 2
	}
	switch kind {
	case Clustered:
		g.noise = 0.6
		for t := 0; t < nTopics; t++ {
			c := unit(r, dim)
			g.topics = append(g.topics, c)
			for s := 0; s < g.nSub; s++ {
				sc := make([]float32, dim)
				e := unit(r, dim)
				for j := range sc {
					sc[j] = c[j] + 0.5*e[j]
				}
				normalize(sc)
				g.subs = append(g.subs, sc)
			}
		}
	case Sentence:
		g.spec = make([]float32, g.pdim)
		var ss float64
		for j := range g.spec {
			g.spec[j] = float32(math.Pow(float64(j+1), -0.7))
			ss += float64(g.spec[j]) * float64(g.spec[j])
		}
		for j := range g.spec { // unit expected norm
			g.spec[j] /= float32(math.Sqrt(ss))
		}
		g.mean = g.shaped(r)
		// Topic and subtopic offsets live in the same anisotropic space.
		var cum float64
		for t := 0; t < nTopics; t++ {
			g.topics = append(g.topics, g.shaped(r))
			cum += 1 / math.Pow(float64(t+1), 0.8)
			g.zipf = append(g.zipf, cum)
			for s := 0; s < g.nSub; s++ {
				g.subs = append(g.subs, g.shaped(r))
			}
		}
		for i := range g.zipf {
			g.zipf[i] /= cum
		}
		g.signs1 = signs(r, g.pdim)
		g.signs2 = signs(r, g.pdim)
		g.signs3 = signs(r, g.pdim)
		g.perm = make([]int32, g.pdim)
		for i, p := range r.Perm(g.pdim) {
			g.perm[i] = int32(p)
		}
	}
	return g
}

func signs(r *rand.Rand, n int) []float32 {
	s := make([]float32, n)
	for i := range s {
		s[i] = 1
		if r.IntN(2) == 0 {
			s[i] = -1
		}
	}
	return s
}

// shaped draws a Gaussian vector with the power-law spectrum, norm ≈ 1,
// in the latent (unrotated) space of pdim coordinates.
func (g *Gen) shaped(r *rand.Rand) []float32 {
	v := make([]float32, g.pdim)
	for j := range v {
		v[j] = float32(r.NormFloat64()) * g.spec[j]
	}
	return v
}

func unit(r *rand.Rand, dim int) []float32 {
	v := make([]float32, dim)
	for j := range v {
		v[j] = float32(r.NormFloat64())
	}
	normalize(v)
	return v
}

func normalize(v []float32) {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	if s == 0 {
		return
	}
	inv := float32(1 / math.Sqrt(s))
	for j := range v {
		v[j] *= inv
	}
}

// Fill writes n vectors (n*dim floats) into dst, derived from seed; stream
// lets queries (another stream) come from the same distribution as the data.
// Work is split over GOMAXPROCS goroutines in fixed chunks, so the output
// depends only on (Gen, seed, n).
func (g *Gen) Fill(dst []float32, n int, seed uint64) {
	const chunk = 4096
	nChunks := (n + chunk - 1) / chunk
	var next int64
	var mu sync.Mutex
	var wg sync.WaitGroup
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			buf := make([]float32, 2*g.pdim)
			for {
				mu.Lock()
				c := next
				next++
				mu.Unlock()
				if int(c) >= nChunks {
					return
				}
				r := rand.New(rand.NewPCG(seed, uint64(c)+1))
				lo, hi := int(c)*chunk, min(n, int(c+1)*chunk)
				for i := lo; i < hi; i++ {
					g.one(r, dst[i*g.dim:(i+1)*g.dim], buf)
				}
			}
		}()
	}
	wg.Wait()
}

// Vectors returns n vectors from seed as one flat slice.
func (g *Gen) Vectors(n int, seed uint64) []float32 {
	v := make([]float32, n*g.dim)
	g.Fill(v, n, seed)
	return v
}

func (g *Gen) one(r *rand.Rand, out, buf []float32) {
	switch g.kind {
	case Clustered:
		c := g.subs[r.IntN(len(g.subs))]
		// noise of norm ≈ 0.6: per-coordinate sd 0.6/sqrt(dim)
		sd := g.noise / math.Sqrt(float64(g.dim))
		for j := range out {
			out[j] = c[j] + float32(r.NormFloat64()*sd)
		}
		normalize(out)
	case Sentence:
		u := r.Float64()
		t := 0
		for t < len(g.zipf)-1 && g.zipf[t] < u {
			t++
		}
		// Zipf-ish subtopic too: the first subtopics are more common.
		s := int(float64(g.nSub) * math.Pow(r.Float64(), 1.5))
		topic, sub := g.topics[t], g.subs[t*g.nSub+s]
		lat := buf[:g.pdim]
		for j := range lat {
			lat[j] = 0.9*g.mean[j] + 0.8*topic[j] + 0.6*sub[j] +
				0.55*float32(r.NormFloat64())*g.spec[j] +
				0.02*float32(r.NormFloat64()) // a small isotropic floor
		}
		g.rotate(lat, buf[g.pdim:])
		copy(out, lat[:g.dim])
		normalize(out)
	}
}

// rotate applies a pseudo-random orthogonal transform: three rounds of
// random signs and a fast Walsh–Hadamard transform, then a permutation.
func (g *Gen) rotate(v, tmp []float32) {
	for _, s := range [][]float32{g.signs1, g.signs2, g.signs3} {
		for j := range v {
			v[j] *= s[j]
		}
		fwht(v)
	}
	for j, p := range g.perm {
		tmp[j] = v[p]
	}
	copy(v, tmp)
}

func fwht(v []float32) {
	n := len(v)
	for h := 1; h < n; h *= 2 {
		for i := 0; i < n; i += 2 * h {
			for j := i; j < i+h; j++ {
				a, b := v[j], v[j+h]
				v[j], v[j+h] = a+b, a-b
			}
		}
	}
	s := float32(1 / math.Sqrt(float64(n)))
	for j := range v {
		v[j] *= s
	}
}
