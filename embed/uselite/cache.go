package uselite

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"maps"
	"math"
	"os"
	"runtime"
	"slices"
	"sync"
	"unsafe"

	"memoria/embed/gemm"
	"memoria/internal/mmapfile"
	"memoria/safewrite"
)

// CacheFileName is the model converted for this code (float32, weights in
// the kernel's panel layout), written beside FileName by the first Load.
// It is a cache: deleting it costs one slower Load.
const CacheFileName = "uselite-en-0.2.0-f32.cache"

// The cache file (little-endian):
//
//	magic     [8]byte "MEMUSEC\x01"
//	header    version, panel width uint32; the source file's size (uint64)
//	          and modification time (int64 ns); section count uint32; 0 uint32
//	sections  count × {name [24]byte, kind uint32 (0 float32, 1 bytes,
//	          2 float64), 0 uint32, offset, length uint64 (bytes)}
//	data      each section at a 64-byte aligned offset
//	crc       uint32, CRC-32C of every byte before it
//
// Sections: every tensor build reads ("mat:" the packed weights, "vec:"
// the float32 vectors, "emb" the embedding table as stored, "emb.f16"), the
// constants ("s:NAME", one float64), the pieces ("pieces": uint32 length +
// bytes each) and their scores. A cache whose source size or time differs
// from the installed file's, of another version or panel width, or with a
// bad checksum is ignored (and replaced by the next Load that converts).
const (
	cacheMagic    = "MEMUSEC\x01"
	cacheVersion  = 1
	cacheHeader   = 8 + 4 + 4 + 8 + 8 + 4 + 4
	cacheEntry    = 24 + 4 + 4 + 8 + 8
	cacheF32      = 0
	cacheBytes    = 1
	cacheF64      = 2
	cacheNameSize = 24
)

// castagnoli is made on first use: a recall that never embeds should not
// pay for the table at start-up.
var castagnoli = sync.OnceValue(func() *crc32.Table { return crc32.MakeTable(crc32.Castagnoli) })

// littleEndian: the cache is used in place only where memory order is the
// file's.
var littleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// fileSource reads the converted file, remembering what build asked for so
// that writeCache can save it.
type fileSource struct {
	h    *fileHeader
	data []byte

	vecs  map[string][]float32
	mats  map[string]*gemm.Matrix
	table embTable
}

func (f *fileSource) vec(name string, n int) ([]float32, error) {
	v, err := f.h.tensor(f.data, name, n)
	if err == nil {
		if f.vecs == nil {
			f.vecs = map[string][]float32{}
		}
		f.vecs[name] = v
	}
	return v, err
}

func (f *fileSource) mat(name string, k, n int) (*gemm.Matrix, error) {
	m, err := f.h.packedTensor(f.data, name, k, n)
	if err == nil {
		if f.mats == nil {
			f.mats = map[string]*gemm.Matrix{}
		}
		f.mats[name] = m
	}
	return m, err
}

func (f *fileSource) emb(rows, width int) (embTable, error) {
	e, err := f.h.embTable(f.data, "emb", rows, width)
	f.table = e
	return e, err
}

func (f *fileSource) scalar(name string) (float64, bool) {
	v, ok := f.h.Scalars[name]
	return v, ok
}

func (f *fileSource) vocab() ([]string, []float64) { return f.h.Pieces, f.h.Scores }

// cacheSource reads a mapped cache file in place.
type cacheSource struct {
	b        []byte
	unmap    func()
	sections map[string]cacheSection
}

type cacheSection struct {
	kind uint32
	b    []byte
}

func (c *cacheSource) section(name string, kind uint32) ([]byte, error) {
	s, ok := c.sections[name]
	if !ok || s.kind != kind {
		return nil, fmt.Errorf("uselite: model cache lacks %s", name)
	}
	return s.b, nil
}

func f32s(b []byte) []float32 {
	if len(b) == 0 {
		return nil
	}
	return unsafe.Slice((*float32)(unsafe.Pointer(unsafe.SliceData(b))), len(b)/4)
}

func (c *cacheSource) vec(name string, n int) ([]float32, error) {
	b, err := c.section("vec:"+name, cacheF32)
	if err != nil {
		return nil, err
	}
	if len(b) != 4*n {
		return nil, fmt.Errorf("uselite: model cache: %s has %d numbers, want %d", name, len(b)/4, n)
	}
	return f32s(b), nil
}

