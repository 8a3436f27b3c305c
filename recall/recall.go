package recall

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"time"

	"memoria/datephrase"
	"memoria/lang"
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

// Plan is a query made concrete for the index: which terms, which filter,
// which soft signals (window, entities, intent), how many results and how
// much text.
type Plan struct {
	topic topicWords // the query's own topic words, set by Run for the features
	rare  topicWords // its rare word, if it has one (planTerms), set by Run for the features
	heavy topicWords // its topic words that are not light verbs (Floor)

	Terms  []string          // lexical terms, OR-ed
	Filter memory.Filter     // hard constraints: window, kinds, entities
	Window *memory.TimeRange // soft: the time the query text speaks of; items in it rank higher
	// Phrases are the query's quoted phrases, each its words joined by
	// spaces (a quoted word is a phrase of one). Their words are searched
	// as Terms are, and the phrase channel ranks the items that hold a
	// phrase: its words adjacent and in order, as the index cuts them.
	Phrases []string
	// Around is the day the query points near ("around Oct 14"): the
	// temporal channel ranks by distance to it.
	Around *time.Time
	// Browse says the words carry no topic ("what happened last week"):
	// the temporal channel then lists the window day by day instead of
	// searching it.
	Browse bool
	// Entities are the entities the query names (slugs, explicit or
	// implicit): the entity channel ranks what is known about them.
	Entities []string
	// NameWords are the words of the query that name those entities; the
	// entity and opinion channels search without them, since every item
	// linked to an entity carries its name.
	NameWords []string
	// Intent weighs the channels: About puts the entity page first,
	// Opinion runs the opinion channel, Current asks for recency.
	Intent query.Intent
	// Quantity says the question asks for an amount ("how many", "how
	// long"): candidates that state a number have the quantity feature.
	Quantity bool
	// Choice says the question asks what was chosen or why ("why did we
	// …", "what did we pick instead of …"): candidates that record a
	// choice or give a reason have the choice feature.
	Choice bool
	// Now is the query's "now"; a Window ending before its day makes the
	// query one about the past for update-awareness. Zero means unknown:
	// every query is about the present.
	Now time.Time
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
	// entity it names, or lie near it in meaning (semanticFloor), or hold
	// now (the ongoing channel). A query with no words of its own ("tell
	// me about Ana", "what happened last week") has no floor. Context sets
	// it: a turn's context is better empty than filled with the best of
	// nothing.
	Floor bool
}

// semanticFloor is the cosine from which a semantic neighbour counts as
// about the query under Plan.Floor (Universal Sentence Encoder Lite:
// paraphrases 0.5–0.7, unrelated statements 0.25–0.45).
const semanticFloor = 0.45

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

