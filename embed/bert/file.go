package bert

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"slices"
	"strings"
	"unsafe"

	"memoria/embed/gemm"
)

// The converted file (little-endian), written by Convert and mapped by Load:
//
//	magic   [8]byte "MEMBERT\x01"
//	length  uint32 of the JSON header, then 0 uint32
//	header  JSON (fileHeader)
//	data    tensors, each at a 64-byte aligned offset from the file's start: float32s,
//	        or bytes (a 4-bit word table, a unigram vocabulary's pieces)
//
// Matrices are stored in the kernel's panel layout (gemm.Pack), so a Load maps the file
// and uses it in place: no conversion on the path of a one-shot recall. The header
// carries the CRC-32C of the data, checked by VerifyFile (install and status), not by
// every Load.
const (
	fileMagic  = "MEMBERT\x01"
	fileFormat = 1
)

var (
	errBadVocab = errors.New("bert: vocabulary without [UNK], [CLS] or [SEP]")
	castagnoli  = crc32.MakeTable(crc32.Castagnoli)
)

// Config is the shape of a BERT encoder.
type Config struct {
	Hidden       int     `json:"hidden"`
	Layers       int     `json:"layers"`
	Heads        int     `json:"heads"`
	Intermediate int     `json:"intermediate"`
	MaxPositions int     `json:"max_positions"`
	Vocab        int     `json:"vocab"`
	Eps          float64 `json:"eps"`
	// MaxTokens is how many tokens (with [CLS] and [SEP]) a text is cut to, or, for a
	// model that reads long texts in windows, how long a window is.
	MaxTokens int `json:"max_tokens"`
	// Tokenizer is "" for WordPiece (the vocabulary in the header) or "unigram" (a
	// SentencePiece unigram model in the data: see unigram.go).
	Tokenizer string `json:"tokenizer,omitempty"`
	// Specials are the ids of the start, end and unknown tokens of a unigram
	// vocabulary (WordPiece names them in its vocabulary).
	Specials *Specials `json:"specials,omitempty"`
	// WordQ4 says the word table is 4-bit (blocks of 32 weights and a half-float
	// scale), dequantised a row at a time.
	WordQ4 bool `json:"word_q4,omitempty"`
}

// Specials are the special tokens of a unigram vocabulary.
type Specials struct {
	Start int `json:"start"`
	End   int `json:"end"`
	Unk   int `json:"unk"`
}

type fileHeader struct {
	Format       int          `json:"format"`
	Model        string       `json:"model"`
	Source       string       `json:"source"`
	SourceSHA256 string       `json:"source_sha256"`
	Config       Config       `json:"config"`
	Vocab        []string     `json:"vocab"`
	Tensors      []fileTensor `json:"tensors"`
	DataStart    int64        `json:"data_start"`
	DataEnd      int64        `json:"data_end"`
	DataCRC      uint32       `json:"data_crc"`
}

type fileTensor struct {
	Name   string `json:"name"`
	Offset int64  `json:"offset"`
	// Count is the number of float32s, or of bytes when Bytes.
	Count int  `json:"count"`
	Bytes bool `json:"bytes,omitempty"`
	// K and N are set for a matrix stored packed (K×N, panels of gemm.PanelWidth).
	K int `json:"k,omitempty"`
	N int `json:"n,omitempty"`
}

// safetensors is a parsed .safetensors file: an 8-byte header length, a JSON header
// naming each tensor's dtype, shape and byte range, then the data.
type safetensors struct {
	data    []byte
	tensors map[string]safetensor
}

// safetensor is one tensor's entry in the header.
type safetensor struct {
	DType   string   `json:"dtype"`
	Shape   []int    `json:"shape"`
	Offsets [2]int64 `json:"data_offsets"`
}

func parseSafetensors(b []byte) (*safetensors, error) {
	if len(b) < 8 {
		return nil, errors.New("safetensors: file too short")
	}
	n := binary.LittleEndian.Uint64(b)
	if n > uint64(len(b)-8) {
		return nil, errors.New("safetensors: header past the end of the file")
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b[8:8+n], &raw); err != nil {
		return nil, fmt.Errorf("safetensors header: %w", err)
	}
	st := &safetensors{data: b[8+n:], tensors: map[string]safetensor{}}
	for k, v := range raw {
		if k == "__metadata__" {
			continue
		}
		var t safetensor
		if err := json.Unmarshal(v, &t); err != nil {
			return nil, fmt.Errorf("safetensors tensor %s: %w", k, err)
		}
		st.tensors[k] = t
	}
	return st, nil
}

