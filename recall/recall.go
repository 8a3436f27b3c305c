package recall

import (
	"context"

	"memoria/memory"
	"memoria/query"
)

// DefaultK is how many results recall returns unless told otherwise.
const DefaultK = 25

// Index is what recall needs of the derived index (memory.Store).
type Index interface {
	Search(ctx context.Context, terms []string, f memory.Filter, limit int) ([]memory.Hit, error)
	Items(ctx context.Context, f memory.Filter, newest bool, limit int) ([]memory.Item, error)
	Nearby(ctx context.Context, items []memory.Item, n int) (map[int64][]memory.Item, error)
	TermStats(ctx context.Context, words []string) ([]memory.TermStat, int, error)
	EntityItems(ctx context.Context, slugs []string, f memory.Filter, limit int) ([]memory.EntityItem, error)
	NearestItems(ctx context.Context, q []float32, f memory.Filter, limit int) ([]memory.Hit, error)
}

// Plan is what recall is asked: the question as the parser read it, and
// how to answer it (the hard filter from the caller's flags, the query's
// embedding, how many results and how much text).
type Plan struct {
	// Query is what the question asks, as query.Parse read it: its words
	// and quoted phrases, the entities it names, the time it speaks of
	// (Window, Around, Browse, or an event Anchor recall places), what it
	// asks for (Intent, Quantity, Choice) and its "now" (zero: every
	// question is about the present). Run reads it as it is; its Kinds
	// filter what is searched unless Filter names kinds.
	query.Query

	topic topicWords // the query's own topic words, set by Run for the features
	rare  topicWords // its rare word, if it has one (planTerms), set by Run for the features
	heavy topicWords // its topic words that are not light verbs (Floor)
	near  float64    // the ranker's Near, set by Run (0: semanticFloor; see nearCosine)

	// Filter holds the hard constraints the caller gives (--since,
	// --until, --kind, --entity); the time the question's text speaks of
	// is Query.Window, which only ranks what falls in it higher.
	Filter memory.Filter
	// Vector is the query's embedding (a unit vector from the model the
	// index's vectors came from); nil turns the semantic channel off.
	Vector []float32
	// Model names the embedding model Vector came from: the ranker is the
	// one fitted for its semantic channel ("" with no vector: lexical).
	Model string
	// Ranker, when set, scores the candidates instead of the fitted ranker
	// for Model (FittedRanker): the fit's cross-validation scores a set
	// with weights fitted without it.
	Ranker *Ranker
	// Candidates, when set, receives the candidate pool with each
	// candidate's features before packing (what `go run ./recall/fit`
	// fits the weights on).
	Candidates func([]Candidate)
	K          int  // results wanted (DefaultK if 0)
	Lines      int  // a passage is widened with its neighbours up to this many lines (DefaultLines if 0; 1 = never)
	Budget     int  // token budget for all results (0: none)
	Explain    bool // attach per-result explanations
	// Floor keeps only candidates that are about the query: they say one
	// of its own words, or come from the entity or opinion channel of an
	// entity it names, or lie near it in meaning (Ranker.Near), or hold
	// now (the ongoing channel). A query with no words of its own ("tell
	// me about Ana", "what happened last week") has no floor. Context sets
	// it: a turn's context is better empty than filled with the best of
	// nothing.
	Floor bool
}

// semanticFloor is the cosine from which a semantic neighbour counts as
// near in meaning for a model the fit has not calibrated (Ranker.Near):
// that of Universal Sentence Encoder Lite's scale, on which most models
// served over HTTP put unrelated statements below it.
const semanticFloor = 0.45

// nearCosine is the cosine from which a semantic neighbour is near in
// meaning: the ranker's Near, or semanticFloor for a plan Run has not
// scored.
func (p Plan) nearCosine() float64 {
	if p.near > 0 {
		return p.near
	}
	return semanticFloor
}

// pastWindow reports whether the plan asks about a window that ended
// before today: what was true then, not now.
func (p Plan) pastWindow() bool {
	return p.Window != nil && !p.Now.IsZero() && p.Window.End.Before(memory.Day(p.Now))
}

// candidate is an item as ranked by one or more channels.
type candidate struct {
	item   memory.Item
	onPage bool // on the page of an entity the query names
	listed bool // ranked by the entity listing ("tell me about X")
	// entityWeight weighs the entity channel's vote for a search hit: its
	// bm25 relative to the best lexical hit, so that a fact about the
	// entity that matches only the query's weak words does not outvote
	// the passage that matches its rare ones.
	entityWeight float64
	ranks        map[string]int
	raw          map[string]float64
	words        *textWords // its content's words, cut at the first need (text)
}

// text returns the candidate's words, cut once.
func (c *candidate) text() textWords {
	if c.words == nil {
		tw := wordsOf(c.item.Content)
		c.words = &tw
	}
	return *c.words
}

// pool collects candidates from the channels, in first-seen order.
type pool struct {
	byRow map[int64]*candidate
	order []int64
}

func newPool() *pool { return &pool{byRow: map[int64]*candidate{}} }

// add records an item's rank in a channel; the first rank a channel gives
// an item is kept.
func (pl *pool) add(channel string, rank int, it memory.Item, raw float64) *candidate {
	c, ok := pl.byRow[it.RowID]
	if !ok {
		c = &candidate{item: it, ranks: map[string]int{}, raw: map[string]float64{}}
		pl.byRow[it.RowID] = c
		pl.order = append(pl.order, it.RowID)
	}
	if _, seen := c.ranks[channel]; !seen {
		c.ranks[channel] = rank
		c.raw[channel] = raw
	}
	return c
}

func (pl *pool) list() []*candidate {
	out := make([]*candidate, 0, len(pl.order))
	for _, id := range pl.order {
		out = append(out, pl.byRow[id])
	}
	return out
}

// Channel depths: how many items each channel may contribute.
const (
	// poolDepth is how many items each ranked channel contributes to the
	// pool, whatever k.
	poolDepth = 100
	// entityDepth bounds the items listed for the query's entities: their
	// page lines and typed facts, which also feed update-awareness.
	entityDepth = 400
	// updateDepth bounds the facts read for update-awareness when the
	// query names no entity.
	updateDepth = 200
	// browseDepth bounds the items listed for a window when browsing.
	browseDepth = 600
)

// Run answers a plan in stages: place the question's window and choose
// its terms (newSearch), run the channels into one pool (channels), link
// the versions of facts (linkVersions), score each candidate's features
// with the ranker (score), and pack the best results.
func Run(ctx context.Context, ix Index, p Plan) ([]Result, error) {
	ranker := p.Ranker
	if ranker == nil {
		ranker = FittedRanker(p.Model)
	}
	if err := ranker.Check(); err != nil {
		return nil, err
	}
	s, err := newSearch(ctx, ix, p)
	if err != nil || s == nil {
		return nil, err
	}
	if err := s.channels(ctx); err != nil {
		return nil, err
	}
	if err := s.linkVersions(ctx); err != nil {
		return nil, err
	}
	ranked := s.score(ranker)
	lines := p.Lines
	if lines <= 0 {
		lines = DefaultLines
	}
	return pack(ctx, ix, ranked, ranker, s.links, s.k, lines, p.Budget, p.Explain)
}