// Run executes a plan: run the channels into one pool, link the versions
// of facts, score each candidate's features with the ranker, pack.
func Run(ctx context.Context, ix Index, p Plan) ([]Result, error) {
	k := p.K
	if k <= 0 {
		k = DefaultK
	}
	pl := newPool()
	// The pool does not depend on k: the first n results are the same for
	// every k ≥ n. Only a listing without words (what a filter or a window
	// holds, in its own order) reaches deeper for a larger k.
	depth := poolDepth
	windowed := p.Filter
	if p.Window != nil {
		windowed.Since, windowed.Until = intersect(p.Filter, *p.Window)
	}
	// A quoted phrase's words are the question's words too: an item that
	// says them apart still answers it (after those that say the phrase,
	// which the phrase channel finds), and a phrase no item says leaves
	// the question as it would be without the quotes.
	asked := p.Terms
	for _, ph := range p.Phrases {
		for _, w := range strings.Fields(ph) {
			if !slices.Contains(asked, w) {
				asked = append(slices.Clip(asked), w)
			}
		}
	}
	// Alias expansion: an entity named by an alias ("Pete", "WA relay")
	// is also searched under its own name, which its facts carry in their
	// entities column.
	words := asked
	nameWords := p.NameWords
	for _, e := range p.Entities {
		for _, w := range strings.Fields(strings.ToLower(memory.EntityName(e))) {
			if !slices.Contains(words, w) {
				words = append(slices.Clip(words), w)
			}
			if !slices.Contains(nameWords, w) {
				nameWords = append(slices.Clip(nameWords), w)
			}
		}
	}
	// Words in other scripts also search under their alternative forms
	// (lang.AltTerms): CJK runs as bigrams, folds, stems.
	words, nameWords = withAltTerms(words), withAltTerms(nameWords)
	terms, rare, err := planTerms(ctx, ix, words)
	if err != nil {
		return nil, err
	}
	p.rare = topicOf(rare)
	if !anyContent(terms) && anyContent(words) {
		// The query's own words match nothing: its function words ("tell
		// me about Bob" when no item says Bob) would find lines that
		// share only "tell" or "about". Such lines are no answer.
		terms = nil
	}
	if len(asked) > 0 && len(terms) == 0 && len(p.Entities) == 0 && !p.Browse && len(p.Vector) == 0 && p.Window == nil {
		// Words were asked for and no item has any of them, and no other
		// channel has anything to go on. With a window (a question in a
		// language none of the logs is written in, "昨日の会議は？"), the
		// window is listed as a question without words lists it.
		return nil, nil
	}
	// The entity and opinion channels filter by entity, so the words that
	// name it would match every item they see.
	var topic []string
	for _, t := range terms {
		if !slices.Contains(nameWords, t) {
			topic = append(topic, t)
		}
	}
	topicTerms := topic
	if len(p.Entities) == 0 {
		topicTerms = terms
	}

	// Lexical channel: bm25 over every item (not when browsing a window:
	// the words then name no topic).
	lexTop := 0.0
	if len(terms) > 0 && !p.Browse {
		f := p.Filter
		if !anyContent(terms) {
			// Function words only ("what did we do", "is there anything
			// new"): bm25 orders their matches by how densely they use
			// such words, which says little; the newest of them are the
			// likelier answer, and fewer are scored.
			f.Scored = functionWordRows
		}
		hits, err := ix.Search(ctx, terms, f, depth)
		if err != nil {
			return nil, fmt.Errorf("recall: lexical: %w", err)
		}
		for i, h := range hits {
			pl.add("lexical", i+1, h.Item, h.Score)
		}
		if len(hits) > 0 {
			lexTop = hits[0].Score
		}
	}

	// Phrase channel: the items that say a quoted phrase, by bm25 over the
	// phrases. A channel of its own, not a lift of the lexical scores:
	// its ranks enter fusion as every channel's do, so an item that says
	// the phrase has the phrase channel's vote besides its words' (the
	// lexical channel's) and comes before those that say the words
	// apart, while a phrase nothing says changes nothing.
	if phrases := phraseTerms(p.Phrases); len(phrases) > 0 && !p.Browse {
		hits, err := ix.Search(ctx, phrases, p.Filter, depth)
		if err != nil {
			return nil, fmt.Errorf("recall: phrase: %w", err)
		}
		for i, h := range hits {
			pl.add("phrase", i+1, h.Item, h.Score)
		}
	}

	// Semantic channel: the items nearest the query's embedding, for
	// questions that share no words with their answer. Not for "who is X"
	// and "tell me about X" with no other topic: such an embedding says
	// little beyond the name, and its neighbours are lines about others;
	// the entity and lexical channels answer it exactly.
	if len(p.Vector) > 0 && !p.Browse && !(p.Intent == query.About && contentWords(topic) <= 1) {
		hits, err := ix.NearestItems(ctx, p.Vector, p.Filter, depth)
		if err != nil {
			return nil, fmt.Errorf("recall: semantic: %w", err)
		}
		for i, h := range hits {
			pl.add("semantic", i+1, h.Item, h.Score)
		}
	}

	// Temporal channel: what falls in the window the query speaks of.
	if p.Window != nil {
		if err := temporal(ctx, ix, p, pl, terms, windowed, depth); err != nil {
			return nil, err
		}
	} else if len(terms) == 0 && len(p.Entities) == 0 {
		// Nothing to search for: list what the filter selects, newest
		// first ("--since 7d" alone).
		items, err := ix.Items(ctx, p.Filter, true, max(k, depth))
		if err != nil {
			return nil, fmt.Errorf("recall: listing: %w", err)
		}
		for i, it := range items {
			pl.add("recent", i+1, it, 0)
		}
	}

	// Entity channel, which also gives update-awareness the facts it
	// compares.
	var known []memory.Item
	if len(p.Entities) > 0 {
		if known, err = entityChannel(ctx, ix, p, pl, topicTerms, topic, lexTop, depth); err != nil {
			return nil, err
		}
	}

	// Ongoing channel: for a question about now ("where is Ana right
	// now?"), the facts whose event range covers today ("in Lisbon Mar
	// 1–6"), most specific first. Their words rarely include the
	// question's.
	if p.Intent == query.Current && p.Window == nil && !p.Now.IsZero() {
		if err := ongoing(ctx, ix, p, pl, topic); err != nil {
			return nil, err
		}
	}

	// Opinion channel.
	if p.Intent == query.Opinion {
		if err := opinionChannel(ctx, ix, p, pl, topicTerms, known, depth); err != nil {
			return nil, err
		}
	}

	ranker := p.Ranker
	if ranker == nil {
		ranker = FittedRanker(p.Model)
	}
	if err := ranker.Check(); err != nil {
		return nil, err
	}

	// Update-awareness: link facts about the same entity and attribute.
	if len(p.Entities) == 0 && (p.Intent == query.Current || p.Intent == query.Past || p.pastWindow()) {
		// A question about a time that names no entity: compare the best
		// facts with what else is known about their entities (one query).
		// Other questions compare the candidates among themselves only,
		// which costs no query.
		if slugs := topFactEntities(pl.list(), 3); len(slugs) > 0 {
			f := p.Filter
			if len(f.Kinds) == 0 {
				f.Kinds = []memory.Kind{memory.KindWorld, memory.KindOpinion}
			}
			its, err := ix.EntityItems(ctx, slugs, f, updateDepth)
			if err != nil {
				return nil, fmt.Errorf("recall: update: %w", err)
			}
			for _, it := range its {
				if it.Kind.IsFact() {
					known = append(known, it.Item)
				}
			}
		}
	}
	links := supersede(pl.list(), known, mentionsOf(p.Entities))
	recent := asksNow(p, pl.list(), links)
	if recent || p.pastWindow() {
		// Changes said in prose count only where versions do; they do not
		// make a question one about now (asksNow), so they are read after.
		linkProseChanges(pl.list(), links, mentionsOf(p.Entities))
		injectVersions(p, pl, links)
	}

	p.topic = topicOf(topic)
	var heavy []string
	for _, w := range topic {
		if !lightVerbs[w] {
			heavy = append(heavy, w)
		}
	}
	if p.heavy = topicOf(heavy); len(p.heavy.stems) == 0 {
		p.heavy = p.topic
	}
	var ranked []scored
	if listed := pl.list(); listingOnly(listed) {
		// A listing without words (what a filter or a window holds) keeps
		// its own order: newest first, or the window day by day.
		for _, c := range listed {
			ranked = append(ranked, scored{c: c, score: -float64(len(ranked))})
		}
	} else {
		ranked = rank(ranker, newFeatureContext(p, listed, links, recent, lexTop), listed, p.Candidates)
	}
	if p.Floor && len(p.topic.stems) > 0 {
		ranked = slices.DeleteFunc(ranked, func(s scored) bool { return !aboutQuery(p, s.c) })
	}
	lines := p.Lines
	if lines <= 0 {
		lines = DefaultLines
	}
	return pack(ctx, ix, ranked, ranker, links, k, lines, p.Budget, p.Explain)
}

