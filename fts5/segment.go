package fts5

// DefaultPageSize is FTS5's default leaf page size (the pgsz option).
const DefaultPageSize = 4050

// MainPrefix starts every term of the main index (prefix indexes use
// others): the key FTS5 stores for token t is MainPrefix + t.
const MainPrefix = '0'

// minDlidxSize is FTS5_MIN_DLIDX_SIZE: a doclist gets a doclist index
// when it spans at least this many pages without a term.
const minDlidxSize = 4

// The %_data rowid of a leaf or doclist-index page (fts5_dri).
const (
	pageBits   = 31
	heightBits = 5
	dlidxBits  = 1
)

// SegmentRowid is the %_data rowid of leaf page pgno of segment segid.
func SegmentRowid(segid, pgno int) int64 {
	return int64(segid)<<(pageBits+heightBits+dlidxBits) + int64(pgno)
}

// dlidxRowid is the %_data rowid of a doclist-index page.
func dlidxRowid(segid, height, pgno int) int64 {
	return int64(segid)<<(pageBits+heightBits+dlidxBits) + 1<<(pageBits+heightBits) + int64(height)<<pageBits + int64(pgno)
}

// IsDlidxRowid reports whether a %_data rowid is a doclist-index page's.
// Their rowids follow those of every leaf of their segment, but
// SegmentWriter hands them over as doclists end, among the leaves, which
// it hands over in rowid order.
func IsDlidxRowid(rowid int64) bool { return rowid>>(pageBits+heightBits)&1 == 1 }

// A Sink receives the rows of a segment as SegmentWriter makes them. The
// slices are the sink's to keep.
type Sink interface {
	// Data is a %_data row: a leaf or doclist-index page.
	Data(rowid int64, block []byte)
	// Idx is a %_idx row: the first term (or a prefix that separates it
	// from the page before) of a leaf page, and the page number times two,
	// plus one when the previous page's last doclist has a doclist index.
	Idx(term []byte, pgno int64)
}

// dlidxLevel is one level of the doclist index being written
// (Fts5DlidxWriter).
type dlidxLevel struct {
	pgno      int
	prevValid bool
	prev      int64
	buf       []byte
}

// SegmentWriter writes one segment from terms added in byte order, each
// with its doclist (Fts5SegWriter with its page writer, fed as
// fts5FlushOneHash feeds it).
type SegmentWriter struct {
	segid, pgsz int
	sink        Sink

	pgno      int    // page being filled
	buf       []byte // its bytes so far, 4-byte header first
	pgidx     []byte // its footer: term offsets, delta encoded
	prevPgidx int    // offset of the page's last term
	term      []byte // last term written

	firstTermInPage  bool
	firstRowidInPage bool
	nEmpty           int    // consecutive pages without a term
	btPage           int    // page whose %_idx row is pending, 0 for none
	btTerm           []byte // its separator term
	dlidx            []dlidxLevel
}

// NewSegmentWriter returns a writer of segment segid with pages of pgsz
// bytes (DefaultPageSize unless the table sets pgsz) that hands its rows
// to sink.
func NewSegmentWriter(segid, pgsz int, sink Sink) *SegmentWriter {
	w := &SegmentWriter{
		segid: segid, pgsz: pgsz, sink: sink,
		pgno: 1, firstTermInPage: true, btPage: 1,
		dlidx: make([]dlidxLevel, 1),
	}
	w.buf = make([]byte, 4, pgsz+64)
	return w
}

// Add appends a term (MainPrefix and the token) and its doclist in
// FTS5's in-memory hash format, as a DoclistBuilder makes it: per
// document in ascending rowid order, the rowid's delta from the previous
// one (the first from zero), then the position list's size field and the
// position list. Terms must come in ascending byte order.
func (w *SegmentWriter) Add(term, doclist []byte) {
	w.appendTerm(term)
	if w.pgsz >= len(w.buf)+len(w.pgidx)+len(doclist)+1 {
		// The whole doclist fits on the current leaf.
		w.buf = append(w.buf, doclist...)
		return
	}
	var rowid, prev int64
	for off := 0; off < len(doclist); {
		delta, n := getVarint(doclist[off:])
		off += n
		rowid += int64(delta)
		if w.firstRowidInPage {
			putU16(w.buf[0:], len(w.buf))
			w.buf = AppendVarint(w.buf, uint64(rowid))
			w.firstRowidInPage = false
			w.dlidxAppend(rowid)
		} else {
			w.buf = AppendVarint(w.buf, uint64(rowid-prev))
		}
		prev = rowid
		size, n := getVarint(doclist[off:])
		nCopy := n + int(size>>1)
		pos := doclist[off : off+nCopy]
		if len(w.buf)+len(w.pgidx)+nCopy <= w.pgsz {
			w.buf = append(w.buf, pos...)
		} else {
			// Split the position list between pages, never inside a varint.
			for i := 0; ; {
				space := w.pgsz - len(w.buf) - len(w.pgidx)
				n := nCopy - i
				if n > space {
					n = poslistPrefix(pos[i:], space)
				}
				w.buf = append(w.buf, pos[i:i+n]...)
				i += n
				if len(w.buf)+len(w.pgidx) >= w.pgsz {
					w.flushLeaf()
				}
				if i >= nCopy {
					break
				}
			}
		}
		off += nCopy
	}
}

// Finish writes the last page and %_idx row and returns the number of
// leaf pages (the segment's last page number), 0 if no term was added.
func (w *SegmentWriter) Finish() int {
	if len(w.buf) > 4 {
		w.flushLeaf()
	}
	leaves := w.pgno - 1
	if w.pgno > 1 {
		w.flushBtree()
	}
	return leaves
}

