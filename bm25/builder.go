package bm25

import (
	"bytes"
	"encoding/binary"
	"errors"
	"iter"
	"math"
	"runtime"
	"slices"
	"sync"

	"memoria/porter"
)

// Builder makes a segment from a whole set of documents at once, several
// times faster than Index.Add: no map per document, and the work split
// into parts that run on their own goroutines. Loading years of memory
// for a server, or writing the postings snapshot, goes through it.
//
// Each part takes documents in ascending id order, and the ids of a part
// are all above those of the parts created before it.
type Builder struct {
	weights []float64
	parts   []*BuilderPart
	sorted  []string // sortedTerms, once made; a new part drops it
}

// NewBuilder returns a builder for documents with one column per weight.
func NewBuilder(weights ...float64) *Builder {
	return &Builder{weights: slices.Clone(weights)}
}

// Part returns a new part, for one goroutine; its documents come after
// those of every part created before.
func (b *Builder) Part() *BuilderPart {
	p := &BuilderPart{cols: len(b.weights), termOf: map[string]uint32{}, tokenOf: map[string]uint32{}}
	b.parts = append(b.parts, p)
	b.sorted = nil
	return p
}

// BuilderPart collects the postings of consecutive documents.
type BuilderPart struct {
	cols    int
	termOf  map[string]uint32 // term → number in this part
	tokenOf map[string]uint32 // token before stemming → number of its term
	terms   []string
	post    [][]byte // by term number: postings, slots counted in this part
	last    []uint32 // by term number: slot of its last posting
	df      []uint32 // by term number: documents holding it
	ids     []int64
	lengths []int32
	colLens []int32  // per document, its tokens in each column
	total   int64    // tokens in all documents
	tokens  []uint32 // Add's scratch
	count   []uint32 // by term number: occurrences in the document being added
	scratch []uint32 // the terms of the document being added
	err     error
}

// Add indexes a document; columns must have one text per weight.
func (p *BuilderPart) Add(id int64, columns ...string) {
	buf := p.tokens[:0]
	ends := make([]int, 0, 8)
	for _, text := range columns {
		buf = p.Tokenize(buf, text)
		ends = append(ends, len(buf))
	}
	p.tokens = buf
	cols := make([][]uint32, len(columns))
	start := 0
	for c, end := range ends {
		cols[c] = buf[start:end]
		start = end
	}
	p.AddTerms(id, cols...)
}

// Tokenize appends to dst the numbers, in this part, of the terms of
// text (porter's terms, numbering new ones), for AddTerms. Text that
// several documents share (a neighbour's line in each one's context) is
// then tokenized once.
func (p *BuilderPart) Tokenize(dst []uint32, text string) []uint32 {
	porter.EachToken(text, func(token []byte) {
		// Most tokens were met before: their term is known without
		// stemming them again.
		t, ok := p.tokenOf[string(token)]
		if !ok {
			key := string(token)
			if t, ok = p.term(porter.StemToken(token)); !ok {
				return
			}
			p.tokenOf[key] = t
		}
		dst = append(dst, t)
	})
	return dst
}

// AddTerms indexes a document given each column's terms, numbered by
// this part's Tokenize: what Add does with the columns' text.
func (p *BuilderPart) AddTerms(id int64, columns ...[]uint32) {
	if n := len(p.ids); n > 0 && id <= p.ids[n-1] {
		p.err = errors.New("bm25: documents not in ascending id order")
		return
	}
	if len(columns) != p.cols {
		p.err = errors.New("bm25: wrong number of columns")
		return
	}
	for _, terms := range columns {
		for _, t := range terms {
			if int(t) >= len(p.terms) {
				p.err = errors.New("bm25: a term not numbered by this part")
				return
			}
		}
	}
	// Count each term's occurrences, then write each term's header (the
	// slot's delta and the count), then the occurrences: a column's
	// terms are in position order, so each term's come in column and
	// position order without sorting them.
	slot := uint32(len(p.ids))
	touched := p.scratch[:0]
	var length int32
	for _, terms := range columns {
		for _, t := range terms {
			if p.count[t] == 0 {
				touched = append(touched, t)
			}
			p.count[t]++
		}
		length += int32(len(terms))
		p.colLens = append(p.colLens, int32(len(terms)))
	}
	for _, t := range touched {
		list := p.post[t]
		delta := slot
		if len(list) > 0 {
			delta = slot - p.last[t]
		}
		list = binary.AppendUvarint(list, uint64(delta))
		p.post[t] = binary.AppendUvarint(list, uint64(p.count[t]))
		p.last[t] = slot
		p.df[t]++
		p.count[t] = 0
	}
	for c, terms := range columns {
		for pos, t := range terms {
			p.post[t] = binary.AppendUvarint(binary.AppendUvarint(p.post[t], uint64(c)), uint64(pos))
		}
	}
	p.scratch = touched
	p.ids = append(p.ids, id)
	p.lengths = append(p.lengths, length)
	p.total += int64(length)
}

