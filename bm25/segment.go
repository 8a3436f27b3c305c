package bm25

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
)

// A segment is an Index written out in a form that is used where it lies
// (a memory-mapped file): a process that opens one ranks its first query
// without tokenizing a single document. The layout, little-endian:
//
//	magic "BM25SEG1"
//	u32 columns, u32 documents, u32 terms, u32 0, u64 tokens
//	documents × (i64 id), ascending
//	documents × (i32 length)
//	(terms+1) × u32: offsets of the terms in the term text
//	(terms+1) × u64: offsets of the terms' postings in the postings
//	terms × u32: how many documents hold each term
//	the term text: the terms, sorted, back to back
//	the postings: as in Index.terms, slots counted in this segment
//
// Slots are the documents' positions in id order, so an id is found by
// binary search and no map is built at open.
type segment struct {
	ids, lengths, termOff, postOff, df []byte
	text, post                         []byte
	docs, terms                        uint32
}

const segmentMagic = "BM25SEG1"

const segmentHeader = 8 + 4*4 + 8

// ErrSegment reports a segment that is not one, or is damaged.
var ErrSegment = errors.New("not a valid postings segment")

func (s *segment) id(slot uint32) int64 {
	return int64(binary.LittleEndian.Uint64(s.ids[8*slot:]))
}

func (s *segment) length(slot uint32) int32 {
	return int32(binary.LittleEndian.Uint32(s.lengths[4*slot:]))
}

func (s *segment) slotOf(id int64) (uint32, bool) {
	i := sort.Search(int(s.docs), func(i int) bool { return s.id(uint32(i)) >= id })
	return uint32(i), i < int(s.docs) && s.id(uint32(i)) == id
}

// term returns term number i; nil when its offsets are out of order (a
// damaged segment: checked here rather than in a pass at open, which
// would touch every page of the offsets).
func (s *segment) term(i uint32) []byte {
	a, b := binary.LittleEndian.Uint32(s.termOff[4*i:]), binary.LittleEndian.Uint32(s.termOff[4*i+4:])
	if a > b || uint64(b) > uint64(len(s.text)) {
		return nil
	}
	return s.text[a:b]
}

// find returns the number of a term, ok false when the segment lacks it.
func (s *segment) find(term string) (uint32, bool) {
	i := sort.Search(int(s.terms), func(i int) bool { return string(s.term(uint32(i))) >= term })
	return uint32(i), i < int(s.terms) && string(s.term(uint32(i))) == term
}

// docCount is how many of the segment's documents hold a term.
func (s *segment) docCount(term string) int {
	i, ok := s.find(term)
	if !ok {
		return 0
	}
	// Never more than the segment's documents, even from a damaged file.
	return int(min(binary.LittleEndian.Uint32(s.df[4*i:]), s.docs))
}

// postings returns a term's postings, nil when the segment lacks it.
func (s *segment) postings(term string) []byte {
	u, ok := s.find(term)
	if !ok {
		return nil
	}
	i := int(u)
	a, b := binary.LittleEndian.Uint64(s.postOff[8*i:]), binary.LittleEndian.Uint64(s.postOff[8*i+8:])
	if a > b || b > uint64(len(s.post)) {
		return nil
	}
	return s.post[a:b]
}

// OpenSegment returns an Index over a segment that WriteSegment wrote, for
// documents with one column per weight. The Index reads data in place and
// never writes it: data must stay unchanged and mapped while the Index is
// used. Documents added and deleted later are kept in memory, beside it.
func OpenSegment(data []byte, weights ...float64) (*Index, error) {
	if len(data) < segmentHeader || string(data[:8]) != segmentMagic {
		return nil, ErrSegment
	}
	le := binary.LittleEndian
	cols, docs, terms := le.Uint32(data[8:]), le.Uint32(data[12:]), le.Uint32(data[16:])
	tokens := le.Uint64(data[24:])
	if int(cols) != len(weights) {
		return nil, fmt.Errorf("%w: %d columns, want %d", ErrSegment, cols, len(weights))
	}
	s := &segment{docs: docs, terms: terms}
	rest := data[segmentHeader:]
	take := func(n uint64) []byte {
		if rest == nil || n > uint64(len(rest)) {
			rest = nil
			return nil
		}
		b := rest[:n]
		rest = rest[n:]
		return b
	}
	s.ids = take(8 * uint64(docs))
	s.lengths = take(4 * uint64(docs))
	s.termOff = take(4 * (uint64(terms) + 1))
	s.postOff = take(8 * (uint64(terms) + 1))
	s.df = take(4 * uint64(terms))
	if rest == nil {
		return nil, fmt.Errorf("%w: truncated", ErrSegment)
	}
	textLen := uint64(le.Uint32(s.termOff[4*terms:]))
	postLen := le.Uint64(s.postOff[8*terms:])
	s.text = take(textLen)
	s.post = take(postLen)
	if rest == nil || len(rest) != 0 {
		return nil, fmt.Errorf("%w: sizes do not add up", ErrSegment)
	}
	// Nothing else is checked here: a pass over the offsets or ids would
	// touch every page of them, a visible share of a one-shot query.
	// Lookups check the offsets they use; ids out of order make lookups
	// miss, never fail.
	ix := New(weights...)
	ix.base, ix.nBase, ix.adjExact = s, docs, true
	ix.live, ix.tokens = int(docs), int64(tokens)
	return ix, nil
}

