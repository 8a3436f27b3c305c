package query

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"memoria/datephrase"
	"memoria/lang"
	"memoria/memory"
)

// Query is a recall request in typed form.
type Query struct {
	Text string // the query text as given

	// Terms are the lexical terms: lower-cased words of the text in order,
	// deduplicated, without stop words, @mentions, time phrases and quoted
	// phrases. Names of known entities written without @ stay in Terms
	// (raw passages mention "Peter" without the @). Terms are plain words,
	// never search syntax: quote them before building an FTS5 MATCH.
	Terms []string
	// Words are the lexical words with stop words kept: every word of the
	// text outside @mentions, time phrases and quoted phrases, lower-cased,
	// deduplicated, in order. Ranking with bm25 over Words lets IDF weigh
	// the common words instead of a fixed list dropping them; pronouns such
	// as "I" and "my" then help find a person's own statements (measured
	// in docs/recall.md).
	Words []string
	// NameWords are the lower-cased words of the text that name an
	// entity (in @mentions and known names), in order, deduplicated:
	// recall leaves them out where the entity itself is the filter.
	NameWords []string
	// Phrases are the "quoted phrases" of the text, each as its lower-cased
	// words; stop words are kept. Empty quotes are dropped.
	Phrases [][]string
	// Entities are slugs: those given in Options.Entities, then explicit
	// @mentions and known names (via Options.Names) in text order,
	// deduplicated by memory.EntityKey. A mention of a known alias is
	// reported under the entity's slug.
	Entities []string
	// Window is the range of days the query is about, from its time
	// phrases and the --since/--until flags; nil if neither gave one. Open
	// ends are datephrase.MinDay and datephrase.MaxDay.
	Window *memory.TimeRange
	// Around is the day the query points near ("around Nov 27", "2 weeks
	// ago"): recall ranks by proximity to it. Window is then the window
	// around it.
	Around *time.Time
	Kinds  []memory.Kind // kind filters from Options.Kinds; empty means all
	Intent Intent
	// Quantity is true when the question asks for an amount ("how many",
	// "how long", "what percentage"): recall lifts the lines that state a
	// number.
	Quantity bool
	// Choice is true when the question asks what was chosen or why
	// something was done ("why did we …", "what did we pick instead of
	// …"): recall lifts the lines that record a choice or give a reason.
	Choice bool
	// Browse is true when the query asks what happened in a window and
	// names no topic: it has a window, no entities or quoted phrases, and
	// its terms are only generic words ("what happened", "what did we get
	// done", leftovers of time phrases such as "first week"). Recall then
	// lists the window instead of searching it.
	Browse bool
	Now    time.Time

	// Anchor is a window next to an event the query names ("the week
	// after the launch"), for recall to place once it has found the
	// event; nil when there is none, or when a time phrase gave a window.
	Anchor *EventAnchor

	// TimePhrases are the time phrases that shaped Window, for --explain.
	TimePhrases []datephrase.Phrase
	// Notes explain choices made along the way, for --explain: a time
	// phrase that was ignored, for example.
	Notes []string
}

// Options are the flags and context of a query.
type Options struct {
	Now      time.Time     // required: resolves relative phrases; no clock is read
	Since    string        // --since, in a form datephrase.ParseBound reads ("30d", "2025-11-03")
	Until    string        // --until, likewise; the day it names is included
	Kinds    []string      // --kind values, each a kind or a comma-separated list (memory.ParseKind)
	Entities []string      // --entity values: slugs, with or without a leading @
	Names    EntityMatcher // known entity names and aliases; nil finds only @mentions
}

// Parse turns query text and flags into a Query. Any text is accepted:
// quotes, dashes, colons, stars, parentheses and words like AND, OR, NEAR
// are words or nothing, never an error. Errors come only from Options:
// a zero Now, a bad --since/--until, a --since after --until, an unknown
// kind, or an unsafe entity slug.
//
// It reads the text in stages, each marking the bytes it explains so that
// the later ones leave them alone: quoted phrases, @mentions and known
// names, time phrases (or else an event anchor), then the words that are
// left, from which it reads what the question asks.
func Parse(text string, opts Options) (*Query, error) {
	if opts.Now.IsZero() {
		return nil, errors.New("query: Options.Now is required")
	}
	q := &Query{Text: text, Now: opts.Now}
	flagWindow, err := q.readOptions(opts)
	if err != nil {
		return nil, err
	}
	var m marks
	q.readQuotes(text, &m)
	ents, implicit := m.readNames(text, opts.Names)
	phrases := m.readTimePhrases(text, opts.Now, implicit)
	ents = append(ents, m.keepNames(implicit)...)
	sortMatches(ents)
	for _, e := range ents {
		q.addEntity(e.Slug)
	}
	q.setWindow(phrases, flagWindow)
	if q.Window == nil {
		if a, sp, ok := findAnchor(text); ok && !m.quotes.index().overlaps(sp) {
			q.Anchor = a
			m.skip = append(m.skip, sp) // the anchor's words name a time, not the topic
		}
	}
	lower, content, topical := q.readWords(text, m)
	q.readAsks(lower, content, topical)
	return q, nil
}