// listingOnly reports whether every candidate comes from a listing
// without words: the recent listing, or the window listed day by day
// (browsing it, or when nothing in it says the question's words).
func listingOnly(cands []*candidate) bool {
	for _, c := range cands {
		for ch := range c.ranks {
			if ch != "recent" && ch != "window" {
				return false
			}
		}
	}
	return len(cands) > 0
}

// temporal runs the temporal channel. With words, it searches them within
// the window; "around" then ranks by distance to the day. When browsing
// (no topic words), it lists the window day by day: each day's typed facts
// in line order, then its passages, taking one item from each day in turn
// so the top results cover the window.
func temporal(ctx context.Context, ix Index, p Plan, pl *pool, terms []string, windowed memory.Filter, depth int) error {
	if windowed.Until.Before(windowed.Since) && !windowed.Until.IsZero() {
		return nil
	}
	if len(terms) > 0 && !p.Browse {
		hits, err := ix.Search(ctx, terms, windowed, depth)
		if err != nil {
			return fmt.Errorf("recall: temporal: %w", err)
		}
		later, err := toldLater(ctx, ix, terms, windowed, depth)
		if err != nil {
			return fmt.Errorf("recall: temporal: %w", err)
		}
		if len(later) > 0 {
			hits = append(hits, later...)
			sort.SliceStable(hits, func(i, j int) bool { return hits[i].Score > hits[j].Score })
		}
		if p.Around != nil {
			sort.SliceStable(hits, func(i, j int) bool {
				return distance(hits[i].Item, *p.Around) < distance(hits[j].Item, *p.Around)
			})
		}
		for i, h := range hits {
			if c := pl.add("temporal", i+1, h.Item, h.Score); c.item.Event == nil {
				c.item.Event = h.Item.Event // told later (toldLater)
			}
		}
		if len(hits) > 0 || !anyContent(terms) {
			return nil
		}
		// Nothing said in the window has the question's words: it asks
		// what happened then in other words ("Any complaints at the
		// weekend?" of "a man at table 7 found a pin bone in his hake"),
		// so the window is listed as a question without words lists it.
	}
	items, err := ix.Items(ctx, windowed, false, browseDepth)
	if err != nil {
		return fmt.Errorf("recall: temporal: %w", err)
	}
	for i, it := range browseOrder(items, memory.TimeRange{Start: windowed.Since, End: windowed.Until}, p.Around) {
		if i >= depth {
			break
		}
		pl.add("window", i+1, it, 0)
	}
	return nil
}

