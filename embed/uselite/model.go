package uselite

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sync"

	"memoria/embed"
	"memoria/embed/gemm"
)

const (
	// Dim is the length of every vector.
	Dim = 512
	// Identity names the model, its source and quantisation; it changes whenever the
	// vectors would.
	Identity = "uselite/" + SourcePackage + "/fp16/v1"

	embWidth   = 256
	modelWidth = 512
	ffnWidth   = 1536
	vocabRows  = 8002
	// maxChunkRows bounds the token rows one worker processes at once (its buffers).
	maxChunkRows = 256
)

type layer struct {
	in, heads, headDim int
	qscale             float32
	ln1g, ln1b         []float32
	qkv                *gemm.Matrix
	qkvB               []float32
	out                *gemm.Matrix
	outB               []float32
	res                *gemm.Matrix // layer 0 only: projects the 256-wide input to 512
	resB               []float32
	ln2g, ln2b         []float32
	ffn1               *gemm.Matrix
	ffn1B              []float32
	ffn2               *gemm.Matrix
	ffn2B              []float32
}

// Model is USE-lite loaded in memory. It implements embed.Embedder and is safe for
// concurrent use.
type Model struct {
	tok     *Tokenizer
	emb     embTable  // vocabRows × embWidth
	timing  []float32 // maxPositions × embWidth: sin ‖ cos of position × timescale
	layers  [2]layer
	tanh    *gemm.Matrix
	tanhB   []float32
	lnEps   float32
	l2Eps   float32
	maxLen  int
	workers int
	pool    sync.Pool // *work
}

var _ embed.Embedder = (*Model)(nil)

// Options tunes a loaded model.
type Options struct {
	// Workers bounds the goroutines one Embed call uses; 0 means GOMAXPROCS.
	Workers int
}

// Load reads the converted model from dir ("" means DefaultDir()). When the file is
// missing the error wraps ErrModelMissing and names the command that installs it.
func Load(dir string) (*Model, error) { return LoadWithOptions(dir, Options{}) }

// LoadWithOptions is Load with options.
//
// The first Load of an installed model converts it (fp16 → float32 in the
// kernel's panel layout) and saves the result beside it as CacheFileName
// when the folder is writable; later Loads map that file into memory and
// use it in place, which takes a few milliseconds instead of ~25–35 (see
// cache.go). Both give bit-identical vectors.
func LoadWithOptions(dir string, opt Options) (*Model, error) {
	if dir == "" {
		dir = DefaultDir()
	}
	path := filepath.Join(dir, FileName)
	st, err := os.Stat(path)
	if err == nil {
		if c, err := openCache(filepath.Join(dir, CacheFileName), st); err == nil {
			m, err := build(c, opt)
			if err == nil {
				c.keepAlive(m)
				return m, nil
			}
			c.close()
		}
	}
	h, data, err := readModelFile(path, false)
	if err != nil {
		return nil, err
	}
	src := &fileSource{h: h, data: data}
	m, err := build(src, opt)
	if err != nil {
		return nil, err
	}
	if st != nil {
		writeCache(filepath.Join(dir, CacheFileName), st, src) // best effort
	}
	return m, nil
}

// modelSource gives build the model's numbers: the converted file, or the
// cache made from it.
type modelSource interface {
	vec(name string, n int) ([]float32, error)       // a float32 tensor of n numbers
	mat(name string, k, n int) (*gemm.Matrix, error) // a k×n weight, packed
	emb(rows, width int) (embTable, error)           // the token embedding table
	scalar(name string) (float64, bool)              // a named constant
	vocab() (pieces []string, scores []float64)      // the tokenizer's pieces
}