// marks are the stretches of a query's text that the stages of Parse
// have explained.
type marks struct {
	quotes spans // "quoted phrases"
	named  spans // @mentions and the known names kept
	skip   spans // bytes that are not terms: quotes, mentions, time phrases, an event anchor
}

// readOptions reads the flags: --kind into Kinds, --entity into Entities
// (first, in the order given), and --since/--until into the window they
// make, or nil.
func (q *Query) readOptions(opts Options) (*memory.TimeRange, error) {
	if err := q.parseKinds(opts.Kinds); err != nil {
		return nil, err
	}
	flagWindow, err := parseFlags(opts)
	if err != nil {
		return nil, err
	}
	for _, e := range opts.Entities {
		slug := strings.TrimPrefix(strings.TrimSpace(e), "@")
		if err := memory.ValidateSlug(slug); err != nil {
			return nil, fmt.Errorf("entity: %w", err)
		}
		q.addEntity(canonical(slug, opts.Names))
	}
	return flagWindow, nil
}

// readQuotes reads the quoted phrases into Phrases and marks their bytes.
func (q *Query) readQuotes(text string, m *marks) {
	m.quotes = findQuotes(text)
	for _, s := range m.quotes {
		m.skip = append(m.skip, s)
		if ws := words(text[s.start+s.open : s.end-s.close]); len(ws) > 0 {
			q.Phrases = append(q.Phrases, lowerWords(ws))
		}
	}
}

// readNames finds the @mentions, which it marks, and the known names
// outside them, which a time phrase may still claim (keepNames decides).
func (m *marks) readNames(text string, names EntityMatcher) (mentions, implicit []EntityMatch) {
	for _, e := range findMentions(text) {
		s := span{start: e.Start, end: e.End}
		m.skip = append(m.skip, s)
		m.named = append(m.named, s)
		mentions = append(mentions, EntityMatch{e.Start, e.End, canonical(e.Slug, names)})
	}
	if names == nil {
		return mentions, nil
	}
	mentioned := m.named.index()
	for _, e := range names.MatchEntities(text) {
		if e.Start < 0 || e.End > len(text) || e.Start >= e.End || mentioned.overlaps(span{start: e.Start, end: e.End}) ||
			memory.ValidateSlug(e.Slug) != nil {
			continue
		}
		implicit = append(implicit, e)
	}
	return mentions, implicit
}

// readTimePhrases finds the time phrases outside quotes and mentions and
// marks the bytes of those that are not vague. Where a phrase and a known
// name overlap, the name wins ("June" the person), unless the phrase has
// digits ("June 2024"), which no name explains.
func (m *marks) readTimePhrases(text string, now time.Time, implicit []EntityMatch) []datephrase.Phrase {
	found := datephrase.FindNearest(text, now)
	// The days and periods named by their name, whatever their case
	// ("since easter", "over xmas"): a question names them on purpose,
	// where in notes "a christmas tree" names no day. They win over the
	// phrases inside them (mergePeriods), which would read a named day
	// more than half a year back as the next one.
	if periods := datephrase.FindNamedDays(text, now); len(periods) > 0 {
		found = mergePeriods(found, periods)
	}
	quoted, mentioned := m.quotes.index(), m.named.index()
	var names spans
	for _, e := range implicit {
		names = append(names, span{start: e.Start, end: e.End})
	}
	kept := names.index()
	var phrases []datephrase.Phrase
	for _, p := range found {
		s := span{start: p.Start, end: p.End}
		if quoted.overlaps(s) || mentioned.overlaps(s) {
			continue
		}
		if !strings.ContainsAny(p.Text, "0123456789") && kept.overlaps(s) {
			continue
		}
		if !p.Vague() {
			// Vague phrases ("lately") keep their words: they are how
			// people say it in the notes too ("on Spotify lately").
			m.skip = append(m.skip, s)
		}
		phrases = append(phrases, p)
	}
	return phrases
}

