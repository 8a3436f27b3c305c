package fts5

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// AppendVarint appends v as SQLite's varint (sqlite3PutVarint): big-endian
// groups of 7 bits, the high bit set on every byte but the last, and a
// ninth byte of 8 bits for values above 56 bits. FTS5's records and pages
// use it, not encoding/binary's format.
func AppendVarint(b []byte, v uint64) []byte {
	if v <= 0x7f {
		// Most values in a doclist: inlined where it is called.
		return append(b, byte(v))
	}
	return appendLongVarint(b, v)
}

func appendLongVarint(b []byte, v uint64) []byte {
	if v <= 0x3fff {
		return append(b, byte(v>>7)|0x80, byte(v&0x7f))
	}
	var tmp [9]byte
	if v&(0xff000000<<32) != 0 {
		tmp[8] = byte(v)
		v >>= 8
		for i := 7; i >= 0; i-- {
			tmp[i] = byte(v&0x7f) | 0x80
			v >>= 7
		}
		return append(b, tmp[:]...)
	}
	n := 0
	for ; v != 0; v >>= 7 {
		tmp[n] = byte(v&0x7f) | 0x80
		n++
	}
	tmp[0] &= 0x7f
	for i := n - 1; i >= 0; i-- {
		b = append(b, tmp[i])
	}
	return b
}

// getVarint decodes the varint at the start of b and returns it and its
// length; b must hold a whole varint.
func getVarint(b []byte) (uint64, int) {
	var v uint64
	for i := range 8 {
		v = v<<7 | uint64(b[i]&0x7f)
		if b[i] < 0x80 {
			return v, i + 1
		}
	}
	return v<<8 | uint64(b[8]), 9
}

// varintLen is the length of the varint at the start of b.
func varintLen(b []byte) int {
	for i := range 8 {
		if b[i] < 0x80 {
			return i + 1
		}
	}
	return 9
}

// DoclistBuilder makes a term's doclist in the hash format
// SegmentWriter.Add takes, one document at a time.
type DoclistBuilder struct {
	buf  []byte
	pos  []byte
	last int64
}

// AddDocument appends a document: its rowid, above the previous one's,
// and the term's occurrences in it, each column<<32 | position, in column
// then position order.
func (d *DoclistBuilder) AddDocument(rowid int64, occ []uint64) {
	d.buf = AppendVarint(d.buf, uint64(rowid-d.last))
	d.last = rowid
	pos := d.pos[:0]
	var col, prev uint64
	for _, o := range occ {
		if c := o >> 32; c != col {
			pos = append(pos, 0x01)
			pos = AppendVarint(pos, c)
			col, prev = c, 0
		}
		p := o & 0xffffffff
		pos = AppendVarint(pos, p-prev+2)
		prev = p
	}
	d.buf = AppendVarint(d.buf, uint64(len(pos))*2)
	d.buf = append(d.buf, pos...)
	d.pos = pos
}

// EndDoclist ends the doclist being made: the next AddDocument starts
// another one, after it in the same memory. It returns the length of the
// doclists made so far, back to back, which Bytes returns.
func (d *DoclistBuilder) EndDoclist() int {
	d.last = 0
	return len(d.buf)
}

// Bytes returns the doclists made so far, back to back.
func (d *DoclistBuilder) Bytes() []byte { return d.buf }

// Take returns the doclist made so far and starts an empty one in the
// same memory: the slice is valid until the next AddDocument.
func (d *DoclistBuilder) Take() []byte {
	b := d.buf
	d.buf, d.last = b[:0], 0
	return b
}

// Docsize is the %_docsize sz value of a document: its token count in
// each column.
func Docsize(b []byte, columns []int32) []byte {
	for _, n := range columns {
		b = AppendVarint(b, uint64(n))
	}
	return b
}

// Averages is the averages record (%_data rowid AveragesRowid): the
// number of rows, then each column's total token count.
func Averages(rows int64, columns []int64) []byte {
	b := AppendVarint(nil, uint64(rows))
	for _, n := range columns {
		b = AppendVarint(b, uint64(n))
	}
	return b
}

// The %_data rowids of the averages and structure records.
const (
	AveragesRowid  = 1
	StructureRowid = 10
)

// structureV2 follows the cookie in the structure record of a
// contentless_delete=1 table.
const structureV2 = "\xff\x00\x00\x01"

// Segment describes one segment for a structure record.
type Segment struct {
	ID, FirstPage, LastPage int
	Rows                    int64 // rows inserted into it (nEntry)
}

// EmptyStructure reads a structure record of a table that has no
// segment yet and returns its configuration cookie and whether it is a
// V2 (contentless_delete=1) record.
func EmptyStructure(rec []byte) (cookie uint32, v2 bool, err error) {
	if len(rec) < 4 {
		return 0, false, errors.New("fts5: structure record too short")
	}
	cookie = binary.BigEndian.Uint32(rec)
	rest := rec[4:]
	if len(rest) >= 4 && string(rest[:4]) == structureV2 {
		v2, rest = true, rest[4:]
	}
	// number of levels, segments and the write counter: all zero.
	if len(rest) < 3 || rest[0] != 0 || rest[1] != 0 {
		return 0, false, fmt.Errorf("fts5: structure record %x is not an empty one", rec)
	}
	return cookie, v2, nil
}

// Structure is the structure record of an index holding one segment, on
// level level (the levels below it empty), flushed once: in a V2 record
// its origin counters are 1 (the first origin) and it has no tombstones.
// FTS5 itself leaves a flushed segment on level 0.
func Structure(cookie uint32, v2 bool, level int, seg Segment) []byte {
	b := binary.BigEndian.AppendUint32(nil, cookie)
	if v2 {
		b = append(b, structureV2...)
	}
	// levels, segments, write counter; then each level's merge count and
	// segment count.
	for _, v := range []int{level + 1, 1, 0} {
		b = AppendVarint(b, uint64(v))
	}
	for range level {
		b = append(b, 0, 0)
	}
	for _, v := range []int{0, 1, seg.ID, seg.FirstPage, seg.LastPage} {
		b = AppendVarint(b, uint64(v))
	}
	if v2 {
		for _, v := range []uint64{1, 1, 0, 0, uint64(seg.Rows)} {
			b = AppendVarint(b, v)
		}
	}
	return b
}
