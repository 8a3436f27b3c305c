package ann

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"os"
	"path/filepath"
	"unsafe"
)

// File format of a Flat store (all integers little-endian):
//
//	magic    [8]byte  "MEMFLAT\x00"
//	version  uint32   1
//	header   dim, rerank, flags, workers uint32 (flags bit 0: NoCenter,
//	         bit 1: Int8); n, centeredAt uint64
//	centre   when rerank > 0: dim × float32, then the running sum dim × float64
//	codes    when rerank > 0: n × ceil(dim/64) × uint64 (sign bits)
//	ids      n × int64
//	vectors  Int8: n × dim × int8, then n × float32 scales;
//	         else n × dim × float32
//	crc      uint32, CRC-32C of every byte before it
//
// ReadFlat checks the CRC, the sizes and that the ids are distinct and the
// numbers finite, so a damaged file gives an error wrapping ErrCorrupt.
// The layout keeps the int8 vectors in one block, which ReadFlatBytes uses
// in place (e.g. from a memory-mapped file) instead of copying.

const (
	flatMagic      = "MEMFLAT\x00"
	flatVersion    = 1
	flatHeaderSize = 8 + 4 + 4*4 + 2*8
)

// Save writes the store to path atomically (a temporary file in the same
// folder, synced, then renamed over path).
func (f *Flat) Save(path string) error { return saveAtomic(path, f.WriteTo) }

// saveAtomic writes through write to a temporary file beside path, syncs
// it, renames it over path and syncs the folder.
func saveAtomic(path string, write func(io.Writer) (int64, error)) (err error) {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err = write(tmp); err != nil {
		return err
	}
	if err = tmp.Sync(); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	if err = os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	if d, err := os.Open(dir); err == nil { // make the rename durable
		d.Sync()
		d.Close()
	}
	return nil
}

// WriteTo writes the store in the file format above.
func (f *Flat) WriteTo(w io.Writer) (int64, error) {
	f.mu.RLock()
	defer f.mu.RUnlock()
	c := &countWriter{w: bufio.NewWriterSize(w, 1<<20), crc: crc32.New(castagnoli())}
	c.write([]byte(flatMagic))
	c.u32(flatVersion)
	c.u32(uint32(f.dim))
	c.u32(uint32(max(f.opts.Rerank, 0)))
	var flags uint32
	if f.opts.NoCenter {
		flags |= 1
	}
	if f.opts.Int8 {
		flags |= 2
	}
	c.u32(flags)
	c.u32(uint32(max(f.opts.Workers, 0)))
	n := len(f.ids)
	c.u64(uint64(n))
	c.u64(uint64(f.centeredAt))
	var chunk [4096]byte
	if f.words > 0 {
		for v := f.center; len(v) > 0; {
			m := min(len(v), len(chunk)/4)
			for i, x := range v[:m] {
				binary.LittleEndian.PutUint32(chunk[4*i:], math.Float32bits(x))
			}
			c.write(chunk[:4*m])
			v = v[m:]
		}
		for _, x := range f.sum {
			c.u64(math.Float64bits(x))
		}
		c.u64s(f.codes[:n*f.words])
	}
	ids := make([]uint64, n)
	for i, id := range f.ids {
		ids[i] = uint64(id)
	}
	c.u64s(ids)
	if f.opts.Int8 {
		c.write(int8Bytes(f.q8[:n*f.dim]))
		for v := f.scales[:n]; len(v) > 0; {
			m := min(len(v), len(chunk)/4)
			for i, x := range v[:m] {
				binary.LittleEndian.PutUint32(chunk[4*i:], math.Float32bits(x))
			}
			c.write(chunk[:4*m])
			v = v[m:]
		}
	} else {
		for v := f.vecs[:n*f.dim]; len(v) > 0; {
			m := min(len(v), len(chunk)/4)
			for i, x := range v[:m] {
				binary.LittleEndian.PutUint32(chunk[4*i:], math.Float32bits(x))
			}
			c.write(chunk[:4*m])
			v = v[m:]
		}
	}
	binary.LittleEndian.PutUint32(c.buf[:4], c.crc.Sum32())
	if c.err == nil {
		k, err := c.w.Write(c.buf[:4])
		c.n += int64(k)
		c.err = err
	}
	if c.err == nil {
		c.err = c.w.Flush()
	}
	return c.n, c.err
}

func (c *countWriter) u64s(s []uint64) {
	var chunk [4096]byte
	for len(s) > 0 {
		m := min(len(s), len(chunk)/8)
		for i, x := range s[:m] {
			binary.LittleEndian.PutUint64(chunk[8*i:], x)
		}
		c.write(chunk[:8*m])
		s = s[m:]
	}
}

func int8Bytes(s []int8) []byte {
	if len(s) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), len(s))
}