// term returns the number of a term in the part, numbering it if it is
// new; ok is false, and p.err set, when the part is full.
func (p *BuilderPart) term(term []byte) (t uint32, ok bool) {
	if t, ok := p.termOf[string(term)]; ok {
		return t, true
	}
	if len(p.terms) >= 1<<24 {
		p.err = errors.New("bm25: over 16M distinct terms in one part")
		return 0, false
	}
	t = uint32(len(p.terms))
	name := string(term)
	p.termOf[name] = t
	p.terms = append(p.terms, name)
	p.post = append(p.post, nil)
	p.last = append(p.last, 0)
	p.df = append(p.df, 0)
	p.count = append(p.count, 0)
	return t, true
}

// Segment joins the parts into a segment (see OpenSegment), written to
// buf's end.
func (b *Builder) Segment(buf *bytes.Buffer) error {
	if err := b.check(); err != nil {
		return err
	}
	var docs int
	var tokens int64
	for _, p := range b.parts {
		docs += len(p.ids)
		tokens += p.total
	}
	terms := b.sortedTerms()
	le := binary.LittleEndian
	head := appendSegmentHeader(nil, len(b.weights), docs, len(terms), tokens)
	for _, p := range b.parts {
		for _, id := range p.ids {
			head = le.AppendUint64(head, uint64(id))
		}
	}
	for _, p := range b.parts {
		for _, n := range p.lengths {
			head = le.AppendUint32(head, uint32(n))
		}
	}
	// Two passes over the postings, one to size them, one to write them,
	// so that the segment is written once, into a buffer of its exact
	// size: a build holds the parts and the segment at its peak of memory.
	// Each part's slots move by the documents before it: only the first
	// delta of each part's list changes. Both passes run on every CPU, a
	// run of terms each: a term's list depends on that term alone.
	eachList := func(i int, fn func(delta uint64, rest []byte)) {
		t := terms[i]
		base, prev, any := uint32(0), uint32(0), false
		for _, p := range b.parts {
			if n, ok := p.termOf[t]; ok {
				list := p.post[n]
				first, k := binary.Uvarint(list)
				slot := base + uint32(first)
				if any {
					fn(uint64(slot-prev), list[k:])
				} else {
					fn(uint64(slot), list[k:])
				}
				prev, any = base+p.last[n], true
			}
			base += uint32(len(p.ids))
		}
	}
	size := make([]uint64, len(terms))
	df := make([]uint32, len(terms))
	eachRun(len(terms), func(lo, hi int) {
		var scratch [binary.MaxVarintLen64]byte
		for i := lo; i < hi; i++ {
			eachList(i, func(delta uint64, rest []byte) {
				size[i] += uint64(binary.PutUvarint(scratch[:], delta) + len(rest))
			})
			for _, p := range b.parts {
				if n, ok := p.termOf[terms[i]]; ok {
					df[i] += p.df[n]
				}
			}
		}
	})
	var textLen, postLen uint64
	termOff := make([]uint32, 0, len(terms)+1)
	postOff := make([]uint64, 0, len(terms)+1)
	for i, t := range terms {
		termOff = append(termOff, uint32(textLen))
		postOff = append(postOff, postLen)
		textLen += uint64(len(t))
		if textLen > math.MaxUint32 {
			return errors.New("bm25: segment term text over 4 GiB")
		}
		postLen += size[i]
	}
	termOff = append(termOff, uint32(textLen))
	postOff = append(postOff, postLen)
	head = appendTermTables(head, termOff, postOff, df)
	total := len(head) + int(textLen) + int(postLen)
	buf.Grow(total)
	out := buf.AvailableBuffer()[:total]
	n := copy(out, head)
	for _, t := range terms {
		n += copy(out[n:], t)
	}
	eachRun(len(terms), func(lo, hi int) {
		at := n + int(postOff[lo])
		for i := lo; i < hi; i++ {
			eachList(i, func(delta uint64, rest []byte) {
				at += binary.PutUvarint(out[at:], delta)
				at += copy(out[at:], rest)
			})
		}
	})
	buf.Write(out) // the buffer's own free space: no copy is made elsewhere
	return nil
}

