package recall

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"time"

	"memoria/memory"
	"memoria/sqlite"
)

// DefaultK is how many results recall returns unless told otherwise.
const DefaultK = 25

// Index is what recall needs of the derived index.
type Index interface {
	Search(ctx context.Context, match string, f sqlite.Filter, limit int) ([]sqlite.Hit, error)
	Items(ctx context.Context, f sqlite.Filter, newest bool, limit int) ([]sqlite.Item, error)
	Adjacent(ctx context.Context, it sqlite.Item) (prev, next *sqlite.Item, err error)
	TermStats(ctx context.Context, words []string) ([]sqlite.TermStat, int, error)
}

// Plan is a query made concrete for the index: which terms, which filter,
// how many results and how much text.
type Plan struct {
	Terms   []string          // lexical terms, OR-ed
	Filter  sqlite.Filter     // hard constraints: window, kinds, entities
	Window  *memory.TimeRange // soft: the time the query text speaks of; items in it rank higher
	K       int               // results wanted (DefaultK if 0)
	Lines   int               // a passage is widened with its neighbours up to this many lines (DefaultLines if 0; 1 = never)
	Budget  int               // token budget for all results (0: none)
	Explain bool              // attach per-result explanations
}

// candidate is an item as ranked by one or more channels.
type candidate struct {
	item  sqlite.Item
	ranks map[string]int
	raw   map[string]float64
}

// Run executes a plan: run the channels, fuse their rankings, pack.
func Run(ctx context.Context, ix Index, p Plan) ([]Result, error) {
	k := p.K
	if k <= 0 {
		k = DefaultK
	}
	pool := map[int64]*candidate{}
	var order []int64
	add := func(channel string, rank int, it sqlite.Item, raw float64) {
		c, ok := pool[it.RowID]
		if !ok {
			c = &candidate{item: it, ranks: map[string]int{}, raw: map[string]float64{}}
			pool[it.RowID] = c
			order = append(order, it.RowID)
		}
		if _, seen := c.ranks[channel]; !seen {
			c.ranks[channel] = rank
			c.raw[channel] = raw
		}
	}
	depth := max(4*k, 100)
	windowed := p.Filter
	if p.Window != nil {
		windowed.Since, windowed.Until = intersect(p.Filter, *p.Window)
	}
	terms, err := planTerms(ctx, ix, p.Terms)
	if err != nil {
		return nil, err
	}
	if len(p.Terms) > 0 && len(terms) == 0 {
		return nil, nil // words were asked for and no item has any of them
	}
	if len(terms) > 0 {
		match := sqlite.MatchAny(terms)
		hits, err := ix.Search(ctx, match, p.Filter, depth)
		if err != nil {
			return nil, fmt.Errorf("recall: lexical: %w", err)
		}
		for i, h := range hits {
			add("lexical", i+1, h.Item, h.Score)
		}
		if p.Window != nil {
			// Temporal channel: the same words, within the time the query
			// speaks of. Fusion lifts what is in both.
			hits, err := ix.Search(ctx, match, windowed, depth)
			if err != nil {
				return nil, fmt.Errorf("recall: temporal: %w", err)
			}
			for i, h := range hits {
				add("temporal", i+1, h.Item, h.Score)
			}
		}
	} else {
		// Nothing to search for: list what the filter and the time selects,
		// newest first ("what happened since last week", "@Peter").
		items, err := ix.Items(ctx, windowed, true, depth)
		if err != nil {
			return nil, fmt.Errorf("recall: listing: %w", err)
		}
		for i, it := range items {
			add("recent", i+1, it, 0)
		}
	}
	cands := make([]*candidate, 0, len(order))
	for _, id := range order {
		cands = append(cands, pool[id])
	}
	ranked := fuse(cands)
	lines := p.Lines
	if lines <= 0 {
		lines = DefaultLines
	}
	return pack(ctx, ix, ranked, k, lines, p.Budget, p.Explain)
}

// MaxScanRows bounds the rows one full-text query may have to score: FTS5
// ranks every row an OR-query matches, and common words match most of a
// large index. Words are kept rarest first until their rows add up to this.
const MaxScanRows = 4000

// planTerms chooses the words worth searching for. Words in more than half
// of the items go: bm25 gives them no weight (FTS5 floors their IDF), so
// they only make rows match. The rest are kept rarest first within
// MaxScanRows; the rarest always stays. Words no item contains cost
// nothing and go too.
func planTerms(ctx context.Context, ix Index, words []string) ([]string, error) {
	if len(words) == 0 {
		return nil, nil
	}
	stats, total, err := ix.TermStats(ctx, words)
	if err != nil {
		return nil, fmt.Errorf("recall: plan: %w", err)
	}
	var useful, common []sqlite.TermStat
	for _, s := range stats {
		switch {
		case s.Rows > 0 && 2*s.Rows <= total:
			useful = append(useful, s)
		case s.Rows > 0:
			common = append(common, s)
		}
	}
	if len(useful) == 0 && len(common) > 0 {
		// Only common words: search for the rarest of them, which still
		// ranks by how often and how densely it occurs.
		sort.SliceStable(common, func(i, j int) bool { return common[i].Rows < common[j].Rows })
		useful = common[:1]
	}
	sort.SliceStable(useful, func(i, j int) bool { return useful[i].Rows < useful[j].Rows })
	var terms []string
	scan := 0
	for _, s := range useful {
		if len(terms) > 0 && scan+s.Rows > MaxScanRows {
			break
		}
		scan += s.Rows
		terms = append(terms, s.Word)
	}
	return terms, nil
}