// keepNames returns the known names that no time phrase took, quoted or
// not, and marks them as names.
func (m *marks) keepNames(implicit []EntityMatch) []EntityMatch {
	skipped, quoted := m.skip.index(), m.quotes.index()
	var kept []EntityMatch
	for _, e := range implicit {
		s := span{start: e.Start, end: e.End}
		if !skipped.overlaps(s) || quoted.overlaps(s) {
			m.named = append(m.named, s)
			kept = append(kept, e)
		}
	}
	return kept
}

// readWords reads the words outside the marks into Words and Terms, and
// the names' words into NameWords. It returns every word of the text,
// lower-cased, for reading what the question asks; and how many content
// words (not stop words, not names) it has, and how many of those are
// topical (not generic). A name or a date found inside a run of CJK text
// splits the run: "王伟说" is the name 王伟 and the word 说.
func (q *Query) readWords(text string, m marks) (lower []string, content, topical int) {
	all := splitAt(words(text), append(slices.Clip(m.named), m.skip...))
	namedIx, skipIx := m.named.index(), m.skip.index()
	lower = make([]string, len(all))
	for i, w := range all {
		lower[i] = strings.ToLower(w.text)
	}
	for i, w := range all {
		s := span{start: w.start, end: w.end}
		named := namedIx.overlaps(s)
		if named && !slices.Contains(q.NameWords, lower[i]) {
			q.NameWords = append(q.NameWords, lower[i])
		}
		if skipIx.overlaps(s) || framesChoice(lower, i) {
			continue
		}
		q.addWord(lower[i])
		if stopWords[lower[i]] {
			continue
		}
		if !named {
			content++
			if !genericWords[lower[i]] {
				topical++
			}
		}
		q.addTerm(lower[i])
	}
	return lower, content, topical
}

// framesChoice reports whether word i frames the options a question
// weighs ("rather than", "instead of"), which name no topic: a line with
// "would rather" is no answer to "why X rather than Y?". Nor does a
// negation (the answer to "why are we not on Airbnb any more?" says why
// in its own words), here as in "aren't", whose "n't" is a function word
// already.
func framesChoice(lower []string, i int) bool {
	return lower[i] == "not" || framesChoiceAt(lower, i)
}

// readAsks reads what the question asks for from its words: its Intent,
// whether it asks for an amount or a choice, and whether it only browses
// its window.
func (q *Query) readAsks(lower []string, content, topical int) {
	in := intentInput{words: lower, hasWindow: q.Window != nil, onlyNames: len(q.Entities) > 0 && content == 0 && len(q.Phrases) == 0}
	if q.Window != nil {
		in.pastWindow = !q.Window.Start.After(memory.Day(q.Now))
	}
	q.Intent = detectIntent(in)
	q.Quantity = asksQuantity(lower)
	q.Choice = asksChoice(lower)
	q.Browse = q.Window != nil && topical == 0 && len(q.Entities) == 0 && len(q.Phrases) == 0
}

// choiceFrames frame the options a question weighs (lang.ChoiceFrames).
var choiceFrames = lang.NewPhrases(lang.ChoiceFrames)

// framesChoiceAt reports whether a choice frame begins at word i of ws.
func framesChoiceAt(ws []string, i int) bool {
	return choiceFrames.At(ws, i)
}

func (q *Query) parseKinds(values []string) error {
	for _, v := range values {
		for _, s := range strings.Split(v, ",") {
			if strings.TrimSpace(s) == "" {
				continue
			}
			k, err := memory.ParseKind(s)
			if err != nil {
				return fmt.Errorf("kind: %w", err)
			}
			if !slices.Contains(q.Kinds, k) {
				q.Kinds = append(q.Kinds, k)
			}
		}
	}
	return nil
}

