package recall

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"memoria/change"
	"memoria/datephrase"
	"memoria/lang"
	"memoria/memory"
	"memoria/query"
)

// search is one recall under way: the plan with its window placed, the
// words it searches, and the pool its channels fill.
type search struct {
	ix Index
	p  Plan
	k  int
	pl *pool
	// windowed is the filter within the question's window.
	windowed memory.Filter
	// asked are the question's words, its quoted phrases' included; terms
	// those worth searching (planTerms), with the entities' names and
	// their alternative forms.
	asked, terms []string
	// topic are the terms without the words that name the entities, and
	// topicTerms what the entity and opinion channels search: the topic
	// when the question names entities (their items all carry the
	// names), else every term.
	topic, topicTerms []string
	lexTop            float64       // the best lexical score, for the entity channel's weights
	known             []memory.Item // facts about the entities, for update-awareness
	links             *links        // the versions of facts among the candidates
	recent            bool          // the question asks about now (asksNow)
}

// newSearch places the question's window and chooses its terms. It
// returns nil when no channel has anything to go on: words were asked
// for, none matches any item, and the question names no entity, window
// or embedding.
func newSearch(ctx context.Context, ix Index, p Plan) (*search, error) {
	s := &search{ix: ix, p: p, k: p.K, pl: newPool()}
	if s.k <= 0 {
		s.k = DefaultK
	}
	if len(s.p.Filter.Kinds) == 0 {
		s.p.Filter.Kinds = p.Kinds
	}
	if err := s.placeWindow(ctx); err != nil {
		return nil, err
	}
	p = s.p
	s.windowed = p.Filter
	if p.Window != nil {
		s.windowed.Since, s.windowed.Until = intersect(p.Filter, *p.Window)
	}
	// A quoted phrase's words are the question's words too: an item that
	// says them apart still answers it (after those that say the phrase,
	// which the phrase channel finds), and a phrase no item says leaves
	// the question as it would be without the quotes.
	s.asked = p.Words
	for _, ph := range p.Phrases {
		s.asked = addNew(s.asked, ph...)
	}
	words, nameWords := withEntityNames(s.asked, p.NameWords, p.Entities)
	// Words in other scripts also search under their alternative forms
	// (lang.AltTerms): CJK runs as bigrams, folds, stems.
	words, nameWords = withAltTerms(words), withAltTerms(nameWords)
	terms, rare, err := planTerms(ctx, ix, words)
	if err != nil {
		return nil, err
	}
	s.p.rare = topicOf(rare)
	if !anyContent(terms) && anyContent(words) {
		// The query's own words match nothing: its function words ("tell
		// me about Bob" when no item says Bob) would find lines that
		// share only "tell" or "about". Such lines are no answer.
		terms = nil
	}
	if len(s.asked) > 0 && len(terms) == 0 && len(p.Entities) == 0 && !p.Browse && len(p.Vector) == 0 && p.Window == nil {
		// Words were asked for and no item has any of them, and no other
		// channel has anything to go on. With a window (a question in a
		// language none of the logs is written in, "昨日の会議は？"), the
		// window is listed as a question without words lists it.
		return nil, nil
	}
	s.terms = terms
	// The entity and opinion channels filter by entity, so the words that
	// name it would match every item they see.
	for _, t := range terms {
		if !slices.Contains(nameWords, t) {
			s.topic = append(s.topic, t)
		}
	}
	s.topicTerms = s.topic
	if len(p.Entities) == 0 {
		s.topicTerms = terms
	}
	return s, nil
}

// withEntityNames expands the entities' aliases: an entity named by an
// alias ("Pete", "WA relay") is also searched under its own name, which
// its facts carry in their entities column. It returns the words to
// search and the words that name the entities.
func withEntityNames(words, nameWords, entities []string) ([]string, []string) {
	for _, e := range entities {
		ws := strings.Fields(strings.ToLower(memory.EntityName(e)))
		words, nameWords = addNew(words, ws...), addNew(nameWords, ws...)
	}
	return words, nameWords
}