// intersect narrows a filter's hard window with a soft one; the result may
// be empty (Since after Until), which then selects nothing.
func intersect(f sqlite.Filter, w memory.TimeRange) (since, until time.Time) {
	since, until = w.Start, w.End
	if !f.Since.IsZero() && f.Since.After(since) {
		since = f.Since
	}
	if !f.Until.IsZero() && (until.IsZero() || f.Until.Before(until)) {
		until = f.Until
	}
	return since, until
}

// rrfK is reciprocal-rank fusion's constant (Cormack et al. 2009; 60 is
// the customary value): a channel's rank r contributes 1/(rrfK+r).
const rrfK = 60

// Boosts: small, named, multiplicative.
const (
	boostTypedFact = 1.10 // a typed, curated fact over a raw passage
)

type scored struct {
	c      *candidate
	score  float64
	boosts map[string]float64
}

func fuse(cands []*candidate) []scored {
	out := make([]scored, 0, len(cands))
	for _, c := range cands {
		s := 0.0
		for _, r := range c.ranks {
			s += 1.0 / float64(rrfK+r)
		}
		boosts := map[string]float64{}
		if c.item.Kind.IsFact() {
			boosts["typed_fact"] = boostTypedFact
		}
		for _, b := range boosts {
			s *= b
		}
		out = append(out, scored{c: c, score: s, boosts: boosts})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].score > out[j].score })
	return out
}

// DefaultLines is how many lines a passage result spans at most once
// widened with its neighbours. Passages are indexed small (precise ranking)
// and returned with the lines around them (the context an agent needs to
// read them): "small to big". Measured on the development set, see
// docs/recall.md.
const DefaultLines = 3

// pack takes the best results in order, widens passages with their
// neighbours, drops duplicates (the same fact cited twice, or lines already
// covered by a better result), and stops at k results or when the token
// budget is spent.
func pack(ctx context.Context, ix Index, ranked []scored, k, lines, budget int, explain bool) ([]Result, error) {
	var out []Result
	seenFacts := map[string]bool{}
	var cited []memory.Source
	byRow := make(map[int64]float64, len(ranked))
	for _, s := range ranked {
		byRow[s.c.item.RowID] = s.score
	}
	spent := 0
	top := 0.0
	if len(ranked) > 0 {
		top = ranked[0].score
	}
	for _, s := range ranked {
		if len(out) >= k {
			break
		}
		it := s.c.item
		if it.FactID != "" {
			if seenFacts[it.FactID] {
				continue
			}
			seenFacts[it.FactID] = true
		}
		if overlapsAny(cited, it.Source) {
			continue
		}
		if it.Kind == memory.KindPassage && it.Source.Lines() < lines {
			var err error
			if it, err = widen(ctx, ix, it, lines, byRow); err != nil {
				return nil, err
			}
		}
		r := toResult(it)
		if top > 0 {
			r.Score = round3(s.score / top)
		}
		if explain {
			r.Explain = &Explain{Channels: s.c.ranks, Boosts: s.boosts, Fused: s.score}
		}
		cost := EstimateTokens(r)
		if budget > 0 && spent+cost > budget {
			continue // does not fit; a smaller, lower-ranked result may
		}
		spent += cost
		cited = append(cited, it.Source)
		out = append(out, r)
	}
	return out, nil
}

// widen grows a passage, one neighbour at a time, with the passage right
// before or after it while it stays within max lines; the content stays
// exactly the cited lines. It grows towards the neighbour that itself
// ranked higher for the query (score holds the fused scores by row), so
// the context it adds is the part most likely to matter; between equals,
// it grows backwards first (the question before an answer).
func widen(ctx context.Context, ix Index, it sqlite.Item, max int, score map[int64]float64) (sqlite.Item, error) {
	for it.Source.Lines() < max {
		prev, next, err := ix.Adjacent(ctx, it)
		if err != nil {
			return it, fmt.Errorf("recall: context: %w", err)
		}
		if prev != nil && it.Source.Lines()+prev.Source.Lines() > max {
			prev = nil
		}
		if next != nil && it.Source.Lines()+next.Source.Lines() > max {
			next = nil
		}
		switch {
		case prev != nil && (next == nil || score[prev.RowID] >= score[next.RowID]):
			it.Source.Start = prev.Source.Start
			it.Content = prev.Content + "\n" + it.Content
			it.Entities = mergeEntities(prev.Entities, it.Entities)
		case next != nil:
			it.Source.End = next.Source.End
			it.Content = it.Content + "\n" + next.Content
			it.Entities = mergeEntities(it.Entities, next.Entities)
		default:
			return it, nil
		}
	}
	return it, nil
}

func mergeEntities(a, b []string) []string {
	out := append([]string(nil), a...)
	for _, e := range b {
		if !slices.Contains(out, e) {
			out = append(out, e)
		}
	}
	return out
}

func overlapsAny(list []memory.Source, s memory.Source) bool {
	for _, c := range list {
		if c.Overlaps(s) {
			return true
		}
	}
	return false
}

func round3(f float64) float64 { return float64(int(f*1000+0.5)) / 1000 }

func toResult(it sqlite.Item) Result {
	r := Result{
		ID:         it.FactID,
		Kind:       it.Kind,
		Entities:   it.Entities,
		Content:    it.Content,
		Confidence: it.Confidence,
		Source:     it.Source.String(),
		src:        it.Source,
	}
	if r.Entities == nil {
		r.Entities = []string{}
	}
	if r.ID == "" {
		r.ID = PassageID(it.Source.Path, it.Content)
	}
	if !it.Written.IsZero() {
		r.Timestamp = it.Written.Format("2006-01-02")
	}
	if it.Event != nil {
		r.EventTime = &EventTime{Start: it.Event.Start.Format("2006-01-02"), End: it.Event.End.Format("2006-01-02")}
	}
	return r
}