// toldLaterDays is how many days after a window toldLater reads: a
// fortnight, since month-end and weekly summaries tell a day of the
// window a week or two later ("Awa payment 20 May" on the 29th); only a
// line that names a day inside the window counts, however late.
const toldLaterDays = 14

// toldLater returns the lines of prose written in the fortnight after a
// window that match the terms and date what they tell inside it, each with
// that day as its event: "Forgot to write this down: Wednesday I went
// through Mundowie and found chalkbrood" in Monday's log, "the market
// yesterday". A typed fact carries the day it tells of (its event,
// markdown.EventTime); a passage has only the day it was written, and
// notes and chats often tell a day's events days later.
func toldLater(ctx context.Context, ix Index, terms []string, windowed memory.Filter, depth int) ([]memory.Hit, error) {
	w := memory.TimeRange{Start: windowed.Since, End: windowed.Until}
	if w.Start.IsZero() || w.End.IsZero() || len(windowed.Kinds) > 0 && !slices.Contains(windowed.Kinds, memory.KindPassage) {
		return nil, nil
	}
	after := windowed
	after.Since, after.Until = w.End.AddDate(0, 0, 1), w.End.AddDate(0, 0, toldLaterDays)
	after.Kinds = []memory.Kind{memory.KindPassage}
	hits, err := ix.Search(ctx, terms, after, depth)
	if err != nil {
		return nil, err
	}
	var out []memory.Hit
	for _, h := range hits {
		if told := toldWithin(h.Item, w); told != nil {
			h.Item.Event = told
			out = append(out, h)
		}
	}
	return out, nil
}

// toldWithin returns the first day or days a line names, read from the
// day it was written, that lie inside w; nil when it names none.
func toldWithin(it memory.Item, w memory.TimeRange) *memory.TimeRange {
	if it.Written.IsZero() || it.Event != nil {
		return nil
	}
	for _, ph := range datephrase.FindNearest(it.Content, it.Written) {
		if !ph.Places() {
			continue // "since Saturday" bounds a time, it dates nothing
		}
		if r := (memory.TimeRange{Start: ph.Range.Start, End: ph.Range.End}); !r.Start.Before(w.Start) && !r.End.After(w.End) {
			return &r
		}
	}
	return nil
}

