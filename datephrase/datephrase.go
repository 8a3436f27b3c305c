package datephrase

import (
	"slices"
	"strings"
	"time"

	"memoria/lang"
	"memoria/memory"
)

// Relation says how a phrase constrains time.
type Relation uint8

// The relations. On and During both mean "within Range"; they differ only in
// whether Range is a single day.
const (
	On     Relation = iota + 1 // within Range, a single day ("on Nov 27", "yesterday")
	During                     // within Range, several days ("in October", "last week", "Nov 27–Dec 1")
	Since                      // from the start of X through today ("since last week")
	Until                      // up to X: through X's first day ("until"), or the day before it ("before")
	After                      // from the day after X ends, open-ended ("after Nov 3")
	Around                     // near Anchor; Range is the window around it ("around Nov 27", "2 weeks ago")
)

// String is the relation's lower-case name.
func (r Relation) String() string {
	switch r {
	case On:
		return "on"
	case During:
		return "during"
	case Since:
		return "since"
	case Until:
		return "until"
	case After:
		return "after"
	case Around:
		return "around"
	}
	return "none"
}

// AroundDays is the half-width of the window of an "around X" phrase: the
// window is X's range widened by AroundDays on each side.
const AroundDays = 3

// RecentDays is how far back "recently" and "lately" reach.
const RecentDays = 14

// Open ends of a range: "before X" starts at MinDay and "after X" ends at
// MaxDay. Both are valid days, so memory.TimeRange's Contains and Overlaps
// work on open ranges unchanged.
var (
	MinDay = time.Time{}                                   // 0001-01-01 UTC
	MaxDay = time.Date(9999, 12, 31, 0, 0, 0, 0, time.UTC) // 9999-12-31 UTC
)

// Phrase is a date or time phrase found in a text, resolved against "now".
type Phrase struct {
	Start, End int    // byte offsets of the phrase in the text: text[Start:End] == Text
	Text       string // the phrase as written, including its relation word ("since last week")
	// Range is the inclusive range of days the phrase selects, each at UTC
	// midnight; an open end is MinDay or MaxDay. For Around, it is the
	// window around Anchor.
	Range    memory.TimeRange
	Relation Relation
	// Anchor is the day the phrase points near, for Relation Around only:
	// the middle of X for "around X", the day N units back for "N weeks ago".
	Anchor time.Time
}

// Find returns the date and time phrases in text, resolved against now, in
// order and without overlaps. At each position the longest phrase wins, and
// the scan resumes after it. Find never panics and never reads the clock.
//
// A month and day without a year ("Nov 27") resolve to the most recent such
// day not after now; for text written on a day (a daily log), pass that day
// as now. A month without a year resolves to the most recent month that has
// begun by now. Weeks start on Monday.
//
// Named days count only capitalised ("over Easter", "on Boxing Day"): in
// notes, "a christmas tree" and "easter eggs in the code" name no day.
func Find(text string, now time.Time) []Phrase {
	var buf [48]token
	p := parser{toks: tokenize(text, buf[:0]), now: now, today: memory.Day(now), text: text}
	return p.scan(nil)
}

// FindNamedDays returns the phrases of text that name a day or period of
// the year by its name ("since Easter", "over the Christmas", "the
// Tuesday after Easter", "New Year's Eve"), resolved as Find resolves
// them, however the name is written: "since easter", "over xmas", "on
// anzac day" count too. It is for a question, which names a day on
// purpose and is often typed in lower case; Find, for notes, reads only
// capitalised names.
func FindNamedDays(text string, now time.Time) []Phrase {
	var buf [48]token
	p := parser{toks: tokenize(text, buf[:0]), now: now, today: memory.Day(now), text: text, anyCase: true}
	return p.scan(p.namesDay)
}

// scan returns the phrases of the text, the longest at each position,
// and of them only those keep accepts (their tokens from i to before j),
// if keep is not nil.
func (p *parser) scan(keep func(i, j int) bool) []Phrase {
	var out []Phrase
	for i := 0; i < len(p.toks); {
		if p.canStart(i) {
			if ph, j, ok := p.phrase(i); ok {
				if keep == nil || keep(i, j) {
					ph.Start, ph.End = p.toks[i].start, p.toks[j-1].end
					ph.Text = p.text[ph.Start:ph.End]
					out = append(out, ph)
				}
				i = j
				continue
			}
		}
		i++
	}
	return out
}