func (c *cacheSource) mat(name string, k, n int) (*gemm.Matrix, error) {
	b, err := c.section("mat:"+name, cacheF32)
	if err != nil {
		return nil, err
	}
	if len(b) != 4*k*n {
		return nil, fmt.Errorf("uselite: model cache: %s has %d numbers, want %d×%d", name, len(b)/4, k, n)
	}
	return gemm.FromPacked(k, n, f32s(b)), nil
}

func (c *cacheSource) emb(rows, width int) (embTable, error) {
	b, err := c.section("emb", cacheBytes)
	if err != nil {
		return embTable{}, err
	}
	f16, ok := c.scalar("emb.f16")
	if !ok {
		return embTable{}, errors.New("uselite: model cache lacks emb.f16")
	}
	e := embTable{b: b, f16: f16 == 1, width: width}
	size := 4
	if e.f16 {
		size = 2
	}
	if len(b) != size*rows*width {
		return embTable{}, errors.New("uselite: model cache: embedding table of the wrong size")
	}
	return e, nil
}

func (c *cacheSource) scalar(name string) (float64, bool) {
	b, err := c.section("s:"+name, cacheF64)
	if err != nil || len(b) != 8 {
		return 0, false
	}
	return math.Float64frombits(binary.LittleEndian.Uint64(b)), true
}

func (c *cacheSource) vocab() ([]string, []float64) {
	pb, err1 := c.section("pieces", cacheBytes)
	sb, err2 := c.section("scores", cacheF64)
	if err1 != nil || err2 != nil {
		return nil, nil
	}
	var pieces []string
	for len(pb) >= 4 {
		n := int(binary.LittleEndian.Uint32(pb))
		if n > len(pb)-4 {
			return nil, nil
		}
		pieces = append(pieces, string(pb[4:4+n]))
		pb = pb[4+n:]
	}
	if len(pb) != 0 {
		return nil, nil
	}
	scores := make([]float64, len(sb)/8)
	for i := range scores {
		scores[i] = math.Float64frombits(binary.LittleEndian.Uint64(sb[8*i:]))
	}
	return pieces, scores
}

// keepAlive unmaps the file once m is garbage (m's weights point into it).
func (c *cacheSource) keepAlive(m *Model) {
	runtime.AddCleanup(m, func(unmap func()) { unmap() }, c.unmap)
}

func (c *cacheSource) close() { c.unmap() }

// cacheKey is what the cache records of its source file.
func cacheKey(st os.FileInfo) (size uint64, mtime int64) {
	return uint64(st.Size()), st.ModTime().UnixNano()
}