// build assembles a Model from src, checking every constant the code
// relies on.
func build(src modelSource, opt Options) (*Model, error) {
	pieces, scores := src.vocab()
	if len(pieces) != len(scores) || len(pieces) == 0 {
		return nil, errors.New("uselite: model vocabulary is empty or inconsistent")
	}
	m := &Model{tok: newTokenizer(pieces, scores), workers: opt.Workers}
	sc := func(name string, want float64) (float64, error) {
		v, ok := src.scalar(name)
		if !ok {
			return 0, fmt.Errorf("uselite: model file lacks constant %s", name)
		}
		if want != 0 && v != want {
			return 0, fmt.Errorf("uselite: model constant %s is %v, this code expects %v", name, v, want)
		}
		return v, nil
	}
	var errs []error
	get := func(name string, n int) []float32 {
		t, err := src.vec(name, n)
		if err != nil {
			errs = append(errs, err)
		}
		return t
	}
	mat := func(name string, k, n int) *gemm.Matrix {
		w, err := src.mat(name, k, n)
		if err != nil {
			errs = append(errs, err)
		}
		return w
	}
	// The embedding table stays in the file's bytes: a text reads only its
	// tokens' rows, so converting all 8002 on every load would be wasted.
	if e, err := src.emb(vocabRows, embWidth); err != nil {
		errs = append(errs, err)
	} else {
		m.emb = e
	}
	timescales := get("timescales", embWidth/2)
	for i, dims := range [2][2]int{{embWidth, 4}, {modelWidth, 4}} {
		in := dims[0]
		p := fmt.Sprintf("l%d.", i)
		l := &m.layers[i]
		l.in, l.heads, l.headDim = in, dims[1], in/dims[1]
		l.ln1g, l.ln1b = get(p+"ln1.g", in), get(p+"ln1.b", in)
		l.qkv, l.qkvB = mat(p+"qkv.w", in, 3*in), get(p+"qkv.b", 3*in)
		l.out, l.outB = mat(p+"out.w", in, modelWidth), get(p+"out.b", modelWidth)
		if i == 0 {
			l.res, l.resB = mat(p+"res.w", in, modelWidth), get(p+"res.b", modelWidth)
		}
		l.ln2g, l.ln2b = get(p+"ln2.g", modelWidth), get(p+"ln2.b", modelWidth)
		l.ffn1, l.ffn1B = mat(p+"ffn1.w", modelWidth, ffnWidth), get(p+"ffn1.b", ffnWidth)
		l.ffn2, l.ffn2B = mat(p+"ffn2.w", ffnWidth, modelWidth), get(p+"ffn2.b", modelWidth)
		q, err := sc(p+"qscale", 0)
		if err != nil {
			errs = append(errs, err)
		}
		l.qscale = float32(q)
	}
	m.tanh, m.tanhB = mat("tanh.w", modelWidth, Dim), get("tanh.b", Dim)
	for _, c := range []struct {
		name string
		want float64
	}{{"heads", 4}, {"l0.headdim", 64}, {"l1.headdim", 128}, {"maxlen", maxPositions}, {"pad", -1}} {
		if _, err := sc(c.name, c.want); err != nil {
			errs = append(errs, err)
		}
	}
	eps, err1 := sc("ln.eps", 0)
	l2, err2 := sc("l2.eps", 0)
	for _, e := range []error{err1, err2} {
		if e != nil {
			errs = append(errs, e)
		}
	}
	if len(errs) > 0 {
		return nil, errs[0]
	}
	m.lnEps, m.l2Eps, m.maxLen = float32(eps), float32(l2), maxPositions
	// The timing signal as TF computes it: float32 position × float32 timescale, then sin/cos.
	half := embWidth / 2
	m.timing = make([]float32, maxPositions*embWidth)
	for pos := 0; pos < maxPositions; pos++ {
		for i := 0; i < half; i++ {
			x := float32(pos) * timescales[i]
			m.timing[pos*embWidth+i] = float32(math.Sin(float64(x)))
			m.timing[pos*embWidth+half+i] = float32(math.Cos(float64(x)))
		}
	}
	return m, nil
}

// Identity implements embed.Embedder.
func (m *Model) Identity() string { return Identity }

// Dim implements embed.Embedder.
func (m *Model) Dim() int { return Dim }

// Tokenizer returns the model's tokenizer.
func (m *Model) Tokenizer() *Tokenizer { return m.tok }

// Tokens returns the ids the model reads for text (at most 128).
func (m *Model) Tokens(text string) []int {
	ids := m.tok.Encode(text)
	if len(ids) > m.maxLen {
		ids = ids[:m.maxLen]
	}
	return ids
}