// parseFlags reads --since and --until into a window of days (both
// included), or nil.
func parseFlags(opts Options) (*memory.TimeRange, error) {
	if strings.TrimSpace(opts.Since) == "" && strings.TrimSpace(opts.Until) == "" {
		return nil, nil
	}
	w := memory.TimeRange{Start: datephrase.MinDay, End: datephrase.MaxDay}
	if strings.TrimSpace(opts.Since) != "" {
		t, err := datephrase.ParseBound(opts.Since, opts.Now)
		if err != nil {
			return nil, fmt.Errorf("since: %w", err)
		}
		w.Start = memory.Day(t)
	}
	if strings.TrimSpace(opts.Until) != "" {
		t, err := datephrase.ParseUntil(opts.Until, opts.Now)
		if err != nil {
			return nil, fmt.Errorf("until: %w", err)
		}
		w.End = memory.Day(t)
	}
	if w.Start.After(w.End) {
		return nil, fmt.Errorf("the time window is empty: since %s is after until %s", opts.Since, opts.Until)
	}
	return &w, nil
}

// setWindow combines the time phrases, left to right, and the flags. Two
// phrases that select days (on, during, around) make their union ("in
// October or November"); a bound (since, until, after) narrows what is
// there ("last year before June"). A phrase that would leave no days is
// ignored with a note; so is a text window outside the flags, which win.
func (q *Query) setWindow(phrases []datephrase.Phrase, flags *memory.TimeRange) {
	var w *memory.TimeRange
	var around *time.Time
	var used []datephrase.Phrase
	for _, p := range phrases {
		r := p.Range
		switch {
		case w == nil:
			w = &r
		case used[len(used)-1].Places() && p.Places():
			u := memory.TimeRange{Start: minTime(w.Start, r.Start), End: maxTime(w.End, r.End)}
			w = &u
		default:
			x, ok := intersect(*w, r)
			if !ok {
				q.Notes = append(q.Notes, fmt.Sprintf("ignored time phrase %q: no days in common with %q", p.Text, used[len(used)-1].Text))
				continue
			}
			w = &x
		}
		used = append(used, p)
		if p.Relation == datephrase.Around && around == nil {
			a := p.Anchor
			around = &a
		}
	}
	if flags != nil {
		if w == nil {
			w = flags
		} else if x, ok := intersect(*w, *flags); ok {
			w = &x
		} else {
			q.Notes = append(q.Notes, "ignored the time phrases: no days in common with --since/--until")
			w, around, used = flags, nil, nil
		}
	}
	q.Window, q.Around, q.TimePhrases = w, around, used
}

