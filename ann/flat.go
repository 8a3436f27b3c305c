package ann

import (
	"runtime"
	"sync"
)

// FlatOptions configure a Flat store.
type FlatOptions struct {
	// Rerank turns on the binary prefilter: a query first ranks every
	// vector by the Hamming distance of sign-bit codes (dim/8 bytes per
	// vector), then re-scores the Rerank×k nearest codes exactly in float32.
	// 0 means an exact float32 scan. 20 gave recall@25 0.98 on 100k
	// embedding-like 512-d vectors (10 gave 0.945); see docs/ann.md.
	Rerank int
	// NoCenter codes the raw signs. By default the signs are taken after
	// subtracting the mean of the stored vectors (re-estimated each time the
	// store doubles), so that a large component shared by all vectors cannot
	// fix bits to the same value for every vector. On the synthetic sets of
	// docs/ann.md it made no measurable difference.
	NoCenter bool
	// Workers splits an exact scan over this many goroutines (default 1;
	// the scan is memory-bound, so more rarely helps on a shared machine).
	Workers int
}

// Flat keeps all vectors in one contiguous []float32 and answers queries by
// scanning them. It is exact with Rerank = 0 and near-exact with the binary
// prefilter. It suits up to about 100k vectors; above that use HNSW.
type Flat struct {
	mu   sync.RWMutex
	dim  int
	opts FlatOptions
	vecs []float32
	ids  []int64
	byID map[int64]int32

	words      int       // uint64 words per code
	codes      []uint64  // len(ids)*words, when Rerank > 0
	sum        []float64 // running sum of the stored vectors
	center     []float32 // subtracted before taking signs
	centeredAt int       // Len when the codes were last re-centred

	scratch sync.Pool
}

var _ Index = (*Flat)(nil)

// NewFlat returns an empty store for vectors of dimension dim.
func NewFlat(dim int, opts FlatOptions) *Flat {
	if dim <= 0 {
		panic("ann: NewFlat with dimension <= 0")
	}
	f := &Flat{dim: dim, opts: opts, byID: make(map[int64]int32)}
	if opts.Rerank > 0 {
		f.words = (dim + 63) / 64
		f.sum = make([]float64, dim)
		f.center = make([]float32, dim)
	}
	return f
}

// Dim returns the vector dimension.
func (f *Flat) Dim() int { return f.dim }

// Len returns the number of stored vectors.
func (f *Flat) Len() int {
	f.mu.RLock()
	defer f.mu.RUnlock()
	return len(f.ids)
}

// Grow reserves room for n more vectors.
func (f *Flat) Grow(n int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.vecs = growF32(f.vecs, n*f.dim)
	f.ids = append(make([]int64, 0, len(f.ids)+n), f.ids...)
	if f.words > 0 {
		f.codes = append(make([]uint64, 0, len(f.codes)+n*f.words), f.codes...)
	}
}

func growF32(s []float32, n int) []float32 {
	if cap(s)-len(s) >= n {
		return s
	}
	return append(make([]float32, 0, len(s)+n), s...)
}

