package ann

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"sync"
)

// File format of an HNSW graph (all integers little-endian):
//
//	magic    [8]byte  "MEMHNSW\x00"
//	version  uint32   1
//	header   dim, M, efConstruction, efSearch, efUpper, flags uint32
//	         (flags bit 0: KeepPruned); seed uint64; n uint64;
//	         entry uint32; maxLevel int32
//	ids      n × int64
//	levels   n × uint8
//	dead     ceil(n/64) × uint64 (tombstone bitset)
//	vectors  n × dim × float32
//	layer 0  n × (2M+1) × uint32 (count, then neighbours)
//	upper    for each node with level L > 0: L × (M+1) × uint32
//	crc      uint32, CRC-32C of every byte before it
//
// Load checks the CRC and every structural invariant, so a damaged file
// gives an error rather than a panic or a corrupt graph.

const (
	hnswMagic   = "MEMHNSW\x00"
	hnswVersion = 1
	headerSize  = 8 + 4 + 6*4 + 8 + 8 + 4 + 4
)

// ErrCorrupt is wrapped by the errors of LoadHNSW for damaged files.
var ErrCorrupt = errors.New("ann: corrupt index file")

// castagnoli is the checksum table of the index files, made on first use:
// building it costs a quarter of a millisecond at every start otherwise.
var castagnoli = sync.OnceValue(func() *crc32.Table { return crc32.MakeTable(crc32.Castagnoli) })

// Save writes the graph to path atomically: to a temporary file in the same
// folder, synced, then renamed over path.
func (h *HNSW) Save(path string) error { return saveAtomic(path, h.WriteTo) }

type countWriter struct {
	w   *bufio.Writer
	crc hash.Hash32
	n   int64
	buf [8]byte
	err error
}

func (c *countWriter) write(p []byte) {
	if c.err != nil {
		return
	}
	c.crc.Write(p)
	k, err := c.w.Write(p)
	c.n += int64(k)
	c.err = err
}

func (c *countWriter) u32(x uint32) {
	binary.LittleEndian.PutUint32(c.buf[:4], x)
	c.write(c.buf[:4])
}

func (c *countWriter) u64(x uint64) {
	binary.LittleEndian.PutUint64(c.buf[:8], x)
	c.write(c.buf[:8])
}

func (c *countWriter) u32s(s []uint32) {
	var chunk [4096]byte
	for len(s) > 0 {
		m := min(len(s), len(chunk)/4)
		for i, x := range s[:m] {
			binary.LittleEndian.PutUint32(chunk[4*i:], x)
		}
		c.write(chunk[:4*m])
		s = s[m:]
	}
}

// WriteTo writes the graph in the file format above.
func (h *HNSW) WriteTo(w io.Writer) (int64, error) {
	h.mu.RLock()
	defer h.mu.RUnlock()
	c := &countWriter{w: bufio.NewWriterSize(w, 1<<20), crc: crc32.New(castagnoli())}
	c.write([]byte(hnswMagic))
	c.u32(hnswVersion)
	c.u32(uint32(h.dim))
	c.u32(uint32(h.cfg.M))
	c.u32(uint32(h.cfg.EfConstruction))
	c.u32(uint32(h.efSearch.Load()))
	c.u32(uint32(h.cfg.EfUpper))
	var flags uint32
	if h.cfg.KeepPruned {
		flags |= 1
	}
	c.u32(flags)
	c.u64(h.cfg.Seed)
	c.u64(uint64(len(h.ids)))
	c.u32(h.entry)
	c.u32(uint32(int32(h.maxLevel)))
	for _, id := range h.ids {
		c.u64(uint64(id))
	}
	c.write(h.levels)
	for _, d := range h.dead[:(len(h.ids)+63)/64] {
		c.u64(d)
	}
	var chunk [4096]byte
	for v := h.vecs; len(v) > 0; {
		m := min(len(v), len(chunk)/4)
		for i, x := range v[:m] {
			binary.LittleEndian.PutUint32(chunk[4*i:], math.Float32bits(x))
		}
		c.write(chunk[:4*m])
		v = v[m:]
	}
	c.u32s(h.link0)
	for i, lv := range h.levels {
		if lv > 0 {
			c.u32s(h.upper[i])
		}
	}
	sum := c.crc.Sum32()
	binary.LittleEndian.PutUint32(c.buf[:4], sum)
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

type reader struct {
	r   *bufio.Reader
	crc hash.Hash32
	buf [4096]byte
	err error
}

func (r *reader) read(p []byte) {
	if r.err != nil {
		return
	}
	if _, err := io.ReadFull(r.r, p); err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			err = fmt.Errorf("%w: truncated", ErrCorrupt)
		}
		r.err = err
		return
	}
	r.crc.Write(p)
}

func (r *reader) u32() uint32 {
	r.read(r.buf[:4])
	return binary.LittleEndian.Uint32(r.buf[:4])
}

func (r *reader) u64() uint64 {
	r.read(r.buf[:8])
	return binary.LittleEndian.Uint64(r.buf[:8])
}

func (r *reader) u32s(s []uint32) {
	for len(s) > 0 && r.err == nil {
		m := min(len(s), len(r.buf)/4)
		r.read(r.buf[:4*m])
		for i := range s[:m] {
			s[i] = binary.LittleEndian.Uint32(r.buf[4*i:])
		}
		s = s[m:]
	}
}

func corrupt(format string, a ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrCorrupt}, a...)...)
}

// LoadHNSW reads a graph written by Save. A damaged or truncated file gives
// an error wrapping ErrCorrupt.
func LoadHNSW(path string) (*HNSW, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	return ReadHNSW(f, st.Size())
}