func intersect(a, b memory.TimeRange) (memory.TimeRange, bool) {
	r := memory.TimeRange{Start: maxTime(a.Start, b.Start), End: minTime(a.End, b.End)}
	return r, !r.Start.After(r.End)
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

func (q *Query) addEntity(slug string) {
	key := memory.EntityKey(slug)
	for _, e := range q.Entities {
		if memory.EntityKey(e) == key {
			return
		}
	}
	q.Entities = append(q.Entities, slug)
}

func (q *Query) addWord(w string) {
	if !slices.Contains(q.Words, w) {
		q.Words = append(q.Words, w)
	}
}

func (q *Query) addTerm(t string) {
	if !slices.Contains(q.Terms, t) {
		q.Terms = append(q.Terms, t)
	}
}

// canonical is the slug a known-names table gives for slug's name, or slug
// itself: "@pete" becomes "Peter" when Pete is Peter's alias.
func canonical(slug string, names EntityMatcher) string {
	if names == nil {
		return slug
	}
	if t, ok := names.(*NameTable); ok {
		if s, ok := t.Lookup(slug); ok {
			return s
		}
		return slug
	}
	name := memory.EntityName(slug)
	for _, m := range names.MatchEntities(name) {
		if m.Start == 0 && m.End == len(name) && memory.ValidateSlug(m.Slug) == nil {
			return m.Slug
		}
	}
	return slug
}

// findMentions finds @mentions: an '@' not preceded by a letter or digit
// (so e-mail addresses are not mentions), followed by a safe slug. Trailing
// '.', '-' and '_' are punctuation, not part of the slug ("ask @Peter.").
func findMentions(text string) []EntityMatch {
	var out []EntityMatch
	for i := 0; i < len(text); i++ {
		if text[i] != '@' {
			continue
		}
		if i > 0 {
			r, _ := utf8.DecodeLastRuneInString(text[:i])
			if isWordRune(r) {
				continue
			}
		}
		j := i + 1
		for j < len(text) {
			r, size := utf8.DecodeRuneInString(text[j:])
			if !memory.IsSlugRune(r) {
				break
			}
			j += size
		}
		raw := strings.TrimRight(text[i+1:j], ".-_")
		slug := memory.NormalizeSlug(raw)
		if memory.ValidateSlug(slug) != nil {
			continue
		}
		out = append(out, EntityMatch{Start: i, End: i + 1 + len(raw), Slug: slug})
		i += len(raw)
	}
	return out
}

// span is a byte range of the text; for quotes, open and close are the
// byte lengths of the quote marks at either end.
type span struct {
	start, end  int
	open, close int
}

type spans []span

// spanIndex answers whether a span overlaps any of a set in O(log n):
// the spans sorted by start, with the furthest end reached so far, so
// that parsing stays linear in the query's length (a query of thousands
// of mentions or dates took seconds when every word was checked against
// every span).
type spanIndex struct {
	starts []int // sorted
	maxEnd []int // maxEnd[i]: the largest end of the spans 0..i
}

func (ss spans) index() spanIndex {
	sorted := slices.Clone(ss)
	slices.SortFunc(sorted, func(a, b span) int { return a.start - b.start })
	ix := spanIndex{starts: make([]int, len(sorted)), maxEnd: make([]int, len(sorted))}
	for i, x := range sorted {
		ix.starts[i] = x.start
		ix.maxEnd[i] = x.end
		if i > 0 {
			ix.maxEnd[i] = max(x.end, ix.maxEnd[i-1])
		}
	}
	return ix
}

// overlaps reports whether s overlaps a span of the set: some span that
// starts before s ends and ends after s starts.
func (ix spanIndex) overlaps(s span) bool {
	n, _ := slices.BinarySearch(ix.starts, s.end) // spans starting before s.end
	return n > 0 && ix.maxEnd[n-1] > s.start
}

// findQuotes finds "quoted" and “curly quoted” stretches. An unmatched
// quote mark is ignored.
func findQuotes(text string) spans {
	var out spans
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		var closer rune
		switch r {
		case '"':
			closer = '"'
		case '“':
			closer = '”'
		case '„':
			closer = '“'
		default:
			i += size
			continue
		}
		rest := text[i+size:]
		k := strings.IndexRune(rest, closer)
		if closer == '”' && k < 0 {
			k = strings.IndexByte(rest, '"')
			if k >= 0 {
				closer = '"'
			}
		}
		if k < 0 {
			i += size
			continue
		}
		end := i + size + k + utf8.RuneLen(closer)
		out = append(out, span{start: i, end: end, open: size, close: utf8.RuneLen(closer)})
		i = end
	}
	return out
}

func lowerWords(ws []word) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = strings.ToLower(w.text)
	}
	return out
}

func sortMatches(ms []EntityMatch) {
	slices.SortStableFunc(ms, func(a, b EntityMatch) int { return a.Start - b.Start })
}

// mergePeriods replaces the phrases that overlap a period with the period,
// keeping text order.
func mergePeriods(found, periods []datephrase.Phrase) []datephrase.Phrase {
	var out []datephrase.Phrase
	for _, p := range found {
		keep := true
		for _, q := range periods {
			if p.Start < q.End && q.Start < p.End {
				keep = false
				break
			}
		}
		if keep {
			out = append(out, p)
		}
	}
	for _, q := range periods {
		if !slices.ContainsFunc(out, func(p datephrase.Phrase) bool { return p.Start == q.Start && p.End == q.End }) {
			out = append(out, q)
		}
	}
	slices.SortStableFunc(out, func(a, b datephrase.Phrase) int { return a.Start - b.Start })
	return out
}

// splitAt cuts the words that a span starts or ends inside of at the
// span's edges (only CJK names are found inside words).
func splitAt(ws []word, ss spans) []word {
	all := make([]int, 0, 2*len(ss))
	for _, s := range ss {
		all = append(all, s.start, s.end)
	}
	slices.Sort(all)
	all = slices.Compact(all)
	var out []word
	for _, w := range ws {
		// The boundaries strictly inside the word.
		i, _ := slices.BinarySearch(all, w.start+1)
		j := i
		for j < len(all) && all[j] < w.end {
			j++
		}
		if i == j {
			out = append(out, w)
			continue
		}
		start := w.start
		for _, c := range append(all[i:j:j], w.end) {
			off := start - w.start
			out = append(out, word{start: start, end: c, text: w.text[off : off+c-start]})
			start = c
		}
	}
	return out
}
