package bm25

import (
	"encoding/binary"
	"math"
	"slices"
	"sync"

	"memoria/porter"
)

// FTS5's bm25 constants (fts5_aux.c).
const (
	k1 = 1.2
	b  = 0.75
)

// Index holds the postings of a set of documents, each a fixed number of
// columns of text. It is safe for concurrent use.
type Index struct {
	mu      sync.RWMutex
	weights []float64
	terms   map[string][]byte // term → postings: per document, slot delta, occurrences, then (column, position) each
	last    map[string]uint32 // term → slot of its last posting
	docs    []doc             // by slot - nBase; a slot is never reused
	slotOf  map[int64]uint32  // live document id → slot, for the documents in docs
	live    int
	tokens  int64 // tokens in the live documents, all columns

	// A read-only base (OpenSegment): slots below nBase are its documents,
	// deleted ones marked in baseDead; documents added later get the
	// slots after them.
	base     *segment
	nBase    uint32
	baseDead []uint64 // bit set by slot
	// Document counts of the base's terms come from the segment, less the
	// deleted base documents that held them (baseAdj), as long as every
	// such deletion said its text (DeleteText: adjExact); otherwise they
	// are counted from the postings.
	baseAdj  map[string]int
	adjExact bool

	dfMu sync.Mutex
	df   map[string]int // live documents per term, counted on demand; cleared by Delete
}

type doc struct {
	id     int64
	length int32 // tokens, all columns
	dead   bool
}

// New returns an empty index whose documents have one column per weight;
// the weights are bm25()'s column weights.
func New(weights ...float64) *Index {
	return &Index{
		weights: slices.Clone(weights),
		terms:   map[string][]byte{},
		last:    map[string]uint32{},
		slotOf:  map[int64]uint32{},
		df:      map[string]int{},
	}
}

// DocCount is the number of live documents that contain term.
func (ix *Index) DocCount(term string) int {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	ix.dfMu.Lock()
	n, ok := ix.df[term]
	ix.dfMu.Unlock()
	if ok {
		return n
	}
	if ix.base != nil && ix.adjExact {
		n = ix.base.docCount(term) - ix.baseAdj[term]
		walkPostings(ix.terms[term], uint32(ix.slots()), nil, func(slot uint32, _ []uint64) {
			if !ix.docs[slot-ix.nBase].dead {
				n++
			}
		})
	} else {
		ix.decode(term, func(uint32, []uint64) { n++ })
	}
	ix.dfMu.Lock()
	ix.df[term] = n
	ix.dfMu.Unlock()
	return n
}

// Len is the number of live documents.
func (ix *Index) Len() int {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return ix.live
}

// Add indexes a document under id, replacing any live document with that
// id. columns must have one text per weight.
func (ix *Index) Add(id int64, columns ...string) {
	type occ struct{ col, pos uint32 }
	occs := map[string][]occ{}
	var order []string
	var length int32
	for c, text := range columns {
		pos := uint32(0)
		porter.Each(text, func(term []byte) {
			list, ok := occs[string(term)]
			if !ok {
				order = append(order, string(term))
			}
			occs[string(term)] = append(list, occ{uint32(c), pos})
			pos++
		})
		length += int32(pos)
	}
	ix.mu.Lock()
	defer ix.mu.Unlock()
	ix.delete(id, nil)
	slot := uint32(ix.slots())
	ix.docs = append(ix.docs, doc{id: id, length: length})
	ix.slotOf[id] = slot
	ix.live++
	ix.tokens += int64(length)
	for _, term := range order {
		list := occs[term]
		p := ix.terms[term]
		delta := slot
		if len(p) > 0 {
			delta = slot - ix.last[term]
		}
		p = binary.AppendUvarint(p, uint64(delta))
		p = binary.AppendUvarint(p, uint64(len(list)))
		for _, o := range list {
			p = binary.AppendUvarint(p, uint64(o.col))
			p = binary.AppendUvarint(p, uint64(o.pos))
		}
		ix.terms[term] = p
		ix.last[term] = slot
		if n, ok := ix.df[term]; ok {
			ix.df[term] = n + 1
		}
	}
}

// Delete removes the live document with id, if any.
func (ix *Index) Delete(id int64) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	ix.delete(id, nil)
}

// DeleteText is Delete given the document's columns, as they were added:
// deleting a document of an opened segment then keeps its terms'
// document counts without counting postings.
func (ix *Index) DeleteText(id int64, columns ...string) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	ix.delete(id, columns)
}

func (ix *Index) delete(id int64, columns []string) {
	slot, ok := ix.slotOf[id]
	if !ok {
		ix.deleteBase(id, columns)
		return
	}
	d := &ix.docs[slot-ix.nBase]
	d.dead = true
	clear(ix.df)
	delete(ix.slotOf, id)
	ix.live--
	ix.tokens -= int64(d.length)
}

