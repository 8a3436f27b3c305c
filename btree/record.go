package btree

import (
	"encoding/binary"
	"math"

	"memoria/fts5"
)

// Record builds one record in SQLite's record format: a header of serial
// types, then the values. The zero Record is empty and ready to use.
type Record struct {
	types []byte // the serial types, as varints
	body  []byte
}

// Reset empties r for the next record, keeping its buffers.
func (r *Record) Reset() { r.types, r.body = r.types[:0], r.body[:0] }

// Null appends a NULL.
func (r *Record) Null() { r.types = append(r.types, 0) }

// Int appends an integer in the fewest bytes SQLite would use: serial
// types 8 and 9 hold 0 and 1 with no bytes (schema format 4).
func (r *Record) Int(v int64) {
	var typ byte
	var n int
	switch {
	case v == 0:
		r.types = append(r.types, 8)
		return
	case v == 1:
		r.types = append(r.types, 9)
		return
	case v >= math.MinInt8 && v <= math.MaxInt8:
		typ, n = 1, 1
	case v >= math.MinInt16 && v <= math.MaxInt16:
		typ, n = 2, 2
	case v >= -1<<23 && v < 1<<23:
		typ, n = 3, 3
	case v >= math.MinInt32 && v <= math.MaxInt32:
		typ, n = 4, 4
	case v >= -1<<47 && v < 1<<47:
		typ, n = 5, 6
	default:
		typ, n = 6, 8
	}
	r.types = append(r.types, typ)
	for i := n - 1; i >= 0; i-- {
		r.body = append(r.body, byte(uint64(v)>>(8*i)))
	}
}

// Float appends a REAL.
func (r *Record) Float(f float64) {
	r.types = append(r.types, 7)
	r.body = binary.BigEndian.AppendUint64(r.body, math.Float64bits(f))
}

// Text appends a TEXT value; s is UTF-8, the encoding of Memoria's files.
func (r *Record) Text(s string) {
	r.types = fts5.AppendVarint(r.types, uint64(len(s))*2+13)
	r.body = append(r.body, s...)
}

// Blob appends a BLOB.
func (r *Record) Blob(b []byte) {
	r.types = fts5.AppendVarint(r.types, uint64(len(b))*2+12)
	r.body = append(r.body, b...)
}

// AppendTo appends the record to dst.
func (r *Record) AppendTo(dst []byte) []byte {
	// The header's size counts its own varint.
	size := len(r.types) + 1
	for varintLen(uint64(size)) != size-len(r.types) {
		size = len(r.types) + varintLen(uint64(size))
	}
	dst = fts5.AppendVarint(dst, uint64(size))
	dst = append(dst, r.types...)
	return append(dst, r.body...)
}

// varintLen is the length of v as a SQLite varint.
func varintLen(v uint64) int {
	n := 1
	for v > 0x7f && n < 9 {
		v >>= 7
		n++
	}
	return n
}