// addNew appends to list those of words it does not hold, each once, in
// a new array: never in the one list shares with its caller.
func addNew(list []string, words ...string) []string {
	for _, w := range words {
		if !slices.Contains(list, w) {
			list = append(slices.Clip(list), w)
		}
	}
	return list
}

// placeWindow settles the time the question speaks of. Time phrases that
// are all vague ("recently") ask for recency, not for a window of days.
// An event the question names ("the week after the launch") places the
// window next to the event, once recall has found it (anchorWindow).
func (s *search) placeWindow(ctx context.Context) error {
	p := &s.p
	if p.Window != nil && allVague(p.TimePhrases) {
		p.Window, p.Around, p.Browse = nil, nil, false
	}
	if p.Anchor != nil {
		w, err := anchorWindow(ctx, s.ix, p.Anchor, p.Now)
		if err != nil {
			return fmt.Errorf("recall: anchor: %w", err)
		}
		p.Window = w
	}
	return nil
}

// allVague reports whether the window came from time phrases and every
// one of them is vague ("recently"); a window from the flags
// (query.Options.Since) or set by hand has none.
func allVague(ps []datephrase.Phrase) bool {
	for _, p := range ps {
		if !p.Vague() {
			return false
		}
	}
	return len(ps) > 0
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
		out = addNew(out, lang.AltTerms(w)...)
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
func phraseTerms(phrases [][]string) []string {
	var out []string
	add := func(t string) {
		if t != "" && !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	for _, ph := range phrases {
		add(strings.Join(ph, " "))
		var alt []string
		for _, w := range ph {
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
		for _, w := range change.SplitWords(memory.EntityName(e)) {
			if len([]rune(w)) >= 3 && !query.IsStopWord(w) {
				n.words = append(n.words, w)
			}
		}
		ns = append(ns, n)
	}
	return func(text string) []string {
		words := change.SplitWords(text)
		var keys []string
		for _, n := range ns {
			for _, w := range n.words {
				if slices.Contains(words, w) {
					keys = append(keys, n.key)
					break
				}
			}
		}
		return keys
	}
}

// anchorDepth is how many matches of an event's words anchorWindow reads.
const anchorDepth = 20

// anchorWindow places a window next to an event the query names ("the
// week after the launch"): the event is the best match for its words among
// the dated items up to now (its event day, else the day written), and the
// window lies after it, before it, or from it. Nil when the memory does
// not record the event.
func anchorWindow(ctx context.Context, ix Index, a *query.EventAnchor, now time.Time) (*memory.TimeRange, error) {
	hits, err := ix.Search(ctx, a.Words, memory.Filter{Until: now}, anchorDepth)
	if err != nil {
		return nil, err
	}
	day := anchorDay(hits)
	if day.IsZero() {
		return nil, nil
	}
	switch a.Dir {
	case 1:
		return &memory.TimeRange{Start: day.AddDate(0, 0, 1), End: day.AddDate(0, 0, a.Days)}, nil
	case -1:
		return &memory.TimeRange{Start: day.AddDate(0, 0, -a.Days), End: day.AddDate(0, 0, -1)}, nil
	default:
		return &memory.TimeRange{Start: day, End: day.AddDate(0, 0, a.Days-1)}, nil
	}
}

// anchorDay is the day of the event the good matches (those scoring at
// least half the best) speak of: the day most of those that date what
// they tell give (their event's day: "the field day is Sat 17 October",
// written a month before, and "Field day on Sat 17 October", two days
// after), the earliest of equals; else the earliest day written: later
// lines that speak of the event look back at it ("the traffic of the
// launch").
func anchorDay(hits []memory.Hit) time.Time {
	var day, written time.Time
	votes := map[time.Time]int{}
	for _, h := range hits {
		if h.Score < hits[0].Score/2 {
			break
		}
		if e := h.Item.Event; e != nil {
			d := memory.Day(e.Start)
			votes[d]++
			if n, best := votes[d], votes[day]; n > best || n == best && d.Before(day) {
				day = d
			}
		} else if d := h.Item.Written; !d.IsZero() && (written.IsZero() || d.Before(written)) {
			written = memory.Day(d)
		}
	}
	if day.IsZero() {
		return written
	}
	return day
}