// Add stores v under id, replacing any vector stored under id. v is copied.
func (f *Flat) Add(id int64, v []float32) error {
	if err := checkVec(v, f.dim); err != nil {
		return err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if i, ok := f.byID[id]; ok {
		row := f.vecs[int(i)*f.dim : int(i+1)*f.dim]
		f.addSum(row, -1)
		copy(row, v)
		f.addSum(row, 1)
		if f.words > 0 {
			f.encode(row, f.codes[int(i)*f.words:int(i+1)*f.words])
		}
		return nil
	}
	f.byID[id] = int32(len(f.ids))
	f.ids = append(f.ids, id)
	f.vecs = append(f.vecs, v...)
	if f.words > 0 {
		f.addSum(v, 1)
		f.codes = append(f.codes, make([]uint64, f.words)...)
		n := len(f.ids)
		if !f.opts.NoCenter && n >= 2*f.centeredAt {
			f.recenter()
		} else {
			f.encode(v, f.codes[(n-1)*f.words:])
		}
	}
	return nil
}

func (f *Flat) addSum(v []float32, sign float64) {
	if f.sum == nil {
		return
	}
	for j, x := range v {
		f.sum[j] += sign * float64(x)
	}
}

// recenter sets the centre to the mean of the stored vectors and re-encodes
// every code. Called when the store has doubled since the last time, so its
// cost is amortised O(dim) per Add.
func (f *Flat) recenter() {
	n := len(f.ids)
	f.centeredAt = n
	if n == 0 {
		return
	}
	for j := range f.center {
		f.center[j] = float32(f.sum[j] / float64(n))
	}
	for i := 0; i < n; i++ {
		f.encode(f.vecs[i*f.dim:(i+1)*f.dim], f.codes[i*f.words:(i+1)*f.words])
	}
}

// encode writes the sign bits of v - center into code.
func (f *Flat) encode(v []float32, code []uint64) {
	code = code[:f.words]
	c := f.center[:len(v)]
	for w := range code {
		var word uint64
		lo := w * 64
		hi := min(lo+64, len(v))
		for j := lo; j < hi; j++ {
			if v[j] > c[j] {
				word |= 1 << uint(j-lo)
			}
		}
		code[w] = word
	}
}

// Delete removes id and reports whether it was present. The last vector
// moves into the freed slot, so the store stays contiguous.
func (f *Flat) Delete(id int64) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	i, ok := f.byID[id]
	if !ok {
		return false
	}
	delete(f.byID, id)
	last := int32(len(f.ids) - 1)
	row := f.vecs[int(i)*f.dim : int(i+1)*f.dim]
	f.addSum(row, -1)
	if i != last {
		copy(row, f.vecs[int(last)*f.dim:])
		f.ids[i] = f.ids[last]
		f.byID[f.ids[i]] = i
		if f.words > 0 {
			copy(f.codes[int(i)*f.words:int(i+1)*f.words], f.codes[int(last)*f.words:])
		}
	}
	f.ids = f.ids[:last]
	f.vecs = f.vecs[:int(last)*f.dim]
	if f.words > 0 {
		f.codes = f.codes[:int(last)*f.words]
	}
	return true
}

// Vector returns a copy of the vector stored under id.
func (f *Flat) Vector(id int64) ([]float32, bool) {
	f.mu.RLock()
	defer f.mu.RUnlock()
	i, ok := f.byID[id]
	if !ok {
		return nil, false
	}
	return append([]float32(nil), f.vecs[int(i)*f.dim:int(i+1)*f.dim]...), true
}

type flatScratch struct {
	top   topK
	dist  []uint16
	qcode []uint64
	cands []int32
	hist  []int32
}

func (f *Flat) getScratch() *flatScratch {
	if s, ok := f.scratch.Get().(*flatScratch); ok {
		return s
	}
	return &flatScratch{}
}

// Search returns the k stored vectors with the highest dot product with q,
// best first: exactly when Rerank is 0, else through the binary prefilter.
func (f *Flat) Search(q []float32, k int) ([]Hit, error) {
	if err := checkVec(q, f.dim); err != nil {
		return nil, err
	}
	if k <= 0 {
		return nil, nil
	}
	f.mu.RLock()
	defer f.mu.RUnlock()
	n := len(f.ids)
	if f.opts.Rerank <= 0 || n <= 2*f.opts.Rerank*k {
		return f.exact(q, k), nil
	}
	return f.binary(q, k, f.opts.Rerank*k), nil
}

// SearchExact scans every vector in float32 whatever the options.
func (f *Flat) SearchExact(q []float32, k int) ([]Hit, error) {
	if err := checkVec(q, f.dim); err != nil {
		return nil, err
	}
	if k <= 0 {
		return nil, nil
	}
	f.mu.RLock()
	defer f.mu.RUnlock()
	return f.exact(q, k), nil
}