// openCache maps the cache file and checks it against the installed model
// file (src) and its own checksum.
func openCache(path string, src os.FileInfo) (*cacheSource, error) {
	if !littleEndian {
		return nil, errors.New("uselite: model cache needs a little-endian machine")
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if st.Size() < cacheHeader+4 {
		return nil, errors.New("uselite: model cache too short")
	}
	b, unmap, err := mmapfile.Map(f, st.Size(), mmapfile.ReadOnly)
	if err != nil {
		return nil, err
	}
	c := &cacheSource{b: b, unmap: unmap, sections: map[string]cacheSection{}}
	if err := c.parse(src); err != nil {
		unmap()
		return nil, err
	}
	return c, nil
}

func (c *cacheSource) parse(src os.FileInfo) error {
	b := c.b
	le := binary.LittleEndian
	size, mtime := cacheKey(src)
	if string(b[:8]) != cacheMagic || le.Uint32(b[8:]) != cacheVersion || le.Uint32(b[12:]) != gemm.PanelWidth ||
		le.Uint64(b[16:]) != size || int64(le.Uint64(b[24:])) != mtime {
		return errors.New("uselite: model cache of another version or model file")
	}
	n := int(le.Uint32(b[32:]))
	if n > 1024 || cacheHeader+n*cacheEntry+4 > len(b) {
		return errors.New("uselite: model cache: bad section table")
	}
	if crc32.Checksum(b[:len(b)-4], castagnoli()) != le.Uint32(b[len(b)-4:]) {
		return errors.New("uselite: model cache: checksum mismatch")
	}
	for i := range n {
		e := b[cacheHeader+i*cacheEntry:]
		name := string(e[:cacheNameSize])
		if j := slices.Index(e[:cacheNameSize], 0); j >= 0 {
			name = string(e[:j])
		}
		kind := le.Uint32(e[24:])
		off, length := le.Uint64(e[32:]), le.Uint64(e[40:])
		if off%64 != 0 || off > uint64(len(b)-4) || length > uint64(len(b)-4)-off {
			return fmt.Errorf("uselite: model cache: section %s out of range", name)
		}
		c.sections[name] = cacheSection{kind: kind, b: b[off : off+length : off+length]}
	}
	return nil
}

// writeCache saves what build read from the converted file, for the next
// Load; it does nothing when it cannot (a read-only folder, a big-endian
// machine). The file is replaced atomically (safewrite.ReplaceFile), so a
// reader never sees half of it.
func writeCache(path string, src os.FileInfo, f *fileSource) {
	if !littleEndian {
		return
	}
	type section struct {
		name string
		kind uint32
		b    []byte
	}
	var secs []section
	f64 := func(xs ...float64) []byte {
		out := make([]byte, 8*len(xs))
		for i, x := range xs {
			binary.LittleEndian.PutUint64(out[8*i:], math.Float64bits(x))
		}
		return out
	}
	bytesOf := func(v []float32) []byte {
		if len(v) == 0 {
			return nil
		}
		return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(v))), 4*len(v))
	}
	for _, name := range slices.Sorted(maps.Keys(f.mats)) {
		secs = append(secs, section{"mat:" + name, cacheF32, bytesOf(f.mats[name].Packed())})
	}
	for _, name := range slices.Sorted(maps.Keys(f.vecs)) {
		secs = append(secs, section{"vec:" + name, cacheF32, bytesOf(f.vecs[name])})
	}
	if f.table.b == nil {
		return
	}
	isF16 := 0.0
	if f.table.f16 {
		isF16 = 1
	}
	secs = append(secs, section{"emb", cacheBytes, f.table.b}, section{"s:emb.f16", cacheF64, f64(isF16)})
	for _, name := range slices.Sorted(maps.Keys(f.h.Scalars)) {
		secs = append(secs, section{"s:" + name, cacheF64, f64(f.h.Scalars[name])})
	}
	var pieces []byte
	for _, p := range f.h.Pieces {
		pieces = binary.LittleEndian.AppendUint32(pieces, uint32(len(p)))
		pieces = append(pieces, p...)
	}
	secs = append(secs, section{"pieces", cacheBytes, pieces}, section{"scores", cacheF64, f64(f.h.Scores...)})
	for _, s := range secs {
		if len(s.name) > cacheNameSize {
			return
		}
	}

	head := make([]byte, cacheHeader+len(secs)*cacheEntry)
	le := binary.LittleEndian
	size, mtime := cacheKey(src)
	copy(head, cacheMagic)
	le.PutUint32(head[8:], cacheVersion)
	le.PutUint32(head[12:], gemm.PanelWidth)
	le.PutUint64(head[16:], size)
	le.PutUint64(head[24:], uint64(mtime))
	le.PutUint32(head[32:], uint32(len(secs)))
	off := uint64(len(head))
	offsets := make([]uint64, len(secs))
	for i, s := range secs {
		off = (off + 63) &^ 63
		offsets[i] = off
		e := head[cacheHeader+i*cacheEntry:]
		copy(e[:cacheNameSize], s.name)
		le.PutUint32(e[24:], s.kind)
		le.PutUint64(e[32:], off)
		le.PutUint64(e[40:], uint64(len(s.b)))
		off += uint64(len(s.b))
	}

	// Best effort: a folder that cannot be written just means no cache.
	safewrite.ReplaceFile(path, 0o644, func(w io.Writer) error {
		crc := crc32.New(castagnoli())
		pos := uint64(0)
		put := func(p []byte) {
			crc.Write(p)
			w.Write(p)
			pos += uint64(len(p))
		}
		put(head)
		var zero [64]byte
		for i, s := range secs {
			put(zero[:offsets[i]-pos])
			put(s.b)
		}
		var tail [4]byte
		le.PutUint32(tail[:], crc.Sum32())
		_, err := w.Write(tail[:])
		return err
	})
}