// parser matches the phrase grammar over the tokens of one text.
type parser struct {
	toks  []token
	now   time.Time
	today time.Time
	text  string // what toks were cut from
	// anyCase reads named days in lower case too ("since easter"), as a
	// question names them; in notes only a capitalised name counts.
	anyCase bool
}

// named reports whether token i may be a word of a day's name: it is
// capitalised ("Easter", "Boxing Day"), unless the parser reads names in
// any case.
func (p *parser) named(i int) bool {
	c := p.text[p.toks[i].start]
	return p.anyCase || 'A' <= c && c <= 'Z'
}

// namesDay reports whether tokens i to j-1, a phrase, name a day by its
// name: a holiday ("Easter", "Good Friday"), New Year or May Day.
func (p *parser) namesDay(i, j int) bool {
	for k := i; k < j; k++ {
		switch w := p.toks[k].w; {
		case p.toks[k].kind != tWord:
		case w.class == cHoliday,
			w.class == cWord && w.val == wNew && p.word(k+1, cUnit, unitYear),
			w.class == cMonth && w.val == 5 && w.flags&fAbbrev == 0 && p.word(k+1, cUnit, unitDay):
			return true
		}
	}
	return false
}

// Context bits: what a preceding relation word licenses.
const (
	ctxAbbr = 1 << iota // bare abbreviated months and weekdays ("in Oct", "on Sat")
	ctxYear             // bare years ("in 2024")
	ctxRel              // any relation word: bare seasons ("in the summer", "over the winter")
	ctxAll  = ctxAbbr | ctxYear
)

// parts is a calendar date, month or year before its year is known.
type parts struct {
	y, m, d int // y == 0: unknown; m == 0: the whole year; d == 0: the whole month
	sub     int // 1 early, 2 mid, 3 late: a third of the month or year
}

// span is a parsed time expression: calendar parts awaiting their year
// (abs), or an already resolved range.
type span struct {
	abs    bool
	a, b   parts // b is used when hasB: a range from a to b
	hasB   bool
	r      memory.TimeRange
	around bool // r is a window around anchor
	anchor time.Time
	// dayOnly is a day of the month said alone ("on the 3rd"): the latest
	// such day up to today, or, joined to a date, a day of its month
	// ("between the 10th and the 14th of March").
	dayOnly int
}

func (p *parser) canStart(i int) bool {
	t := &p.toks[i]
	switch t.kind {
	case tNum, tISO:
		return true
	case tWord:
		return t.w.class != cNone
	}
	return false
}

// word reports whether token i is keyword (class, val).
func (p *parser) word(i int, class wclass, val int) bool {
	return i < len(p.toks) && p.toks[i].kind == tWord && p.toks[i].w.class == class && int(p.toks[i].w.val) == val
}

func (p *parser) kind(i int, k tokKind) bool { return i < len(p.toks) && p.toks[i].kind == k }

// dayNum reports whether token i is a day-of-month number (1..31, one or two digits).
func (p *parser) dayNum(i int) (int, bool) {
	if i < len(p.toks) && p.toks[i].kind == tNum && p.toks[i].nd <= 2 && p.toks[i].n >= 1 && p.toks[i].n <= 31 {
		return int(p.toks[i].n), true
	}
	return 0, false
}

// yearNum reports whether token i is a four-digit year in 1900..2199.
func (p *parser) yearNum(i int) (int, bool) {
	if i < len(p.toks) && p.toks[i].kind == tNum && !p.toks[i].ord && p.toks[i].nd == 4 && p.toks[i].n >= 1900 && p.toks[i].n <= 2199 {
		return int(p.toks[i].n), true
	}
	return 0, false
}

// connector reports whether token i joins the two ends of a range: a dash,
// "to", "through", "thru", "until" or "till".
func (p *parser) connector(i int) bool {
	return p.kind(i, tDash) || p.word(i, cWord, wTo) || p.word(i, cRel, relUntil)
}

// Places reports whether the phrase places a time (On, During, Around),
// as a date of an event does; "since last week" and "before May" only
// bound one.
func (p Phrase) Places() bool {
	return p.Relation == On || p.Relation == During || p.Relation == Around
}

// Vague reports whether the phrase names no definite time, only a sense of
// recency ("recently", "lately"): its Range is a convention (RecentDays),
// so callers should not let it exclude or strongly favour anything.
func (p Phrase) Vague() bool {
	return slices.Contains(lang.VagueTimePhrases, strings.ToLower(strings.TrimSpace(p.Text)))
}