func (f *Flat) exact(q []float32, k int) []Hit {
	n := len(f.ids)
	workers := max(1, min(f.opts.Workers, runtime.GOMAXPROCS(0)))
	if workers == 1 || n < 4096 {
		s := f.getScratch()
		defer f.scratch.Put(s)
		s.top.reset(k)
		f.scan(q, 0, n, &s.top)
		return f.hits(s.top.sorted())
	}
	parts := make([]topK, workers)
	var wg sync.WaitGroup
	for w := range parts {
		lo, hi := n*w/workers, n*(w+1)/workers
		parts[w].reset(k)
		wg.Add(1)
		go func() {
			defer wg.Done()
			f.scan(q, lo, hi, &parts[w])
		}()
	}
	wg.Wait()
	all := newTopK(k)
	for w := range parts {
		for _, s := range parts[w].h {
			all.push(s.score, s.idx)
		}
	}
	return f.hits(all.sorted())
}

func (f *Flat) scan(q []float32, lo, hi int, top *topK) {
	d := f.dim
	vecs := f.vecs
	thr := top.threshold()
	for i := lo; i < hi; i++ {
		s := Dot(q, vecs[i*d:(i+1)*d])
		if s > thr {
			top.push(s, int32(i))
			thr = top.threshold()
		}
	}
}

func (f *Flat) hits(s []scored) []Hit {
	out := make([]Hit, len(s))
	for i, x := range s {
		out[i] = Hit{ID: f.ids[x.idx], Score: x.score}
	}
	return out
}

// binary ranks all codes by Hamming distance to the query's code, keeps the
// c nearest and re-scores them in float32.
func (f *Flat) binary(q []float32, k, c int) []Hit {
	s := f.getScratch()
	defer f.scratch.Put(s)
	n, words := len(f.ids), f.words
	if cap(s.qcode) < words {
		s.qcode = make([]uint64, words)
	}
	qc := s.qcode[:words]
	f.encode(q, qc)
	if cap(s.dist) < n {
		s.dist = make([]uint16, n, n+n/4)
	}
	dist := s.dist[:n]
	nb := words*64 + 1
	if cap(s.hist) < nb {
		s.hist = make([]int32, nb)
	}
	hist := s.hist[:nb]
	clear(hist)
	codes := f.codes
	switch words {
	case 8: // 512-d, unrolled
		q0, q1, q2, q3, q4, q5, q6, q7 := qc[0], qc[1], qc[2], qc[3], qc[4], qc[5], qc[6], qc[7]
		for i := 0; i < n; i++ {
			cd := codes[i*8 : i*8+8 : i*8+8]
			h := popc(cd[0]^q0) + popc(cd[1]^q1) + popc(cd[2]^q2) + popc(cd[3]^q3) +
				popc(cd[4]^q4) + popc(cd[5]^q5) + popc(cd[6]^q6) + popc(cd[7]^q7)
			dist[i] = uint16(h)
			hist[h]++
		}
	default:
		for i := 0; i < n; i++ {
			h := hamming(qc, codes[i*words:(i+1)*words])
			dist[i] = uint16(h)
			hist[h]++
		}
	}
	// Threshold t: every code at distance < t is taken, then codes at
	// distance t until c are taken.
	t, below := 0, 0
	for ; t < nb && below+int(hist[t]) < c; t++ {
		below += int(hist[t])
	}
	atT := c - below
	cands := s.cands[:0]
	for i, h := range dist {
		if int(h) < t {
			cands = append(cands, int32(i))
		} else if int(h) == t && atT > 0 {
			cands = append(cands, int32(i))
			atT--
		}
	}
	s.cands = cands
	s.top.reset(k)
	d := f.dim
	for _, i := range cands {
		s.top.push(Dot(q, f.vecs[int(i)*d:int(i+1)*d]), i)
	}
	return f.hits(s.top.sorted())
}