// deleteBase marks the base's document with id deleted, if it has one;
// columns, when given, are its text.
func (ix *Index) deleteBase(id int64, columns []string) {
	if ix.base == nil {
		return
	}
	slot, ok := ix.base.slotOf(id)
	if !ok || ix.baseDeleted(slot) {
		return
	}
	if columns == nil {
		ix.adjExact = false
	} else {
		seen := map[string]bool{}
		for _, text := range columns {
			porter.Each(text, func(term []byte) {
				if !seen[string(term)] {
					seen[string(term)] = true
				}
			})
		}
		if ix.baseAdj == nil {
			ix.baseAdj = map[string]int{}
		}
		for t := range seen {
			ix.baseAdj[t]++
		}
	}
	if ix.baseDead == nil {
		ix.baseDead = make([]uint64, (ix.nBase+63)/64)
	}
	ix.baseDead[slot/64] |= 1 << (slot % 64)
	clear(ix.df)
	ix.live--
	ix.tokens -= int64(ix.base.length(slot))
}

func (ix *Index) baseDeleted(slot uint32) bool {
	return ix.baseDead != nil && ix.baseDead[slot/64]&(1<<(slot%64)) != 0
}

// slots is the number of slots in use, the base's and the added ones.
func (ix *Index) slots() int { return int(ix.nBase) + len(ix.docs) }

// docAt returns the document in slot.
func (ix *Index) docAt(slot uint32) (id int64, length int32, dead bool) {
	if slot < ix.nBase {
		return ix.base.id(slot), ix.base.length(slot), ix.baseDeleted(slot)
	}
	d := ix.docs[slot-ix.nBase]
	return d.id, d.length, d.dead
}

// Dead is the number of deleted documents whose postings are still held;
// a caller rebuilds the index when they outweigh the live ones.
func (ix *Index) Dead() int {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return ix.slots() - ix.live
}

// Hit is a document and its score: FTS5's bm25() negated, so higher is
// better.
type Hit struct {
	ID    int64
	Score float64
}

// Phrases turns query words into phrases as FTS5 parses the quoted string
// `"word"`: the word's terms, in order. A word with no terms is dropped.
func Phrases(words []string) [][]string {
	var out [][]string
	for _, w := range words {
		if t := porter.Tokens(w); len(t) > 0 {
			out = append(out, t)
		}
	}
	return out
}

// Search scores every live document that matches any phrase and returns
// the best limit among those accept allows (nil allows all), best first;
// equal scores go by id. It also returns how many documents matched.
func (ix *Index) Search(phrases [][]string, limit int, accept func(id int64) bool) (hits []Hit, matched int) {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	if ix.live == 0 || limit <= 0 {
		return nil, 0
	}
	nRow := float64(ix.live)
	avgdl := float64(ix.tokens) / nRow
	// Each phrase's matches come in slot order: they are merged, a
	// document's score summed in phrase order as it is reached. No array
	// of every slot: a one-shot process would pay for it in page faults.
	var lists [][]slotFreq
	var idfs []float64
	for _, ph := range phrases {
		freqs := ix.phraseFreqs(ph)
		nHit := float64(len(freqs))
		if nHit == 0 {
			continue
		}
		idf := math.Log((nRow - nHit + 0.5) / (nHit + 0.5))
		if idf <= 0 {
			idf = 1e-6
		}
		lists, idfs = append(lists, freqs), append(idfs, idf)
	}
	// The best limit accepted hits, kept in a min-heap: sorting every
	// match costs more than scoring it.
	top := make(hitHeap, 0, limit)
	pos := make([]int, len(lists))
	for {
		next := uint32(math.MaxUint32)
		for i, l := range lists {
			if pos[i] < len(l) && l[pos[i]].slot < next {
				next = l[pos[i]].slot
			}
		}
		if next == math.MaxUint32 {
			break
		}
		id, length, _ := ix.docAt(next)
		D := float64(length)
		score := 0.0
		for i, l := range lists {
			if pos[i] < len(l) && l[pos[i]].slot == next {
				f := l[pos[i]].freq
				score += idfs[i] * ((f * (k1 + 1)) / (f + k1*(1-b+b*D/avgdl)))
				pos[i]++
			}
		}
		matched++
		h := Hit{id, score}
		if len(top) == limit && !better(h, top[0]) {
			continue
		}
		if accept != nil && !accept(h.ID) {
			continue
		}
		if len(top) < limit {
			top.push(h)
		} else {
			top[0] = h
			top.down(0)
		}
	}
	slices.SortFunc(top, func(x, y Hit) int {
		if better(x, y) {
			return -1
		}
		return 1
	})
	return top, matched
}