// browseOrder orders a window's items for reading. Items group by the
// day they were written; days nearest the anchor come first (newest first
// without one); the ranking takes one item per day in turn so the top
// results cover the window. Within a day: the opening passage of the log
// (what the day was about), then its typed facts (the day's summary) in
// line order, then the other passages. Items in the window by their event
// time only (written on another day, or undated in bank/ and memory.md)
// come after all of those.
func browseOrder(items []memory.Item, w memory.TimeRange, around *time.Time) []memory.Item {
	byDay := map[time.Time][]memory.Item{}
	var days []time.Time
	for _, it := range items {
		d := memory.Day(it.Written)
		if it.Written.IsZero() || !w.Contains(it.Written) {
			d = time.Time{} // in the window by its event time only
		}
		if _, ok := byDay[d]; !ok {
			days = append(days, d)
		}
		byDay[d] = append(byDay[d], it)
	}
	sort.SliceStable(days, func(i, j int) bool {
		if days[i].IsZero() != days[j].IsZero() {
			return days[j].IsZero()
		}
		if around != nil {
			di, dj := absDays(days[i], *around), absDays(days[j], *around)
			if di != dj {
				return di < dj
			}
		}
		return days[i].After(days[j])
	})
	for _, d := range days {
		its := byDay[d]
		opening := map[string]int{} // path → first passage line
		for _, it := range its {
			if it.Kind == memory.KindPassage {
				if l, ok := opening[it.Source.Path]; !ok || it.Source.Start < l {
					opening[it.Source.Path] = it.Source.Start
				}
			}
		}
		class := func(it memory.Item) int {
			switch {
			case it.Kind == memory.KindPassage && opening[it.Source.Path] == it.Source.Start:
				return 0
			case it.Kind.IsFact():
				return 1
			}
			return 2
		}
		sort.SliceStable(its, func(i, j int) bool {
			if ci, cj := class(its[i]), class(its[j]); ci != cj {
				return ci < cj
			}
			if its[i].Source.Path != its[j].Source.Path {
				return its[i].Source.Path < its[j].Source.Path
			}
			return its[i].Source.Start < its[j].Source.Start
		})
	}
	// Items in the window by their event time only come after every item
	// written in it: a plan written weeks before ("Andy flies to
	// Marrakech on the 29th") or a month-long event ("in October") says
	// less about what happened on those days than the days' own logs.
	// Among them, events that lie within the window come first, shorter
	// events before longer ones.
	var late []memory.Item
	if its, ok := byDay[time.Time{}]; ok {
		late = its
		sort.SliceStable(late, func(i, j int) bool {
			ii, ij := eventInside(late[i], w), eventInside(late[j], w)
			if ii != ij {
				return ii
			}
			return eventDays(late[i]) < eventDays(late[j])
		})
		days = days[:len(days)-1] // the zero day sorts last
	}
	var out []memory.Item
	for n := 0; len(out) < len(items)-len(late); n++ {
		for _, d := range days {
			if its := byDay[d]; n < len(its) {
				out = append(out, its[n])
			}
		}
	}
	return append(out, late...)
}

// ongoing adds the facts whose event range covers the query's today, of
// its entities when it names some, shortest range first. A question with
// a topic ("what computer is Pete using these days?") takes only those
// that speak of it: a trip under way says where someone is, not what
// they use.
func ongoing(ctx context.Context, ix Index, p Plan, pl *pool, topic []string) error {
	var words []string
	for _, w := range topic {
		if !nowWords[w] && !query.IsGenericWord(w) {
			words = append(words, w)
		}
	}
	about := newTopicWords(words)
	today := memory.Day(p.Now)
	f := p.Filter
	f.Since, f.Until = today, today
	if len(p.Entities) > 0 {
		f.Entities = p.Entities
	}
	items, err := ix.Items(ctx, f, true, browseDepth)
	if err != nil {
		return fmt.Errorf("recall: ongoing: %w", err)
	}
	var cover []memory.Item
	for _, it := range items {
		if it.Kind.IsFact() && it.Event != nil && !it.Event.Start.After(today) && !it.Event.End.Before(today) && about.said(it.Content) {
			cover = append(cover, it)
		}
	}
	sort.SliceStable(cover, func(i, j int) bool { return eventDays(cover[i]) < eventDays(cover[j]) })
	for i, it := range cover {
		pl.add("ongoing", i+1, it, 0)
	}
	return nil
}

// aboutQuery reports whether a candidate is about the query (Plan.Floor).
func aboutQuery(p Plan, c *candidate) bool {
	// One of the query's words that carry its topic, or two of any: a
	// light verb alone ("see" in "which vet does Biscuit see?") is too
	// little.
	if tw := c.text(); p.heavy.saidIn(tw) || p.topic.countIn(tw) >= 2 {
		return true
	}
	if _, ok := c.ranks["ongoing"]; ok {
		return true
	}
	if len(p.Entities) > 0 {
		for _, ch := range []string{"entity", "opinion"} {
			if _, ok := c.ranks[ch]; ok {
				return true
			}
		}
	}
	if r, ok := c.ranks["semantic"]; ok && r > 0 && c.raw["semantic"] >= semanticFloor {
		return true
	}
	return false
}

// lightVerbs say little of a topic on their own ("which vet does Biscuit
// see?", "what did we get done?").
var lightVerbs = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`see saw seen sees seeing get gets got getting go goes went gone going make makes made
		take takes took taken give gives gave given come comes came put puts use uses used using find found keep keeps kept
		let lets seem seems look looks looked want wants need needs try tried`) {
		m[w] = true
	}
	return m
}()

// topicOf is the topic of the query's planned terms, without the words
// that ask for a time or for anything that happened.
func topicOf(terms []string) topicWords {
	var words []string
	for _, w := range terms {
		if !nowWords[w] && !query.IsGenericWord(w) && !query.IsStopWord(w) {
			words = append(words, w)
		}
	}
	return newTopicWords(words)
}