// f32 returns tensor name as float32s after checking its shape.
func (s *safetensors) f32(name string, shape ...int) ([]float32, error) {
	t, ok := s.tensors[name]
	if !ok {
		return nil, fmt.Errorf("safetensors: no tensor %s", name)
	}
	if t.DType != "F32" {
		return nil, fmt.Errorf("safetensors: tensor %s is %s, want F32", name, t.DType)
	}
	if !slices.Equal(t.Shape, shape) {
		return nil, fmt.Errorf("safetensors: tensor %s has shape %v, want %v", name, t.Shape, shape)
	}
	count := 1
	for _, d := range shape {
		count *= d
	}
	lo, hi := t.Offsets[0], t.Offsets[1]
	if lo < 0 || hi > int64(len(s.data)) || hi-lo != int64(4*count) {
		return nil, fmt.Errorf("safetensors: tensor %s: bad byte range %d..%d", name, lo, hi)
	}
	out := make([]float32, count)
	b := s.data[lo:hi]
	for i := range out {
		out[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return out, nil
}

// vector returns tensor name, of any shape, as count float32s.
func (s *safetensors) vector(name string, count int) ([]float32, error) {
	t, ok := s.tensors[name]
	if !ok {
		return nil, fmt.Errorf("safetensors: no tensor %s", name)
	}
	n := 1
	for _, d := range t.Shape {
		n *= d
	}
	if n != count {
		return nil, fmt.Errorf("safetensors: tensor %s has shape %v, want %d values", name, t.Shape, count)
	}
	return s.f32(name, t.Shape...)
}

// linear returns the Linear weights name (out×in, PyTorch's layout) as float32 rows.
func (s *safetensors) linear(name string, out, in int) ([]float32, error) {
	return s.f32(name, out, in)
}

// weightSource reads a source format's tensors: vectors, and Linear weights (out×in,
// PyTorch's layout) as float32 rows.
type weightSource interface {
	vector(name string, count int) ([]float32, error)
	linear(name string, out, in int) ([]float32, error)
}

// sourceNames are where a source format keeps an encoder's tensors (all but the word
// table); a layer's names follow its prefix, Layer with the layer's number.
type sourceNames struct {
	Pos, Type, EmbG, EmbB                      string
	Layer                                      string
	Q, K, V, QB, KB, VB, Out, OutB, LN1G, LN1B string
	FFN1, FFN1B, FFN2, FFN2B, LN2G, LN2B       string
}

// safetensorsNames are a Hugging Face BertModel's.
var safetensorsNames = sourceNames{
	Pos: "embeddings.position_embeddings.weight", Type: "embeddings.token_type_embeddings.weight",
	EmbG: "embeddings.LayerNorm.weight", EmbB: "embeddings.LayerNorm.bias",
	Layer: "encoder.layer.%d.",
	Q:     "attention.self.query.weight", K: "attention.self.key.weight", V: "attention.self.value.weight",
	QB: "attention.self.query.bias", KB: "attention.self.key.bias", VB: "attention.self.value.bias",
	Out: "attention.output.dense.weight", OutB: "attention.output.dense.bias",
	LN1G: "attention.output.LayerNorm.weight", LN1B: "attention.output.LayerNorm.bias",
	FFN1: "intermediate.dense.weight", FFN1B: "intermediate.dense.bias",
	FFN2: "output.dense.weight", FFN2B: "output.dense.bias",
	LN2G: "output.LayerNorm.weight", LN2B: "output.LayerNorm.bias",
}

// encoderTensors reads an encoder's tensors but the word table from src, in the
// converted file's names and layout: the matrices packed into the kernel's panels,
// Q, K and V side by side as one product.
func encoderTensors(src weightSource, cfg Config, n sourceNames) ([]tensor, error) {
	H, I := cfg.Hidden, cfg.Intermediate
	var tensors []tensor
	var firstErr error
	vec := func(name string, count int, from ...string) {
		var data []float32
		for _, f := range from {
			v, err := src.vector(f, count)
			if err != nil && firstErr == nil {
				firstErr = err
			}
			data = append(data, v...)
		}
		tensors = append(tensors, tensor{name: name, data: data})
	}
	// lin packs the Linear weights named (each rows×k) side by side.
	lin := func(name string, k, rows int, from ...string) {
		var wt []float32
		for _, f := range from {
			v, err := src.linear(f, rows, k)
			if err != nil {
				if firstErr == nil {
					firstErr = err
				}
				return
			}
			wt = append(wt, v...)
		}
		n := rows * len(from)
		tensors = append(tensors, tensor{name: name, data: gemm.PackTransposed(wt, k, n).Packed(), k: k, n: n})
	}
	vec("pos", cfg.MaxPositions*H, n.Pos)
	vec("type", 2*H, n.Type)
	vec("emb.g", H, n.EmbG)
	vec("emb.b", H, n.EmbB)
	for l := 0; l < cfg.Layers; l++ {
		p, q := fmt.Sprintf(n.Layer, l), fmt.Sprintf("l%d.", l)
		lin(q+"qkv", H, H, p+n.Q, p+n.K, p+n.V)
		vec(q+"qkv.b", H, p+n.QB, p+n.KB, p+n.VB)
		lin(q+"out", H, H, p+n.Out)
		vec(q+"out.b", H, p+n.OutB)
		vec(q+"ln1.g", H, p+n.LN1G)
		vec(q+"ln1.b", H, p+n.LN1B)
		lin(q+"ffn1", H, I, p+n.FFN1)
		vec(q+"ffn1.b", I, p+n.FFN1B)
		lin(q+"ffn2", I, H, p+n.FFN2)
		vec(q+"ffn2.b", H, p+n.FFN2B)
		vec(q+"ln2.g", H, p+n.LN2G)
		vec(q+"ln2.b", H, p+n.LN2B)
	}
	return tensors, firstErr
}

// hfConfig is the part of a Hugging Face config.json that shapes a BERT encoder.
type hfConfig struct {
	ModelType    string  `json:"model_type"`
	Hidden       int     `json:"hidden_size"`
	Layers       int     `json:"num_hidden_layers"`
	Heads        int     `json:"num_attention_heads"`
	Intermediate int     `json:"intermediate_size"`
	MaxPositions int     `json:"max_position_embeddings"`
	Vocab        int     `json:"vocab_size"`
	Eps          float64 `json:"layer_norm_eps"`
	Act          string  `json:"hidden_act"`
}

// convert writes the converted file from a sentence-transformers BERT model: its
// config.json, vocab.txt and model.safetensors. maxTokens is the model's
// max_seq_length.
func convert(w io.Writer, model, source, sourceSHA string, configJSON, vocabTxt, weights []byte, maxTokens int) error {
	var hc hfConfig
	if err := json.Unmarshal(configJSON, &hc); err != nil {
		return fmt.Errorf("config.json: %w", err)
	}
	if hc.ModelType != "bert" || hc.Act != "gelu" || hc.Heads == 0 || hc.Hidden%hc.Heads != 0 || hc.Hidden%gemm.PanelWidth != 0 || hc.Intermediate%gemm.PanelWidth != 0 {
		return fmt.Errorf("config.json: not a BERT encoder this code runs (type %q, activation %q, %d wide, %d heads)", hc.ModelType, hc.Act, hc.Hidden, hc.Heads)
	}
	cfg := Config{Hidden: hc.Hidden, Layers: hc.Layers, Heads: hc.Heads, Intermediate: hc.Intermediate,
		MaxPositions: hc.MaxPositions, Vocab: hc.Vocab, Eps: hc.Eps, MaxTokens: min(maxTokens, hc.MaxPositions)}
	vocab := strings.Split(strings.TrimRight(string(vocabTxt), "\n"), "\n")
	for i := range vocab {
		vocab[i] = strings.TrimRight(vocab[i], "\r")
	}
	if len(vocab) != cfg.Vocab {
		return fmt.Errorf("vocab.txt has %d entries, config.json says %d", len(vocab), cfg.Vocab)
	}
	if _, err := newTokenizer(vocab); err != nil {
		return err
	}
	st, err := parseSafetensors(weights)
	if err != nil {
		return err
	}
	word, err := st.vector("embeddings.word_embeddings.weight", cfg.Vocab*cfg.Hidden)
	if err != nil {
		return err
	}
	tensors, err := encoderTensors(st, cfg, safetensorsNames)
	if err != nil {
		return err
	}
	tensors = append([]tensor{{name: "word", data: word}}, tensors...)
	return writeFile(w, fileHeader{Format: fileFormat, Model: model, Source: source, SourceSHA256: sourceSHA, Config: cfg, Vocab: vocab}, tensors)
}

// tensor is one tensor to write: float32s (a matrix when k and n are set, already
// packed), or raw bytes.
type tensor struct {
	name string
	data []float32
	raw  []byte
	k, n int
}

func (t tensor) bytes() []byte {
	if t.raw != nil {
		return t.raw
	}
	if littleEndian {
		return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(t.data))), 4*len(t.data))
	}
	b := make([]byte, 4*len(t.data))
	for j, v := range t.data {
		binary.LittleEndian.PutUint32(b[4*j:], math.Float32bits(v))
	}
	return b
}