// eachRun calls fn on runs of [0, n) that together cover it, on every CPU.
func eachRun(n int, fn func(lo, hi int)) {
	workers := max(1, min(runtime.GOMAXPROCS(0), n/1024))
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() { fn(n*w/workers, n*(w+1)/workers) })
	}
	wg.Wait()
}

// check reports a part's error, or parts whose ids overlap.
func (b *Builder) check() error {
	for i, p := range b.parts {
		if p.err != nil {
			return p.err
		}
		if i > 0 && len(p.ids) > 0 {
			for _, q := range slices.Backward(b.parts[:i]) {
				if len(q.ids) > 0 {
					if q.ids[len(q.ids)-1] >= p.ids[0] {
						return errors.New("bm25: parts overlap in ids")
					}
					break
				}
			}
		}
	}
	return nil
}

// sortedTerms is every term of every part once, in byte order. It is
// made once: a build asks for it for its segment and its full-text
// table. The parts must be complete.
func (b *Builder) sortedTerms() []string {
	if b.sorted != nil {
		return b.sorted
	}
	seen := map[string]bool{}
	var terms []string
	for _, p := range b.parts {
		for _, t := range p.terms {
			if !seen[t] {
				seen[t] = true
				terms = append(terms, t)
			}
		}
	}
	slices.Sort(terms)
	b.sorted = terms
	return terms
}

// EachDocument calls fn with every document in id order and its token
// count in each column (cols is reused between calls).
func (b *Builder) EachDocument(fn func(id int64, cols []int32)) error {
	if err := b.check(); err != nil {
		return err
	}
	n := len(b.weights)
	for _, p := range b.parts {
		for i, id := range p.ids {
			fn(id, p.colLens[i*n:(i+1)*n])
		}
	}
	return nil
}

// Terms returns every term of the documents, in byte order. The slice
// is the Builder's own: callers read it and do not change it.
func (b *Builder) Terms() ([]string, error) {
	if err := b.check(); err != nil {
		return nil, err
	}
	return b.sortedTerms(), nil
}

// Postings yields the documents that hold term in id order, each with
// the term's occurrences there: column<<32 | position, in column then
// position order, in a slice reused between documents. Several
// goroutines may walk postings at once.
func (b *Builder) Postings(term string) iter.Seq2[int64, []uint64] {
	return b.postings(term, false)
}

// Drain is Postings, but lets the term's postings go as it yields them:
// a Builder whose postings are copied elsewhere term by term is then
// never held twice. Segment and Postings see nothing of a drained term;
// Drain of distinct terms may run at once.
func (b *Builder) Drain(term string) iter.Seq2[int64, []uint64] {
	return b.postings(term, true)
}

func (b *Builder) postings(term string, drain bool) iter.Seq2[int64, []uint64] {
	return func(yield func(int64, []uint64) bool) {
		var occ []uint64
		for _, p := range b.parts {
			n, ok := p.termOf[term]
			if !ok {
				continue
			}
			list := p.post[n]
			slot := uint64(0)
			// The part wrote the list: it is well formed.
			uvarint := func(i int) (uint64, int) {
				if b := list[i]; b < 0x80 {
					return uint64(b), i + 1
				}
				v, k := binary.Uvarint(list[i:])
				return v, i + k
			}
			for i := 0; i < len(list); {
				var delta, count, col, pos uint64
				delta, i = uvarint(i)
				slot += delta
				count, i = uvarint(i)
				occ = occ[:0]
				for range count {
					col, i = uvarint(i)
					pos, i = uvarint(i)
					occ = append(occ, col<<32|pos)
				}
				if !yield(p.ids[slot], occ) {
					return
				}
			}
			if drain {
				p.post[n] = nil
			}
		}
	}
}