// nowWords ask for the present without naming a topic.
var nowWords = map[string]bool{"now": true, "currently": true, "current": true, "right": true, "moment": true,
	"presently": true, "nowadays": true, "today": true, "these": true, "days": true, "still": true, "at": true}

// eventInside reports whether an item's event time lies within w.
func eventInside(it memory.Item, w memory.TimeRange) bool {
	return it.Event != nil && !it.Event.Start.Before(w.Start) && !it.Event.End.After(w.End)
}

// eventDays is how many days an item's event time spans (a large number
// without one).
func eventDays(it memory.Item) int {
	if it.Event == nil {
		return 1 << 20
	}
	return absDays(it.Event.End, it.Event.Start) + 1
}

// distance is how many days lie between an item and a day: zero when the
// day falls in its event or is the day it was written.
func distance(it memory.Item, day time.Time) int {
	best := -1
	if !it.Written.IsZero() {
		best = absDays(it.Written, day)
	}
	if it.Event != nil {
		d := 0
		if day.Before(it.Event.Start) {
			d = absDays(it.Event.Start, day)
		} else if day.After(it.Event.End) {
			d = absDays(it.Event.End, day)
		}
		if best < 0 || d < best {
			best = d
		}
	}
	if best < 0 {
		return 1 << 20
	}
	return best
}

func absDays(a, b time.Time) int {
	d := memory.Day(a).Sub(memory.Day(b)).Hours() / 24
	if d < 0 {
		d = -d
	}
	return int(d + 0.5)
}

// entityChannel ranks what is known about the query's entities and returns
// their typed facts for update-awareness. For "tell me about X" (or a
// query that is only names) it lists the entity page first, in page
// order, then the facts newest first; otherwise it ranks the items linked
// to the entities by the query's words (bm25), which lifts facts about the
// entity over the same words said of something else. topic are those
// words (without the names).
func entityChannel(ctx context.Context, ix Index, p Plan, pl *pool, terms, topic []string, lexTop float64, depth int) ([]memory.Item, error) {
	its, err := ix.EntityItems(ctx, p.Entities, p.Filter, entityDepth)
	if err != nil {
		return nil, fmt.Errorf("recall: entity: %w", err)
	}
	var facts []memory.Item
	for _, it := range its {
		if it.Kind.IsFact() {
			facts = append(facts, it.Item)
		}
	}
	if p.Intent == query.About || len(terms) == 0 {
		rank := 0
		for _, it := range its {
			if rank >= depth {
				break
			}
			if p.Window != nil && !inWindow(it.Written, it.Event, *p.Window) {
				continue // "anything about X in November"
			}
			rank++
			c := pl.add("entity", rank, it.Item, 0)
			c.onPage = c.onPage || it.OnPage
			c.listed = true
		}
		return facts, nil
	}
	f := p.Filter
	f.Entities = append(append([]string(nil), f.Entities...), p.Entities...)
	hits, err := ix.Search(ctx, terms, f, depth)
	if err != nil {
		return nil, fmt.Errorf("recall: entity: %w", err)
	}
	about := newTopicWords(topic)
	for i, h := range hits {
		c := pl.add("entity", i+1, h.Item, h.Score)
		c.entityWeight = 1
		if lexTop > 0 {
			c.entityWeight = math.Min(1, h.Score/lexTop)
		}
		if !about.said(h.Content) {
			c.entityWeight = 0 // matched only stop words ("when", "after"), or only its neighbours
		}
	}
	return facts, nil
}

// topicWords are the content words of a query's topic (no stop words, no
// names), as stems, and the attributes they name (attributeCues).
type topicWords struct {
	stems []string
	cues  map[string]bool
}

func newTopicWords(topic []string) topicWords {
	t := topicWords{cues: map[string]bool{}}
	for _, w := range topic {
		if query.IsStopWord(w) {
			continue
		}
		t.stems = append(t.stems, stem(w))
		if c, ok := attributeCues[w]; ok {
			t.cues[c] = true
		}
	}
	return t
}

// said reports whether text says something the topic asks about: one of
// its content words (by stem, or a word that starts with one: "deploy"
// finds "deployment"), or another word for the same attribute ("hosted"
// finds "Deployed on Fly.io"). A topic of stop words alone finds every
// text.
func (t topicWords) said(text string) bool { return t.saidIn(wordsOf(text)) }

// textWords are a text's words (splitWords), cut once for the several
// questions the features ask of one candidate.
type textWords struct{ words []string }

func wordsOf(text string) textWords { return textWords{splitWords(text)} }