// writeFile writes the converted file: h, completed with the tensors' places and the
// data's checksum, then the tensors.
func writeFile(w io.Writer, h fileHeader, tensors []tensor) error {
	// Offsets depend on the header's length, which depends on the offsets' digits: lay
	// the data out after a header measured with room to spare.
	off := int64(0)
	for _, t := range tensors {
		off = (off + 63) &^ 63
		ft := fileTensor{Name: t.name, Offset: off, Count: len(t.data), K: t.k, N: t.n}
		if t.raw != nil {
			ft.Count, ft.Bytes = len(t.raw), true
		}
		h.Tensors = append(h.Tensors, ft)
		off += ft.size()
	}
	probe, _ := json.Marshal(h)
	start := (int64(16+len(probe)+4096) + 63) &^ 63
	for i := range h.Tensors {
		h.Tensors[i].Offset += start
	}
	h.DataStart, h.DataEnd = start, start+off
	// The data's bytes, padding included, in file order: walked once for the
	// checksum the header carries, then again to write them, so that the file is
	// never held in memory whole.
	each := func(fn func([]byte) error) error {
		pos := start
		for i, t := range tensors {
			if pad := h.Tensors[i].Offset - pos; pad > 0 {
				if err := fn(make([]byte, pad)); err != nil {
					return err
				}
				pos += pad
			}
			b := t.bytes()
			if err := fn(b); err != nil {
				return err
			}
			pos += int64(len(b))
		}
		return nil
	}
	crc := crc32.New(castagnoli)
	each(func(b []byte) error { crc.Write(b); return nil })
	h.DataCRC = crc.Sum32()
	hb, err := json.Marshal(h)
	if err != nil {
		return err
	}
	if int64(16+len(hb)) > start {
		return errors.New("bert: header longer than its room")
	}
	head := make([]byte, start)
	copy(head, fileMagic)
	binary.LittleEndian.PutUint32(head[8:], uint32(len(hb)))
	copy(head[16:], hb)
	if _, err := w.Write(head); err != nil {
		return err
	}
	return each(func(b []byte) error { _, err := w.Write(b); return err })
}