// LoadFlat reads a store written by Save. A damaged or truncated file gives
// an error wrapping ErrCorrupt.
func LoadFlat(path string) (*Flat, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	st, err := fh.Stat()
	if err != nil {
		return nil, err
	}
	return ReadFlat(fh, st.Size())
}

// ReadFlat reads a store of size bytes from rd.
func ReadFlat(rd io.Reader, size int64) (*Flat, error) {
	if size < flatHeaderSize+4 {
		return nil, corrupt("file too short")
	}
	if size > math.MaxInt {
		return nil, corrupt("file too large")
	}
	b := make([]byte, size)
	if _, err := io.ReadFull(rd, b); err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, corrupt("truncated")
		}
		return nil, err
	}
	return ReadFlatBytes(b)
}

// ReadFlatBytes reads a store from the bytes of a file written by Save.
// With FlatOptions.Int8 the store keeps using b's vector bytes (no copy):
// b must not change while the store is in use, and Delete or a replacing
// Add write into it (a private, copy-on-write mapping of the file is
// fine).
func ReadFlatBytes(b []byte) (*Flat, error) {
	size := int64(len(b))
	if size < flatHeaderSize+4 {
		return nil, corrupt("file too short")
	}
	if string(b[:8]) != flatMagic {
		return nil, corrupt("not a flat index file")
	}
	le := binary.LittleEndian
	if v := le.Uint32(b[8:]); v != flatVersion {
		return nil, fmt.Errorf("%w: unsupported version %d", ErrCorrupt, v)
	}
	if crc32.Checksum(b[:size-4], castagnoli()) != le.Uint32(b[size-4:]) {
		return nil, corrupt("checksum mismatch")
	}
	dim, rerank, flags, workers := int(le.Uint32(b[12:])), int(le.Uint32(b[16:])), le.Uint32(b[20:]), int(le.Uint32(b[24:]))
	n64, centeredAt := le.Uint64(b[28:]), le.Uint64(b[36:])
	if dim < 1 || dim > 1<<16 || rerank > 1<<20 || flags > 3 || workers > 1<<10 {
		return nil, corrupt("bad parameters (dim %d, rerank %d, flags %#x)", dim, rerank, flags)
	}
	opts := FlatOptions{Rerank: rerank, NoCenter: flags&1 != 0, Int8: flags&2 != 0, Workers: workers}
	f := NewFlat(dim, opts)
	perVec := int64(8) + 4*int64(dim)
	if opts.Int8 {
		perVec = 8 + int64(dim) + 4
	}
	fixed := int64(flatHeaderSize) + 4
	if f.words > 0 {
		perVec += 8 * int64(f.words)
		fixed += 12 * int64(dim)
	}
	if n64 > uint64(max(size-fixed, 0)/perVec) || fixed+perVec*int64(n64) != size {
		return nil, corrupt("file size %d does not fit %d vectors", size, n64)
	}
	n := int(n64)
	f.centeredAt = int(min(centeredAt, uint64(n)))
	p := b[flatHeaderSize:]
	take := func(k int) []byte {
		x := p[:k:k]
		p = p[k:]
		return x
	}
	if f.words > 0 {
		c := take(4 * dim)
		for j := range f.center {
			f.center[j] = math.Float32frombits(le.Uint32(c[4*j:]))
		}
		c = take(8 * dim)
		for j := range f.sum {
			f.sum[j] = math.Float64frombits(le.Uint64(c[8*j:]))
		}
		f.codes = make([]uint64, n*f.words)
		c = take(8 * len(f.codes))
		for i := range f.codes {
			f.codes[i] = le.Uint64(c[8*i:])
		}
	}
	c := take(8 * n)
	f.ids = make([]int64, n)
	f.byID = make(map[int64]int32, n)
	for i := range f.ids {
		id := int64(le.Uint64(c[8*i:]))
		if _, dup := f.byID[id]; dup {
			return nil, corrupt("duplicate id %d", id)
		}
		f.ids[i] = id
		f.byID[id] = int32(i)
	}
	if opts.Int8 {
		if q := take(n * dim); n > 0 {
			f.q8 = unsafe.Slice((*int8)(unsafe.Pointer(unsafe.SliceData(q))), len(q))
		}
		c = take(4 * n)
		f.scales = make([]float32, n)
		for i := range f.scales {
			f.scales[i] = math.Float32frombits(le.Uint32(c[4*i:]))
		}
	} else {
		c = take(4 * n * dim)
		f.vecs = make([]float32, n*dim)
		for i := range f.vecs {
			f.vecs[i] = math.Float32frombits(le.Uint32(c[4*i:]))
		}
	}
	for _, x := range f.center {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return nil, corrupt("centre holds NaN or Inf")
		}
	}
	for _, x := range f.sum {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, corrupt("sum holds NaN or Inf")
		}
	}
	for _, x := range f.scales {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return nil, corrupt("scale holds NaN or Inf")
		}
	}
	for _, x := range f.vecs {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return nil, corrupt("vector holds NaN or Inf")
		}
	}
	return f, nil
}