// says reports whether the word w is the stem s or starts with it. A stem
// only strips an ending, so a word that does not begin as s does is
// neither, and most words are not stemmed at all: a recall asks this of
// every word of every candidate.
func says(w, s string) bool {
	if s == "" {
		return true
	}
	if w == "" || w[0] != s[0] {
		return false
	}
	return strings.HasPrefix(w, s) || stem(w) == s
}

// countIn is how many of the topic's words a text says.
func (t topicWords) countIn(tw textWords) int {
	n := 0
	for _, s := range t.stems {
		for _, w := range tw.words {
			if says(w, s) {
				n++
				break
			}
		}
	}
	return n
}

func (t topicWords) saidIn(tw textWords) bool {
	if len(t.stems) == 0 {
		return true
	}
	for _, w := range tw.words {
		if len(t.cues) > 0 && t.cues[attributeCues[w]] {
			return true
		}
		for _, s := range t.stems {
			if says(w, s) {
				return true
			}
		}
	}
	return false
}

// opinionChannel ranks typed opinions: those matching the query's words
// (of the named entities, when there are any) by bm25, then the named
// entities' other opinions by confidence and recency.
func opinionChannel(ctx context.Context, ix Index, p Plan, pl *pool, terms []string, known []memory.Item, depth int) error {
	f := p.Filter
	f.Kinds = []memory.Kind{memory.KindOpinion}
	if len(p.Entities) > 0 {
		f.Entities = append(append([]string(nil), f.Entities...), p.Entities...)
	}
	rank := 0
	seen := map[int64]bool{}
	if len(terms) > 0 {
		hits, err := ix.Search(ctx, terms, f, depth)
		if err != nil {
			return fmt.Errorf("recall: opinion: %w", err)
		}
		for _, h := range hits {
			rank++
			seen[h.RowID] = true
			pl.add("opinion", rank, h.Item, h.Score)
		}
	}
	var rest []memory.Item
	for _, it := range known {
		if it.Kind == memory.KindOpinion && !seen[it.RowID] {
			rest = append(rest, it)
		}
	}
	sort.SliceStable(rest, func(i, j int) bool {
		ci, cj := conf(rest[i]), conf(rest[j])
		if ci != cj {
			return ci > cj
		}
		return rest[i].Written.After(rest[j].Written)
	})
	for _, it := range rest {
		if rank >= depth {
			break
		}
		rank++
		pl.add("opinion", rank, it, 0)
	}
	return nil
}

// conf is an item's confidence, 0.5 when it has none.
func conf(it memory.Item) float64 {
	if it.Confidence == nil {
		return 0.5
	}
	return *it.Confidence
}

// topFactEntities are the entities of the first typed facts in the pool,
// at most n, for update-awareness when the query names none.
func topFactEntities(cands []*candidate, n int) []string {
	best := byRRF(cands)
	var out []string
	seen := map[string]bool{}
	for i, c := range best {
		if i >= 20 || len(out) >= n {
			break
		}
		if !c.item.Kind.IsFact() {
			continue
		}
		for _, e := range c.item.Entities {
			if k := memory.EntityKey(e); !seen[k] && len(out) < n {
				seen[k] = true
				out = append(out, e)
			}
		}
	}
	return out
}

// planTerms chooses the words worth searching for. Words in more than half
// of the items go: bm25 gives them no weight (FTS5 floors their IDF), so
// they only make rows match. The rest are kept rarest first within
// the rows one search scores (memory.MaxScoredRows): the index scores
// every row an OR-query matches, and common words match most of a large
// index. The rarest always stays. Words no item contains cost
// nothing and go too. It also names the question's rare word (the rare
// feature):
// its rarest content word, when that is in at most rareRows items and the
// question has other words to search.
func planTerms(ctx context.Context, ix Index, words []string) ([]string, []string, error) {
	if len(words) == 0 {
		return nil, nil, nil
	}
	stats, total, err := ix.TermStats(ctx, words)
	if err != nil {
		return nil, nil, fmt.Errorf("recall: plan: %w", err)
	}
	var useful, common []memory.TermStat
	for _, s := range stats {
		switch {
		case s.Rows > 0 && 2*s.Rows <= total:
			useful = append(useful, s)
		case s.Rows > 0:
			common = append(common, s)
		}
	}
	sort.SliceStable(common, func(i, j int) bool { return common[i].Rows < common[j].Rows })
	switch {
	case len(useful) == 0 && len(common) > 0:
		// Only common words: search for the rarest of them, which still
		// ranks by how often and how densely it occurs; the rarest of the
		// query's own words if it has any ("the red bicycle" in a
		// workspace of two lines, where every word is on both rows): a
		// search for "the" alone would find nothing worth answering.
		i := max(0, slices.IndexFunc(common, isContent))
		useful = common[i : i+1]
	case !slices.ContainsFunc(useful, isContent) && slices.ContainsFunc(common, isContent):
		// The query's own words are all common (a small workspace where
		// "failed" is on half the lines), its function words are not:
		// the rarest own word stays, or "what failed" would be searched
		// as "what".
		useful = append(useful, common[slices.IndexFunc(common, isContent)])
	}
	sort.SliceStable(useful, func(i, j int) bool { return useful[i].Rows < useful[j].Rows })
	var terms []string
	scan := 0
	for _, s := range useful {
		if len(terms) > 0 && scan+s.Rows > memory.MaxScoredRows {
			break
		}
		scan += s.Rows
		terms = append(terms, s.Word)
	}
	var rare []string
	if len(useful) > 0 && len(useful)+len(common) > 1 && useful[0].Rows <= rareRows && isContent(useful[0]) {
		rare = []string{useful[0].Word}
	}
	return terms, rare, nil
}