// size is the tensor's length in bytes.
func (t fileTensor) size() int64 {
	if t.Bytes {
		return int64(t.Count)
	}
	return 4 * int64(t.Count)
}

var littleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// readHeader checks the magic and parses the header of a converted file's bytes.
func readHeader(b []byte) (*fileHeader, error) {
	if len(b) < 16 || string(b[:8]) != fileMagic {
		return nil, errors.New("not a converted BERT model file")
	}
	n := int64(binary.LittleEndian.Uint32(b[8:]))
	if 16+n > int64(len(b)) {
		return nil, errors.New("header past the end of the file")
	}
	var h fileHeader
	if err := json.Unmarshal(b[16:16+n], &h); err != nil {
		return nil, fmt.Errorf("header: %w", err)
	}
	if h.Format != fileFormat {
		return nil, fmt.Errorf("format %d, want %d", h.Format, fileFormat)
	}
	if h.DataEnd != int64(len(b)) || h.DataStart < 16+n || h.DataStart > h.DataEnd {
		return nil, fmt.Errorf("file is %d bytes, header says %d", len(b), h.DataEnd)
	}
	for _, t := range h.Tensors {
		if t.Offset < h.DataStart || t.Offset%64 != 0 || t.Offset+t.size() > h.DataEnd || t.Count < 0 {
			return nil, fmt.Errorf("tensor %s out of the file", t.Name)
		}
	}
	return &h, nil
}

// floats views n float32s at off of a mapped, 64-byte aligned file in place.
func floats(b []byte, off int64, n int) []float32 {
	if n == 0 {
		return nil
	}
	return unsafe.Slice((*float32)(unsafe.Pointer(&b[off])), n)
}

// readZipFiles returns the named members of a wheel (a zip file), by base path.
func readZipFiles(wheel []byte, prefix string, names ...string) (map[string][]byte, error) {
	zr, err := zip.NewReader(bytes.NewReader(wheel), int64(len(wheel)))
	if err != nil {
		return nil, fmt.Errorf("wheel: %w", err)
	}
	out := map[string][]byte{}
	for _, f := range zr.File {
		rel, ok := strings.CutPrefix(f.Name, prefix)
		if !ok {
			continue
		}
		for _, n := range names {
			if rel != n {
				continue
			}
			rc, err := f.Open()
			if err != nil {
				return nil, fmt.Errorf("wheel %s: %w", f.Name, err)
			}
			b, err := io.ReadAll(rc)
			rc.Close()
			if err != nil {
				return nil, fmt.Errorf("wheel %s: %w", f.Name, err)
			}
			out[n] = b
		}
	}
	for _, n := range names {
		if _, ok := out[n]; !ok {
			return nil, fmt.Errorf("wheel: no %s%s", prefix, n)
		}
	}
	return out, nil
}
