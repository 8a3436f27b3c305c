package recall

import (
	"math"
	"slices"
	"time"

	"memoria/change"
	"memoria/memory"
)

// Update-awareness. A later fact about the same entity and attribute
// supersedes an earlier one (the rules: change.Sig). It is decided at
// query time over the best candidate facts and the facts known about the
// query's entities (one query, sqlite.EntityItems): supersede links them,
// linkProseChanges links a curated statement to a later log line that
// says it changed, and injectVersions brings the other version of a fact
// into the pool. The superseded and current features apply only when both
// versions are candidates, so a loose link cannot move a result on its
// own.

// factSig is a fact as supersession links it: its signature, and what the
// ranking reads of it (features, pack).
type factSig struct {
	sig  change.Sig
	it   memory.Item // sig.Item()
	when time.Time   // sig.When(): its time in the order of versions
	asOf time.Time   // sig.AsOf(), once dateCurated has dated it
	pool int         // its place among the compared candidates; -1 when not one
}

func newFactSig(sig change.Sig) *factSig {
	return &factSig{sig: sig, it: sig.Item(), when: sig.When(), asOf: sig.AsOf(), pool: -1}
}

// signature makes the signature of an item.
func signature(it memory.Item) *factSig { return newFactSig(change.NewSig(it)) }

// dateCurated dates each curated line that repeats a dated one of its
// entities (change.Sig.DateBy).
func dateCurated(sigs map[int64]*factSig, byEntity map[string][]*factSig) {
	for _, c := range sigs {
		if !c.sig.Curated() {
			continue
		}
		for _, k := range c.sig.Keys() {
			for _, d := range byEntity[k] {
				c.sig.DateBy(d.sig)
			}
		}
		c.asOf = c.sig.AsOf()
	}
}

// attributeCues map words to the attribute they name (change.Cues), for
// the words of a question.
var attributeCues = change.Cues()

// links are the supersession links found for one query.
type links struct {
	sig  map[int64]*factSig
	next map[int64][]int64 // row → rows of the facts that supersede it
	prev map[int64][]int64 // row → rows of the facts it supersedes
}

// superseded reports whether row has a successor.
func (l *links) superseded(row int64) bool { return len(l.next[row]) > 0 }

// validAt reports whether the fact in row was the current one at some day
// of the window: it dates from before the window ends and no successor
// dates from before the window starts.
func (l *links) validIn(row int64, w memory.TimeRange) bool {
	s := l.sig[row]
	if s == nil || s.when.After(w.End) {
		return false
	}
	for _, n := range l.next[row] {
		if !l.sig[n].when.After(w.Start) {
			return false
		}
	}
	return true
}

// compareDepth is how many of the best candidate facts (by RRF) are
// compared with the others and with the known facts.
const compareDepth = 30

// supersede links the best candidate facts with each other and with the
// known facts of their entities. Only pairs with at least one of the
// compareDepth best candidate facts are compared.
//
// mentions, when set, gives the entity keys a line of prose names (the
// query's entities, found by name in its text): log lines carry no entity
// of their own.
func supersede(cands []*candidate, known []memory.Item, mentions func(string) []string) *links {
	l := &links{sig: map[int64]*factSig{}, next: map[int64][]int64{}, prev: map[int64][]int64{}}
	byEntity := map[string][]*factSig{}
	addSig := func(it memory.Item) *factSig {
		if s, ok := l.sig[it.RowID]; ok {
			return s
		}
		s := signature(it)
		l.sig[it.RowID] = s
		for _, k := range s.sig.Keys() {
			byEntity[k] = append(byEntity[k], s)
		}
		return s
	}
	// Only the best candidates can reach the results: compare those.
	best := byRRF(cands)
	var pool []*factSig
	for _, c := range best {
		if len(pool) >= compareDepth {
			break
		}
		if keyed(c.item) {
			if s := addSig(c.item); len(s.sig.Keys()) > 0 {
				s.pool = len(pool)
				pool = append(pool, s)
				continue
			}
		}
		if s := proseSig(c.item, mentions); s != nil {
			if _, ok := l.sig[c.item.RowID]; !ok {
				l.sig[c.item.RowID] = s
				for _, k := range s.sig.Keys() {
					byEntity[k] = append(byEntity[k], s)
				}
			}
			s = l.sig[c.item.RowID]
			s.pool = len(pool)
			pool = append(pool, s)
		}
	}
	for _, it := range known {
		if keyed(it) {
			addSig(it)
		}
	}
	dateCurated(l.sig, byEntity)
	// Each pair once: a pair of two compared candidates is taken from
	// the earlier one's side, and a pair sharing several entities at the
	// first of a's.
	for _, a := range pool {
		keys := a.sig.Keys()
		for i, k := range keys {
			for _, b := range byEntity[k] {
				if a == b || b.pool >= 0 && b.pool < a.pool || shareKey(keys[:i], b.sig.Keys()) {
					continue
				}
				l.linkPair(a, b)
			}
		}
	}
	return l
}