// functionWordRows bounds the matches scored for a question made of
// function words only: the newest thousand, where others score
// memory.MaxScoredRows.
const functionWordRows = 1000

// rareRows is the most items a word may be in to be a question's rare
// word (planTerms), a handful of lines whatever the workspace's size.
const rareRows = 5

// withAltTerms appends to words the alternative search terms of each
// (lang.AltTerms), once; words in ASCII have none.
func withAltTerms(words []string) []string {
	out := words
	for _, w := range words {
		for _, t := range lang.AltTerms(w) {
			if !slices.Contains(out, t) {
				out = append(slices.Clip(out), t)
			}
		}
	}
	return out
}

// phraseTerms are the search terms of quoted phrases: each phrase as it
// was quoted, which the index cuts into its terms and matches as a
// phrase (memory.Store.Search), and, for a phrase in other scripts, the
// phrase of its words' alternative forms (lang.AltTerms) in order, as an
// item's row carries them after its text (lang.AltText): a CJK run is
// one token to the tokenizer, so "北京天气" is found as the adjacent
// bigrams "北京 京天 天气". The words with no alternative form are left
// out of that phrase, as the row leaves them out.
func phraseTerms(phrases []string) []string {
	var out []string
	add := func(t string) {
		if t != "" && !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	for _, ph := range phrases {
		add(ph)
		var alt []string
		for _, w := range strings.Fields(ph) {
			alt = append(alt, lang.AltTerms(w)...)
		}
		add(strings.Join(alt, " "))
	}
	return out
}

// intersect narrows a filter's hard window with a soft one; the result may
// be empty (Since after Until), which then selects nothing.
func intersect(f memory.Filter, w memory.TimeRange) (since, until time.Time) {
	since, until = w.Start, w.End
	if !f.Since.IsZero() && f.Since.After(since) {
		since = f.Since
	}
	if !f.Until.IsZero() && (until.IsZero() || f.Until.Before(until)) {
		until = f.Until
	}
	return since, until
}

// isContent reports whether a term's word is not a stop word.
func isContent(s memory.TermStat) bool { return !query.IsStopWord(s.Word) }

// anyContent reports whether words hold a word that is not a stop word.
func anyContent(words []string) bool { return contentWords(words) > 0 }

// contentWords counts the words that are not stop words.
func contentWords(words []string) int {
	n := 0
	for _, w := range words {
		if !query.IsStopWord(w) {
			n++
		}
	}
	return n
}

// mentionsOf returns what finds the entities a line of prose names: the
// keys of those of entities (the query's) one of whose name words (three
// letters or more, not a function word) is a word of the text.
func mentionsOf(entities []string) func(string) []string {
	if len(entities) == 0 {
		return nil
	}
	type named struct {
		key   string
		words []string
	}
	var ns []named
	for _, e := range entities {
		n := named{key: memory.EntityKey(e)}
		for _, w := range splitWords(memory.EntityName(e)) {
			if len([]rune(w)) >= 3 && !query.IsStopWord(w) {
				n.words = append(n.words, w)
			}
		}
		ns = append(ns, n)
	}
	return func(text string) []string {
		words := splitWords(text)
		var keys []string
		for _, n := range ns {
			for _, w := range n.words {
				if slicesContains(words, w) {
					keys = append(keys, n.key)
					break
				}
			}
		}
		return keys
	}
}
