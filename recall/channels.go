package recall

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"time"

	"memoria/datephrase"
	"memoria/memory"
	"memoria/query"
)

// channels runs every channel the question calls for into the pool.
func (s *search) channels(ctx context.Context) error {
	p := s.p
	for _, run := range []func(context.Context) error{s.lexical, s.phrase, s.semantic} {
		if err := run(ctx); err != nil {
			return err
		}
	}
	// Temporal channel: what falls in the window the query speaks of.
	if p.Window != nil {
		if err := temporal(ctx, s.ix, p, s.pl, s.terms, s.windowed, poolDepth); err != nil {
			return err
		}
	} else if err := s.listRecent(ctx); err != nil {
		return err
	}
	// Entity channel, which also gives update-awareness the facts it
	// compares.
	if len(p.Entities) > 0 {
		known, err := entityChannel(ctx, s.ix, p, s.pl, s.topicTerms, s.topic, s.lexTop, poolDepth)
		if err != nil {
			return err
		}
		s.known = known
	}
	// Ongoing channel: for a question about now ("where is Ana right
	// now?"), the facts whose event range covers today ("in Lisbon Mar
	// 1–6"), most specific first. Their words rarely include the
	// question's.
	if p.Intent == query.Current && p.Window == nil && !p.Now.IsZero() {
		if err := ongoing(ctx, s.ix, p, s.pl, s.topic); err != nil {
			return err
		}
	}
	if p.Intent == query.Opinion {
		return opinionChannel(ctx, s.ix, p, s.pl, s.topicTerms, s.known, poolDepth)
	}
	return nil
}

// lexical runs the lexical channel: bm25 over every item (not when
// browsing a window: the words then name no topic).
func (s *search) lexical(ctx context.Context) error {
	if len(s.terms) == 0 || s.p.Browse {
		return nil
	}
	f := s.p.Filter
	if !anyContent(s.terms) {
		// Function words only ("what did we do", "is there anything
		// new"): bm25 orders their matches by how densely they use such
		// words, which says little; the newest of them are the likelier
		// answer, and fewer are scored.
		f.Scored = functionWordRows
	}
	hits, err := s.ix.Search(ctx, s.terms, f, poolDepth)
	if err != nil {
		return fmt.Errorf("recall: lexical: %w", err)
	}
	for i, h := range hits {
		s.pl.add("lexical", i+1, h.Item, h.Score)
	}
	if len(hits) > 0 {
		s.lexTop = hits[0].Score
	}
	return nil
}

// phrase runs the phrase channel: the items that say a quoted phrase, by
// bm25 over the phrases. A channel of its own, not a lift of the lexical
// scores: an item that says the phrase has the phrase channel's vote
// besides its words' (the lexical channel's), while a phrase nothing says
// changes nothing.
func (s *search) phrase(ctx context.Context) error {
	phrases := phraseTerms(s.p.Phrases)
	if len(phrases) == 0 || s.p.Browse {
		return nil
	}
	hits, err := s.ix.Search(ctx, phrases, s.p.Filter, poolDepth)
	if err != nil {
		return fmt.Errorf("recall: phrase: %w", err)
	}
	for i, h := range hits {
		s.pl.add("phrase", i+1, h.Item, h.Score)
	}
	return nil
}

// semantic runs the semantic channel: the items nearest the query's
// embedding, for questions that share no words with their answer. Not for
// "who is X" and "tell me about X" with no other topic: such an embedding
// says little beyond the name, and its neighbours are lines about others;
// the entity and lexical channels answer it exactly.
func (s *search) semantic(ctx context.Context) error {
	p := s.p
	if len(p.Vector) == 0 || p.Browse || p.Intent == query.About && contentWords(s.topic) <= 1 {
		return nil
	}
	hits, err := s.ix.NearestItems(ctx, p.Vector, p.Filter, poolDepth)
	if err != nil {
		return fmt.Errorf("recall: semantic: %w", err)
	}
	for i, h := range hits {
		s.pl.add("semantic", i+1, h.Item, h.Score)
	}
	return nil
}

// listRecent lists what the filter selects, newest first, when there is
// nothing to search for ("--since 7d" alone). A listing reaches deeper for
// a larger k: it keeps its own order.
func (s *search) listRecent(ctx context.Context) error {
	if len(s.terms) > 0 || len(s.p.Entities) > 0 {
		return nil
	}
	items, err := s.ix.Items(ctx, s.p.Filter, true, max(s.k, poolDepth))
	if err != nil {
		return fmt.Errorf("recall: listing: %w", err)
	}
	for i, it := range items {
		s.pl.add("recent", i+1, it, 0)
	}
	return nil
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
		if eventOnly(it, w) {
			d = time.Time{}
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
		sortDay(byDay[d])
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

// sortDay orders the items written on one day: the opening passage of
// each log (what the day was about), then its typed facts in line order,
// then its other passages.
func sortDay(its []memory.Item) {
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
	slices.SortStableFunc(its, func(a, b memory.Item) int {
		return cmp.Or(cmp.Compare(class(a), class(b)), strings.Compare(a.Source.Path, b.Source.Path), cmp.Compare(a.Source.Start, b.Source.Start))
	})
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
	slices.SortStableFunc(rest, func(a, b memory.Item) int { return cmp.Or(cmp.Compare(conf(b), conf(a)), b.Written.Compare(a.Written)) })
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