// ReadHNSW reads a graph of size bytes from r.
func ReadHNSW(rd io.Reader, size int64) (*HNSW, error) {
	r := &reader{r: bufio.NewReaderSize(rd, 1<<20), crc: crc32.New(castagnoli())}
	if size < headerSize+4 {
		return nil, corrupt("file too short")
	}
	var magic [8]byte
	r.read(magic[:])
	if r.err != nil {
		return nil, r.err
	}
	if string(magic[:]) != hnswMagic {
		return nil, corrupt("not an HNSW index file")
	}
	if v := r.u32(); v != hnswVersion {
		if r.err != nil {
			return nil, r.err
		}
		return nil, fmt.Errorf("%w: unsupported version %d", ErrCorrupt, v)
	}
	dim, m := int(r.u32()), int(r.u32())
	efc, efs := int(r.u32()), int(r.u32())
	efu, flags := int(r.u32()), r.u32()
	seed := r.u64()
	n64 := r.u64()
	entry := r.u32()
	maxLevel := int(int32(r.u32()))
	if r.err != nil {
		return nil, r.err
	}
	if dim < 1 || dim > 1<<16 || m < 2 || m > 1<<10 || efc < 1 || efc > 1<<20 ||
		efs < 1 || efs > 1<<20 || efu < 1 || efu > 1<<20 || flags > 1 {
		return nil, corrupt("bad parameters (dim %d, M %d, ef %d/%d/%d, flags %#x)", dim, m, efc, efs, efu, flags)
	}
	m0 := 2 * m
	// Everything but the upper layers has a fixed size per node: check it
	// against the file size before allocating anything.
	perNode := 8 + 1 + 4*int64(dim) + 4*int64(m0+1)
	if n64 > uint64(size/perNode) {
		return nil, corrupt("node count %d does not fit the file size", n64)
	}
	n := int(n64)
	fixed := headerSize + perNode*int64(n) + 8*int64((n+63)/64) + 4
	if fixed > size {
		return nil, corrupt("file too short for %d nodes", n)
	}
	if n == 0 && maxLevel != -1 || n > 0 && (maxLevel < 0 || maxLevel >= maxLevels || int(entry) >= n) {
		return nil, corrupt("bad entry point")
	}
	cfg := HNSWConfig{M: m, EfConstruction: efc, EfSearch: efs, Seed: seed, EfUpper: efu, KeepPruned: flags&1 != 0}
	h := NewHNSW(dim, cfg)
	h.ids = make([]int64, n)
	for i := range h.ids {
		h.ids[i] = int64(r.u64())
	}
	h.levels = make([]uint8, n)
	r.read(h.levels)
	h.dead = make([]uint64, (n+63)/64)
	for i := range h.dead {
		h.dead[i] = r.u64()
	}
	if r.err != nil {
		return nil, r.err
	}
	upperSize := int64(0)
	for _, lv := range h.levels {
		if int(lv) > maxLevel {
			return nil, corrupt("node level %d above the top %d", lv, maxLevel)
		}
		upperSize += 4 * int64(lv) * int64(m+1)
	}
	if fixed+upperSize != size {
		return nil, corrupt("file size %d, expected %d", size, fixed+upperSize)
	}
	if n > 0 && int(h.levels[entry]) != maxLevel {
		return nil, corrupt("entry point is not on the top level")
	}
	h.vecs = make([]float32, n*dim)
	for v := h.vecs; len(v) > 0 && r.err == nil; {
		k := min(len(v), len(r.buf)/4)
		r.read(r.buf[:4*k])
		for i := range v[:k] {
			v[i] = math.Float32frombits(binary.LittleEndian.Uint32(r.buf[4*i:]))
		}
		v = v[k:]
	}
	h.link0 = make([]uint32, n*(m0+1))
	r.u32s(h.link0)
	h.upper = make([][]uint32, n)
	for i, lv := range h.levels {
		if lv > 0 {
			h.upper[i] = make([]uint32, int(lv)*(m+1))
			r.u32s(h.upper[i])
		}
	}
	if r.err != nil {
		return nil, r.err
	}
	want := r.crc.Sum32()
	var tail [4]byte
	if _, err := io.ReadFull(r.r, tail[:]); err != nil {
		return nil, corrupt("truncated checksum")
	}
	if binary.LittleEndian.Uint32(tail[:]) != want {
		return nil, corrupt("checksum mismatch")
	}
	// Structural checks: a file with a valid checksum may still have been
	// written by a buggy or hostile writer.
	for i := 0; i < n; i++ {
		for l := 0; l <= int(h.levels[i]); l++ {
			row := h.row(uint32(i), l)
			c := int(row[0])
			if c > len(row)-1 {
				return nil, corrupt("node %d level %d: %d neighbours", i, l, c)
			}
			for _, x := range row[1 : 1+c] {
				if int(x) >= n || int(h.levels[x]) < l {
					return nil, corrupt("node %d level %d: bad neighbour %d", i, l, x)
				}
			}
		}
		if h.isDead(uint32(i)) {
			h.nDead++
			continue
		}
		if _, dup := h.byID[h.ids[i]]; dup {
			return nil, corrupt("duplicate live id %d", h.ids[i])
		}
		h.byID[h.ids[i]] = uint32(i)
		v := h.vec(uint32(i))
		for _, x := range v {
			if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
				return nil, corrupt("node %d holds NaN or Inf", i)
			}
		}
	}
	if n%64 != 0 && n > 0 && h.dead[len(h.dead)-1]>>(uint(n)%64) != 0 {
		return nil, corrupt("tombstone bits beyond the last node")
	}
	h.entry, h.maxLevel = entry, maxLevel
	// Levels must continue from where the saved graph stopped, not repeat.
	h.rng = rand.New(rand.NewPCG(seed, uint64(n)))
	return h, nil
}