// appendTerm is fts5WriteAppendTerm.
func (w *SegmentWriter) appendTerm(term []byte) {
	if len(w.buf)+len(w.pgidx)+len(term)+2 >= w.pgsz && len(w.buf) > 4 {
		w.flushLeaf()
	}
	w.pgidx = AppendVarint(w.pgidx, uint64(len(w.buf)-w.prevPgidx))
	w.prevPgidx = len(w.buf)
	prefix := 0
	if w.firstTermInPage {
		if w.pgno != 1 {
			// The %_idx row of this page: the shortest prefix of term
			// that is greater than the previous term.
			n := len(term)
			if len(w.term) > 0 {
				n = 1 + commonPrefix(w.term, term)
			}
			w.flushBtree()
			w.btTerm = append(w.btTerm[:0], term[:n]...)
			w.btPage = w.pgno
		}
	} else {
		prefix = commonPrefix(w.term, term)
		w.buf = AppendVarint(w.buf, uint64(prefix))
	}
	w.buf = AppendVarint(w.buf, uint64(len(term)-prefix))
	w.buf = append(w.buf, term[prefix:]...)
	w.term = append(w.term[:0], term...)
	w.firstTermInPage = false
	w.firstRowidInPage = false
	w.dlidx[0].pgno = w.pgno
}

// flushLeaf is fts5WriteFlushLeaf.
func (w *SegmentWriter) flushLeaf() {
	putU16(w.buf[2:], len(w.buf))
	if w.firstTermInPage {
		// A page without a term: an empty entry in the doclist index
		// if it holds no rowid either.
		if w.firstRowidInPage && len(w.dlidx[0].buf) > 0 {
			w.dlidx[0].buf = AppendVarint(w.dlidx[0].buf, 0)
		}
		w.nEmpty++
	} else {
		w.buf = append(w.buf, w.pgidx...)
	}
	w.sink.Data(SegmentRowid(w.segid, w.pgno), w.buf)
	w.buf = make([]byte, 4, w.pgsz+64)
	w.pgidx = w.pgidx[:0]
	w.prevPgidx = 0
	w.pgno++
	w.firstTermInPage = true
	w.firstRowidInPage = true
}

// flushBtree is fts5WriteFlushBtree: the %_idx row of page btPage, once
// the doclist of its last term is complete.
func (w *SegmentWriter) flushBtree() {
	if w.btPage == 0 {
		return
	}
	flag := int64(0)
	if len(w.dlidx[0].buf) > 0 && w.nEmpty >= minDlidxSize {
		flag = 1
	}
	for i := range w.dlidx {
		d := &w.dlidx[i]
		if len(d.buf) == 0 {
			break
		}
		if flag == 1 {
			w.sink.Data(dlidxRowid(w.segid, i, d.pgno), d.buf)
			d.buf = nil
		}
		d.buf = d.buf[:0]
		d.prevValid = false
	}
	w.nEmpty = 0
	w.sink.Idx(append([]byte{}, w.btTerm...), int64(w.btPage)<<1+flag)
	w.btPage = 0
}

// dlidxAppend is fts5WriteDlidxAppend: rowid is the first on a page.
func (w *SegmentWriter) dlidxAppend(rowid int64) {
	for i, done := 0, false; !done; i++ {
		d := &w.dlidx[i]
		if len(d.buf) >= w.pgsz {
			// This doclist-index page is full: write it and push rowid up
			// a level (with the page's own first rowid if it was the root).
			d.buf[0] = 0x01
			w.sink.Data(dlidxRowid(w.segid, i, d.pgno), d.buf)
			if len(w.dlidx) < i+2 {
				w.dlidx = append(w.dlidx, dlidxLevel{})
			}
			d = &w.dlidx[i]
			if up := &w.dlidx[i+1]; len(up.buf) == 0 {
				first := dlidxFirstRowid(d.buf)
				up.pgno = d.pgno
				up.buf = AppendVarint(up.buf, 0)
				up.buf = AppendVarint(up.buf, uint64(d.pgno))
				up.buf = AppendVarint(up.buf, uint64(first))
				up.prevValid, up.prev = true, first
			}
			d.buf = nil
			d.prevValid = false
			d.pgno++
		} else {
			done = true
		}
		var val uint64
		if d.prevValid {
			val = uint64(rowid) - uint64(d.prev)
		} else {
			pgno := w.pgno
			if i > 0 {
				pgno = w.dlidx[i-1].pgno
			}
			flag := uint64(0)
			if !done {
				flag = 1
			}
			d.buf = AppendVarint(d.buf, flag)
			d.buf = AppendVarint(d.buf, uint64(pgno))
			val = uint64(rowid)
		}
		d.buf = AppendVarint(d.buf, val)
		d.prevValid, d.prev = true, rowid
	}
}

// dlidxFirstRowid reads the first rowid of a doclist-index page: after
// the flags byte and the page number.
func dlidxFirstRowid(b []byte) int64 {
	_, n := getVarint(b[1:])
	v, _ := getVarint(b[1+n:])
	return int64(v)
}

// poslistPrefix is fts5PoslistPrefix: the length of the longest run of
// whole varints at the start of a that fits in max bytes, but at least
// the first varint.
func poslistPrefix(a []byte, max int) int {
	n := varintLen(a)
	if n < max {
		for {
			i := varintLen(a[n:])
			if n+i > max {
				break
			}
			n += i
		}
	}
	return n
}

func commonPrefix(old, new []byte) int {
	n := min(len(old), len(new))
	for i := range n {
		if old[i] != new[i] {
			return i
		}
	}
	return n
}

func putU16(b []byte, v int) {
	b[0], b[1] = byte(v>>8), byte(v)
}
