package ann

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
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
	// Int8 stores each vector as int8 components with one float32 scale
	// (max |x| / 127): dim+4 bytes per vector instead of 4·dim, a quarter
	// of the memory. Scores are then dot products with the quantised
	// vectors (for unit vectors within about 0.01 of the float32 ones).
	// AddInt8 adds an already quantised vector without a second rounding.
	Int8 bool
}

// Flat keeps all vectors in one contiguous []float32 and answers queries by
// scanning them. It is exact with Rerank = 0 and near-exact with the binary
// prefilter. It suits up to about 100k vectors; above that use HNSW.
type Flat struct {
	mu   sync.RWMutex
	dim  int
	opts FlatOptions
	vecs []float32 // len(ids)*dim, unless Int8
	ids  []int64
	byID map[int64]int32

	q8     []int8    // len(ids)*dim, when Int8
	scales []float32 // len(ids), when Int8

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
	if f.opts.Int8 {
		f.q8 = slices.Grow(f.q8, n*f.dim)
		f.scales = slices.Grow(f.scales, n)
	} else {
		f.vecs = growF32(f.vecs, n*f.dim)
	}
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

// Add stores v under id, replacing any vector stored under id. v is copied
// (quantised to int8 with FlatOptions.Int8).
func (f *Flat) Add(id int64, v []float32) error {
	if err := checkVec(v, f.dim); err != nil {
		return err
	}
	if f.opts.Int8 {
		q := make([]int8, f.dim)
		return f.AddInt8(id, q, Quantize(v, q))
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
	f.added(v)
	return nil
}

// added updates the codes for the vector just appended (v, as float32).
func (f *Flat) added(v []float32) {
	if f.words == 0 {
		return
	}
	f.addSum(v, 1)
	f.codes = append(f.codes, make([]uint64, f.words)...)
	n := len(f.ids)
	if !f.opts.NoCenter && n >= 2*f.centeredAt {
		f.recenter()
	} else {
		f.encode(v, f.codes[(n-1)*f.words:])
	}
}

// Quantize writes v as int8 components into q (len(v) long) and returns
// the scale: v[i] ≈ q[i]·scale, scale = max |v[i]| / 127.
func Quantize(v []float32, q []int8) float32 {
	var m float32
	for _, x := range v {
		m = max(m, float32(math.Abs(float64(x))))
	}
	scale := m / 127
	q = q[:len(v)]
	if scale == 0 {
		clear(q)
		return 0
	}
	for i, x := range v {
		q[i] = int8(math.Round(float64(x / scale)))
	}
	return scale
}

// AddInt8 stores the vector q·scale under id, replacing any vector stored
// under id. It needs FlatOptions.Int8; q is copied.
func (f *Flat) AddInt8(id int64, q []int8, scale float32) error {
	if !f.opts.Int8 {
		return errors.New("ann: AddInt8 on a float32 Flat")
	}
	if len(q) != f.dim {
		return fmt.Errorf("%w: got %d, want %d", ErrDim, len(q), f.dim)
	}
	if math.IsNaN(float64(scale)) || math.IsInf(float64(scale), 0) {
		return ErrBadVector
	}
	var v []float32
	if f.words > 0 {
		v = make([]float32, f.dim)
		decode8(q, scale, v)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if i, ok := f.byID[id]; ok {
		if f.words > 0 {
			old := make([]float32, f.dim)
			f.addSum(f.row(int(i), old), -1)
			f.addSum(v, 1)
		}
		copy(f.q8[int(i)*f.dim:int(i+1)*f.dim], q)
		f.scales[i] = scale
		if f.words > 0 {
			f.encode(v, f.codes[int(i)*f.words:int(i+1)*f.words])
		}
		return nil
	}
	f.byID[id] = int32(len(f.ids))
	f.ids = append(f.ids, id)
	f.q8 = append(f.q8, q...)
	f.scales = append(f.scales, scale)
	f.added(v)
	return nil
}

// AddInt8Batch stores many quantised vectors at once: ids[i] gets
// q[i·dim:(i+1)·dim]·scales[i]. It is AddInt8 in a loop, but re-encodes
// the sign codes at most once, which makes loading a large store several
// times faster.
func (f *Flat) AddInt8Batch(ids []int64, q []int8, scales []float32) error {
	if !f.opts.Int8 {
		return errors.New("ann: AddInt8Batch on a float32 Flat")
	}
	d := f.dim
	if len(q) != len(ids)*d || len(scales) != len(ids) {
		return ErrDim
	}
	for _, s := range scales {
		if math.IsNaN(float64(s)) || math.IsInf(float64(s), 0) {
			return ErrBadVector
		}
	}
	f.mu.Lock()
	if f.words == 0 || f.opts.NoCenter || len(f.ids)+len(ids) < 2*f.centeredAt {
		f.mu.Unlock()
		for i, id := range ids {
			if err := f.AddInt8(id, q[i*d:(i+1)*d], scales[i]); err != nil {
				return err
			}
		}
		return nil
	}
	defer f.mu.Unlock()
	// The store will at least double: append everything, then re-centre
	// (which encodes every code) once.
	buf := make([]float32, d)
	for i, id := range ids {
		row := q[i*d : (i+1)*d]
		if j, ok := f.byID[id]; ok {
			f.addSum(f.row(int(j), buf), -1)
			copy(f.q8[int(j)*d:int(j+1)*d], row)
			f.scales[j] = scales[i]
		} else {
			f.byID[id] = int32(len(f.ids))
			f.ids = append(f.ids, id)
			f.q8 = append(f.q8, row...)
			f.scales = append(f.scales, scales[i])
		}
		decode8(row, scales[i], buf)
		f.addSum(buf, 1)
	}
	f.codes = slices.Grow(f.codes[:0], len(f.ids)*f.words)[:len(f.ids)*f.words]
	f.recenter()
	return nil
}

func decode8(q []int8, scale float32, dst []float32) {
	dst = dst[:len(q)]
	for i, x := range q {
		dst[i] = float32(x) * scale
	}
}

// row returns vector i as float32: the stored row itself, or (Int8) its
// decoding into buf.
func (f *Flat) row(i int, buf []float32) []float32 {
	if !f.opts.Int8 {
		return f.vecs[i*f.dim : (i+1)*f.dim]
	}
	decode8(f.q8[i*f.dim:(i+1)*f.dim], f.scales[i], buf)
	return buf[:f.dim]
}

// dotRow is the dot product of q with vector i.
func (f *Flat) dotRow(q []float32, i int) float32 {
	d := f.dim
	if f.opts.Int8 {
		return Dot8(q, f.q8[i*d:(i+1)*d]) * f.scales[i]
	}
	return Dot(q, f.vecs[i*d:(i+1)*d])
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
	var buf []float32
	if f.opts.Int8 {
		buf = make([]float32, f.dim)
	}
	for i := 0; i < n; i++ {
		f.encode(f.row(i, buf), f.codes[i*f.words:(i+1)*f.words])
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
		vs, cs := v[lo:hi], c[lo:hi]
		for j := range vs {
			// Written so that the compiler emits a conditional move: the
			// signs are random, and a branch would mispredict half the time.
			var bit uint64
			if vs[j] > cs[j] {
				bit = 1
			}
			word |= bit << uint(j)
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
	d := f.dim
	if f.sum != nil {
		var buf []float32
		if f.opts.Int8 {
			buf = make([]float32, d)
		}
		f.addSum(f.row(int(i), buf), -1)
	}
	if i != last {
		if f.opts.Int8 {
			copy(f.q8[int(i)*d:int(i+1)*d], f.q8[int(last)*d:])
			f.scales[i] = f.scales[last]
		} else {
			copy(f.vecs[int(i)*d:int(i+1)*d], f.vecs[int(last)*d:])
		}
		f.ids[i] = f.ids[last]
		f.byID[f.ids[i]] = i
		if f.words > 0 {
			copy(f.codes[int(i)*f.words:int(i+1)*f.words], f.codes[int(last)*f.words:])
		}
	}
	f.ids = f.ids[:last]
	if f.opts.Int8 {
		f.q8 = f.q8[:int(last)*d]
		f.scales = f.scales[:last]
	} else {
		f.vecs = f.vecs[:int(last)*d]
	}
	if f.words > 0 {
		f.codes = f.codes[:int(last)*f.words]
	}
	return true
}

// Vector returns a copy of the vector stored under id (decoded from int8
// with FlatOptions.Int8).
func (f *Flat) Vector(id int64) ([]float32, bool) {
	f.mu.RLock()
	defer f.mu.RUnlock()
	i, ok := f.byID[id]
	if !ok {
		return nil, false
	}
	out := make([]float32, f.dim)
	copy(out, f.row(int(i), out))
	return out, true
}

// Score returns the dot product of q with the vector stored under id, as
// Search would score it, and whether id is stored.
func (f *Flat) Score(q []float32, id int64) (float32, bool) {
	if len(q) != f.dim {
		return 0, false
	}
	f.mu.RLock()
	defer f.mu.RUnlock()
	i, ok := f.byID[id]
	if !ok {
		return 0, false
	}
	return f.dotRow(q, int(i)), true
}

// IDs returns the stored ids, in storage order.
func (f *Flat) IDs() []int64 {
	f.mu.RLock()
	defer f.mu.RUnlock()
	return slices.Clone(f.ids)
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
	thr := top.threshold()
	if f.opts.Int8 {
		d := f.dim
		q8, scales := f.q8, f.scales
		for i := lo; i < hi; i++ {
			s := Dot8(q, q8[i*d:(i+1)*d]) * scales[i]
			if s > thr {
				top.push(s, int32(i))
				thr = top.threshold()
			}
		}
		return
	}
	d := f.dim
	vecs := f.vecs
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
	for _, i := range cands {
		s.top.push(f.dotRow(q, int(i)), i)
	}
	return f.hits(s.top.sorted())
}