// better orders hits: higher score first, then lower id.
func better(x, y Hit) bool {
	if x.Score != y.Score {
		return x.Score > y.Score
	}
	return x.ID < y.ID
}

// hitHeap is a min-heap by better: its root is the worst hit kept.
type hitHeap []Hit

func (h *hitHeap) push(x Hit) {
	*h = append(*h, x)
	s := *h
	for i := len(s) - 1; i > 0; {
		p := (i - 1) / 2
		if !better(s[p], s[i]) {
			break
		}
		s[p], s[i] = s[i], s[p]
		i = p
	}
}

func (h hitHeap) down(i int) {
	for {
		l, r, worst := 2*i+1, 2*i+2, i
		if l < len(h) && better(h[worst], h[l]) {
			worst = l
		}
		if r < len(h) && better(h[worst], h[r]) {
			worst = r
		}
		if worst == i {
			return
		}
		h[i], h[worst] = h[worst], h[i]
		i = worst
	}
}

type slotFreq struct {
	slot uint32
	freq float64 // weighted count of the phrase's occurrences
}

// decode walks a term's postings, the base's then the added documents',
// skipping deleted documents.
func (ix *Index) decode(term string, fn func(slot uint32, occ []uint64)) {
	var occ []uint64
	if ix.base != nil {
		occ = walkPostings(ix.base.postings(term), ix.nBase, occ, func(slot uint32, occ []uint64) {
			if !ix.baseDeleted(slot) {
				fn(slot, occ)
			}
		})
	}
	walkPostings(ix.terms[term], uint32(ix.slots()), occ, func(slot uint32, occ []uint64) {
		if !ix.docs[slot-ix.nBase].dead {
			fn(slot, occ)
		}
	})
}

// walkPostings decodes a postings list (slot deltas from 0, so the first
// is the slot itself), reusing occ; it returns occ for reuse. It stops at
// the first posting that does not decode or names a slot at or past
// limit: a damaged segment must not crash a query.
func walkPostings(p []byte, limit uint32, occ []uint64, fn func(slot uint32, occ []uint64)) []uint64 {
	var slot uint64
	for i := 0; i < len(p); {
		d, n := binary.Uvarint(p[i:])
		if n <= 0 {
			return occ
		}
		i += n
		slot += d
		cnt, n := binary.Uvarint(p[i:])
		if n <= 0 || slot >= uint64(limit) || cnt > uint64(len(p)) {
			return occ
		}
		i += n
		occ = occ[:0]
		for range cnt {
			c, n := binary.Uvarint(p[i:])
			if n <= 0 {
				return occ
			}
			i += n
			pos, m := binary.Uvarint(p[i:])
			if m <= 0 {
				return occ
			}
			i += m
			occ = append(occ, c<<32|pos&0xffffffff)
		}
		fn(uint32(slot), occ)
	}
	return occ
}

// phraseFreqs returns, for every live document containing the phrase, its
// occurrences weighted by column, as FTS5's bm25 adds them up.
func (ix *Index) phraseFreqs(ph []string) []slotFreq {
	var out []slotFreq
	if len(ph) == 1 {
		if ix.base != nil {
			out = make([]slotFreq, 0, ix.base.docCount(ph[0])+len(ix.terms[ph[0]])/4)
		}
		ix.decode(ph[0], func(slot uint32, occ []uint64) {
			f := 0.0
			for _, o := range occ {
				f += ix.weight(int(o >> 32))
			}
			out = append(out, slotFreq{slot, f})
		})
		return out
	}
	// Several terms: the documents holding all of them, then the positions
	// where they follow each other. Start from the rarest term.
	sets := make([]map[uint32][]uint64, len(ph))
	for i, t := range ph {
		sets[i] = map[uint32][]uint64{}
		ix.decode(t, func(slot uint32, occ []uint64) {
			if i > 0 {
				if _, ok := sets[0][slot]; !ok {
					return
				}
			}
			sets[i][slot] = slices.Clone(occ)
		})
	}
	for slot, first := range sets[0] {
		f := 0.0
	next:
		for _, o := range first {
			for j := 1; j < len(ph); j++ {
				if _, ok := slices.BinarySearch(sets[j][slot], o+uint64(j)); !ok {
					continue next
				}
			}
			f += ix.weight(int(o >> 32))
		}
		if f > 0 {
			out = append(out, slotFreq{slot, f})
		}
	}
	slices.SortFunc(out, func(x, y slotFreq) int { return int(x.slot) - int(y.slot) })
	return out
}

func (ix *Index) weight(col int) float64 {
	if col < len(ix.weights) {
		return ix.weights[col]
	}
	return 1
}