// linkPair links two facts of a shared entity when one supersedes the
// other.
func (l *links) linkPair(a, b *factSig) {
	if !a.sig.SameAttribute(b.sig) {
		// Prose is only ever replaced by a later log line that says so; it
		// never supersedes a log line itself.
		if a.sig.ProsePair(b.sig) {
			log, cur := a, b
			if a.sig.Curated() {
				log, cur = b, a
			}
			if log.sig.ReplacesCurated(cur.sig) {
				l.link(cur.it.RowID, log.it.RowID)
			}
		}
		return
	}
	switch {
	case a.sig.Supersedes(b.sig):
		l.link(b.it.RowID, a.it.RowID)
	case b.sig.Supersedes(a.sig):
		l.link(a.it.RowID, b.it.RowID)
	}
}

// keyed reports whether a fact may have the keys supersession compares
// by: its entities, or the subject an entity-less world fact opens with.
func keyed(it memory.Item) bool {
	return change.Supersedable(it.Kind) && (len(it.Entities) > 0 || it.Kind == memory.KindWorld)
}

// proseSig is the signature of a line of prose that takes part (see
// change.Sig.ProsePair), or nil: a curated line with an entity, or a log line that
// names one of the query's entities and states an attribute.
func proseSig(it memory.Item, mentions func(string) []string) *factSig {
	if it.Kind != memory.KindPassage {
		return nil
	}
	// The cheap tests first: most candidates of a query are passages that
	// take no part, and a signature costs a regexp and a word split.
	var keys []string
	if !it.Written.IsZero() { // a log line (see signature's order)
		if mentions == nil {
			return nil
		}
		if keys = mentions(it.Content); len(keys) == 0 {
			return nil
		}
	} else if len(it.Entities) == 0 {
		return nil
	}
	s := change.NewSigAbout(it, keys)
	if !s.NamesAttribute() {
		return nil
	}
	return newFactSig(s)
}

func (l *links) link(old, new int64) {
	l.next[old] = append(l.next[old], new)
	l.prev[new] = append(l.prev[new], old)
}

// injectVersions adds to the pool the other version of a fact the query
// should see: for a question about now, the current successor of a
// superseded candidate; for a past window, the predecessor that was true
// then of a candidate that came after. The added fact takes the best rank
// of the candidate it stands for, in the "update" channel.
func injectVersions(p Plan, pl *pool, l *links) {
	if len(l.next) == 0 {
		return
	}
	past := p.pastWindow()
	asked := cueSet{}
	for _, t := range p.Words {
		for _, w := range change.SplitWords(t) {
			if c, ok := attributeCues[w]; ok {
				asked[c] = true
			} else if c, ok := attributeCues[change.Stem(w)]; ok {
				asked[c] = true
			}
		}
	}
	for _, c := range pl.list() {
		best := bestRank(c)
		if best > injectDepth {
			continue
		}
		row := c.item.RowID
		if !past {
			// The current version takes the outdated one's best rank.
			// One a channel found too takes it only when the question
			// names the attribute that changed (a log line that says "she
			// has moved to Linz" shares few words with "where does she
			// live?", and a question about where she lives is no question
			// about her car, which changed too).
			for _, n := range l.next[row] {
				_, in := pl.byRow[n]
				if !l.superseded(n) && (!in || asked.any(l.sig[n].sig)) {
					pl.add("update", best, l.sig[n].it, 0)
				}
			}
			continue
		}
		if l.sig[row] == nil || !l.sig[row].when.After(p.Window.End) {
			continue
		}
		for _, o := range l.prev[row] {
			if _, in := pl.byRow[o]; !in && l.validIn(o, *p.Window) {
				pl.add("update", best, l.sig[o].it, 0)
			}
		}
	}
}

// cueSet is a set of attribute classes (attributeCues).
type cueSet map[string]bool

// any reports whether the fact names one of the attributes by a cue.
func (s cueSet) any(sig change.Sig) bool {
	for c := range s {
		if sig.HasCue(c) {
			return true
		}
	}
	return false
}

// injectDepth is the worst channel rank at which a candidate brings in
// its other version.
const injectDepth = 10

func bestRank(c *candidate) int {
	best := math.MaxInt
	for _, r := range c.ranks {
		best = min(best, r)
	}
	return best
}

// Versions turns items into results, linking each typed fact to the facts
// among items that supersede it (SupersededBy) and that it supersedes
// (Supersedes), by the rules of update-awareness above. Results keep the
// order of items.
func Versions(items []memory.Item) []Result {
	cands := make([]*candidate, len(items))
	for i, it := range items {
		cands[i] = &candidate{item: it}
	}
	l := supersede(cands, nil, nil)
	out := make([]Result, len(items))
	for i, it := range items {
		out[i] = toResult(it)
		l.linkResult(&out[i], it.RowID)
	}
	return out
}

// linkResult links the result of the fact in row to the versions that
// supersede it and those it supersedes.
func (l *links) linkResult(r *Result, row int64) {
	for _, n := range l.next[row] {
		r.SupersededBy = append(r.SupersededBy, linkTo(l.sig[n].it))
	}
	for _, o := range l.prev[row] {
		r.Supersedes = append(r.Supersedes, linkTo(l.sig[o].it))
	}
}

// shareKey reports whether two facts' entity keys have one in common.
func shareKey(a, b []string) bool {
	return slices.ContainsFunc(a, func(k string) bool { return slices.Contains(b, k) })
}