// WriteSegment writes the live documents of ix as a segment (see
// OpenSegment).
func (ix *Index) WriteSegment(w io.Writer) error {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	// The live documents in id order; newSlot renumbers them.
	type live struct {
		slot   uint32
		id     int64
		length int32
	}
	var docs []live
	for slot := range uint32(ix.slots()) {
		if id, length, dead := ix.docAt(slot); !dead {
			docs = append(docs, live{slot, id, length})
		}
	}
	slices.SortFunc(docs, func(a, b live) int { return cmp.Compare(a.id, b.id) })
	newSlot := make([]uint32, ix.slots())
	var tokens int64
	for i, d := range docs {
		newSlot[d.slot] = uint32(i)
		tokens += int64(d.length)
	}
	terms := ix.allTerms()
	le := binary.LittleEndian
	head := appendSegmentHeader(nil, len(ix.weights), len(docs), len(terms), tokens)
	for _, d := range docs {
		head = le.AppendUint64(head, uint64(d.id))
	}
	for _, d := range docs {
		head = le.AppendUint32(head, uint32(d.length))
	}
	// Postings first (into post), so their offsets are known.
	var post, text bytes.Buffer
	termOff := make([]uint32, 0, len(terms)+1)
	postOff := make([]uint64, 0, len(terms)+1)
	var df []uint32
	type posting struct {
		slot uint32
		occ  []uint64
	}
	var list []posting
	var enc []byte
	kept := terms[:0]
	for _, t := range terms {
		list = list[:0]
		ix.decode(t, func(slot uint32, occ []uint64) {
			list = append(list, posting{newSlot[slot], slices.Clone(occ)})
		})
		if len(list) == 0 {
			continue // only in deleted documents
		}
		kept = append(kept, t)
		df = append(df, uint32(len(list)))
		slices.SortFunc(list, func(a, b posting) int { return cmp.Compare(int64(a.slot), int64(b.slot)) })
		termOff = append(termOff, uint32(text.Len()))
		postOff = append(postOff, uint64(post.Len()))
		text.WriteString(t)
		enc = enc[:0]
		prev := uint32(0)
		for _, p := range list {
			enc = binary.AppendUvarint(enc, uint64(p.slot-prev))
			prev = p.slot
			enc = binary.AppendUvarint(enc, uint64(len(p.occ)))
			for _, o := range p.occ {
				enc = binary.AppendUvarint(enc, o>>32)
				enc = binary.AppendUvarint(enc, o&math.MaxUint32)
			}
		}
		post.Write(enc)
	}
	if uint64(text.Len()) > math.MaxUint32 {
		return errors.New("bm25: segment term text over 4 GiB")
	}
	termOff = append(termOff, uint32(text.Len()))
	postOff = append(postOff, uint64(post.Len()))
	le.PutUint32(head[16:], uint32(len(kept)))
	head = appendTermTables(head, termOff, postOff, df)
	for _, b := range [][]byte{head, text.Bytes(), post.Bytes()} {
		if _, err := w.Write(b); err != nil {
			return err
		}
	}
	return nil
}

// appendSegmentHeader appends a segment's header (see segment).
func appendSegmentHeader(b []byte, cols, docs, terms int, tokens int64) []byte {
	le := binary.LittleEndian
	b = append(b, segmentMagic...)
	b = le.AppendUint32(b, uint32(cols))
	b = le.AppendUint32(b, uint32(docs))
	b = le.AppendUint32(b, uint32(terms))
	b = le.AppendUint32(b, 0)
	return le.AppendUint64(b, uint64(tokens))
}

// appendTermTables appends the term and postings offsets and the
// document counts, which follow the documents in a segment.
func appendTermTables(b []byte, termOff []uint32, postOff []uint64, df []uint32) []byte {
	le := binary.LittleEndian
	for _, o := range termOff {
		b = le.AppendUint32(b, o)
	}
	for _, o := range postOff {
		b = le.AppendUint64(b, o)
	}
	for _, n := range df {
		b = le.AppendUint32(b, n)
	}
	return b
}

// allTerms lists the terms of the base and of the added documents, sorted,
// each once.
func (ix *Index) allTerms() []string {
	var out []string
	if s := ix.base; s != nil {
		for i := range s.terms {
			out = append(out, string(s.term(i)))
		}
	}
	for t := range ix.terms {
		out = append(out, t)
	}
	slices.Sort(out)
	return slices.Compact(out)
}