// Embed implements embed.Embedder. Texts are split into chunks of at most 256 tokens that
// up to Workers goroutines embed in parallel. Text past 128 tokens is ignored (the model's
// limit); an empty text gets the model's vector for an empty sequence.
func (m *Model) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	seqs := make([][]int, len(texts))
	for i, t := range texts {
		seqs[i] = m.Tokens(t)
	}
	out := make([][]float32, len(texts))
	backing := make([]float32, len(texts)*Dim)
	for i := range out {
		out[i] = backing[i*Dim : (i+1)*Dim : (i+1)*Dim]
	}
	rows := make([]int, len(seqs))
	for i, s := range seqs {
		rows[i] = max(len(s), 1)
	}
	err := embed.Batches(ctx, rows, m.workers, 32, maxChunkRows, func(lo, hi int) {
		w := m.getWork()
		m.forward(w, seqs[lo:hi], out[lo:hi])
		m.pool.Put(w)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// work holds one worker's activations, reused across chunks.
type work struct {
	a, b, c []float32 // rows × 512
	big     []float32 // rows × 1536
	scores  []float32 // 128
	pooled  []float32 // seqs × 512
	emb     []float32 // one embedding row
}

func (m *Model) getWork() *work {
	if w, ok := m.pool.Get().(*work); ok {
		return w
	}
	const r = maxChunkRows
	return &work{
		a: make([]float32, r*modelWidth), b: make([]float32, r*modelWidth), c: make([]float32, r*modelWidth),
		big: make([]float32, r*ffnWidth), scores: make([]float32, maxPositions),
		pooled: make([]float32, r*modelWidth), emb: make([]float32, embWidth),
	}
}

// forward embeds seqs (each at most 128 ids, all in one chunk of at most maxChunkRows
// rows) into out. Rows of all sequences are stacked so the dense layers run as one matrix
// product; attention and pooling run per sequence.
func (m *Model) forward(w *work, seqs [][]int, out [][]float32) {
	rows := 0
	for _, s := range seqs {
		rows += len(s)
	}
	if rows > maxChunkRows {
		panic("uselite: chunk too large")
	}
	const W = modelWidth
	// Input, 256 wide, in a: the graph adds the timing signal to the embedding and then
	// adds the result to the embedding again (Layer_0/add), so x = e + (e + timing).
	r := 0
	for _, s := range seqs {
		for p, id := range s {
			if id < 0 || id >= vocabRows {
				id = unknownID
			}
			x := w.a[r*embWidth : (r+1)*embWidth]
			e := m.emb.row(id, w.emb[:embWidth])
			t := m.timing[p*embWidth : (p+1)*embWidth]
			for i := range x {
				x[i] = e[i] + (e[i] + t[i]) // the graph adds the embedding twice
			}
			r++
		}
	}
	l0, l1 := &m.layers[0], &m.layers[1]

	// Layer 0 attention: c = (x·Wres + bres) + (attn(LN(x))·Wout + bout).
	layerNorm(w.b, w.a, rows, embWidth, l0.ln1g, l0.ln1b, m.lnEps)
	setRows(w.big, rows, 3*embWidth, l0.qkvB)
	gemm.MatMulAdd(w.big, 3*embWidth, w.b, embWidth, rows, l0.qkv)
	m.attention(w, l0, seqs, w.big, w.b)
	setRows2(w.c, rows, W, l0.outB, l0.resB)
	gemm.MatMulAdd(w.c, W, w.b, embWidth, rows, l0.out)
	gemm.MatMulAdd(w.c, W, w.a, embWidth, rows, l0.res)
	m.ffn(w, l0, rows)

	// Layer 1: c += attn(LN(c))·Wout + bout; c += FFN(LN(c)).
	layerNorm(w.a, w.c, rows, W, l1.ln1g, l1.ln1b, m.lnEps)
	setRows(w.big, rows, 3*W, l1.qkvB)
	gemm.MatMulAdd(w.big, 3*W, w.a, W, rows, l1.qkv)
	m.attention(w, l1, seqs, w.big, w.b)
	addRows(w.c, rows, W, l1.outB)
	gemm.MatMulAdd(w.c, W, w.b, W, rows, l1.out)
	m.ffn(w, l1, rows)

	// Pool: mean over each sequence's rows; then tanh(dense) and L2-normalise.
	r = 0
	for i, s := range seqs {
		p := w.pooled[i*W : (i+1)*W]
		clear(p)
		for range s {
			x := w.c[r*W : (r+1)*W]
			for j := range p {
				p[j] += x[j]
			}
			r++
		}
		n := float32(max(len(s), 1))
		for j := range p {
			p[j] /= n
		}
	}
	ns := len(seqs)
	res := w.a[:ns*Dim]
	setRows(res, ns, Dim, m.tanhB)
	gemm.MatMulAdd(res, Dim, w.pooled, W, ns, m.tanh)
	for i := range seqs {
		v := res[i*Dim : (i+1)*Dim]
		var ss float32
		for j, x := range v {
			t := float32(math.Tanh(float64(x)))
			v[j] = t
			ss += t * t
		}
		inv := float32(1 / math.Sqrt(float64(max(ss, m.l2Eps))))
		o := out[i]
		for j := range v {
			o[j] = v[j] * inv
		}
	}
}

// ffn adds relu(LN(c)·W1 + b1)·W2 + b2 to c.
func (m *Model) ffn(w *work, l *layer, rows int) {
	const W = modelWidth
	layerNorm(w.a, w.c, rows, W, l.ln2g, l.ln2b, m.lnEps)
	setRows(w.big, rows, ffnWidth, l.ffn1B)
	gemm.MatMulAdd(w.big, ffnWidth, w.a, W, rows, l.ffn1)
	h := w.big[:rows*ffnWidth]
	for i, x := range h {
		if x < 0 {
			h[i] = 0
		}
	}
	addRows(w.c, rows, W, l.ffn2B)
	gemm.MatMulAdd(w.c, W, w.big, ffnWidth, rows, l.ffn2)
}

// attention computes multi-head self-attention per sequence from qkv (rows × 3·in:
// queries, keys, values, each split into heads of headDim) into dst (rows × in).
func (m *Model) attention(w *work, l *layer, seqs [][]int, qkv, dst []float32) {
	in, d := l.in, l.headDim
	stride := 3 * in
	base := 0
	for _, s := range seqs {
		n := len(s)
		for h := 0; h < l.heads; h++ {
			qo, ko, vo := h*d, in+h*d, 2*in+h*d
			for i := 0; i < n; i++ {
				q := qkv[(base+i)*stride+qo : (base+i)*stride+qo+d]
				for j := range q {
					q[j] *= l.qscale
				}
			}
			for i := 0; i < n; i++ {
				q := qkv[(base+i)*stride+qo : (base+i)*stride+qo+d]
				sc := w.scores[:n]
				mx := float32(math.Inf(-1))
				for j := 0; j < n; j++ {
					k := qkv[(base+j)*stride+ko : (base+j)*stride+ko+d]
					s := embed.Dot(q, k)
					sc[j] = s
					mx = max(mx, s)
				}
				var sum float32
				for j := range sc {
					e := float32(math.Exp(float64(sc[j] - mx)))
					sc[j] = e
					sum += e
				}
				o := dst[(base+i)*in+h*d : (base+i)*in+h*d+d]
				clear(o)
				for j := 0; j < n; j++ {
					p := sc[j] / sum
					v := qkv[(base+j)*stride+vo : (base+j)*stride+vo+d]
					gemm.Axpy(o, v, p)
				}
			}
		}
		base += n
	}
}

// layerNorm writes g·(x−mean)/sqrt(var+eps) + b for each row of x (rows × n) to dst.
func layerNorm(dst, x []float32, rows, n int, g, b []float32, eps float32) {
	for r := 0; r < rows; r++ {
		xr := x[r*n : (r+1)*n]
		dr := dst[r*n : (r+1)*n]
		var s float64
		for _, v := range xr {
			s += float64(v)
		}
		mean := float32(s / float64(n))
		var ss float64
		for _, v := range xr {
			d := float64(v - mean)
			ss += d * d
		}
		inv := float32(1 / math.Sqrt(float64(float32(ss/float64(n))+eps)))
		for i, v := range xr {
			dr[i] = g[i]*inv*(v-mean) + b[i]
		}
	}
}

func setRows(dst []float32, rows, n int, b []float32) {
	for r := 0; r < rows; r++ {
		copy(dst[r*n:(r+1)*n], b)
	}
}

func setRows2(dst []float32, rows, n int, b1, b2 []float32) {
	for r := 0; r < rows; r++ {
		d := dst[r*n : (r+1)*n]
		for i := range d {
			d[i] = b1[i] + b2[i]
		}
	}
}

func addRows(dst []float32, rows, n int, b []float32) {
	for r := 0; r < rows; r++ {
		d := dst[r*n : (r+1)*n]
		for i := range d {
			d[i] += b[i]
		}
	}
}
