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

// phrase matches a phrase starting at token i: an optional relation word and
// a time expression. It returns the phrase and the index after it.
func (p *parser) phrase(i int) (Phrase, int, bool) {
	t := &p.toks[i]
	if t.kind != tWord || t.w.class != cRel {
		sp, j, ok := p.coreTail(i, 0, true)
		if !ok {
			return Phrase{}, 0, false
		}
		return p.plain(sp, j)
	}
	rel := int(t.w.val)
	switch rel {
	case relBetween:
		x, k, ok := p.coreTail(i+1, ctxAll, false)
		if !ok || !p.word(k, cWord, wAnd) {
			return Phrase{}, 0, false
		}
		y, j, ok := p.coreTail(k+1, ctxAll, false)
		if !ok {
			return Phrase{}, 0, false
		}
		r, ok := p.join(x, y)
		return p.make(r, During, time.Time{}, j, ok)
	case relFrom:
		x, k, ok := p.coreTail(i+1, ctxAll, true)
		if !ok {
			return Phrase{}, 0, false
		}
		if !x.hasB && p.connector(k) {
			if y, j, ok := p.coreTail(k+1, ctxAll, false); ok {
				if r, ok := p.join(x, y); ok {
					return p.make(r, During, time.Time{}, j, true)
				}
			}
		}
		if x.hasB {
			return p.plain(x, k)
		}
		rel = relSince
	case relPrior:
		if !p.word(i+1, cWord, wTo) {
			return Phrase{}, 0, false
		}
		i++
		rel = relBefore
	}
	ctx := ctxAll | ctxRel
	switch rel {
	case relOn:
		ctx = ctxAbbr | ctxRel
	case relOver:
		ctx = ctxRel // "over", "within": no bare years or abbreviations ("over 2000 items")
	}
	sp, j, ok := p.coreTail(i+1, ctx, true)
	if !ok {
		return Phrase{}, 0, false
	}
	if sp.hasB && rel == relSince {
		return p.plain(sp, j) // "since Oct 1 until Nov 3" is the range itself
	}
	r, ok := p.finish(sp)
	if !ok {
		return Phrase{}, 0, false
	}
	switch rel {
	case relSince:
		end := p.today
		if end.Before(r.Start) {
			end = r.Start
		}
		return p.make(memory.TimeRange{Start: r.Start, End: end}, Since, time.Time{}, j, true)
	case relBefore:
		return p.make(memory.TimeRange{Start: MinDay, End: r.Start.AddDate(0, 0, -1)}, Until, time.Time{}, j, true)
	case relUntil:
		return p.make(memory.TimeRange{Start: MinDay, End: r.Start}, Until, time.Time{}, j, true)
	case relAfter:
		return p.make(memory.TimeRange{Start: r.End.AddDate(0, 0, 1), End: MaxDay}, After, time.Time{}, j, true)
	case relAround:
		anchor := sp.anchor
		if !sp.around {
			anchor = midpoint(r)
		}
		w := memory.TimeRange{Start: r.Start.AddDate(0, 0, -AroundDays), End: r.End.AddDate(0, 0, AroundDays)}
		return p.make(w, Around, anchor, j, true)
	}
	return p.plain(sp, j)
}

// plain makes a phrase of a span without a relation word (or with "on",
// "in", "during"): On for a single day, During for more, Around for "ago".
func (p *parser) plain(sp span, j int) (Phrase, int, bool) {
	r, ok := p.finish(sp)
	if sp.around {
		return p.make(r, Around, sp.anchor, j, ok)
	}
	rel := During
	if r.Start.Equal(r.End) {
		rel = On
	}
	return p.make(r, rel, time.Time{}, j, ok)
}

func (p *parser) make(r memory.TimeRange, rel Relation, anchor time.Time, j int, ok bool) (Phrase, int, bool) {
	if !ok || r.Start.After(r.End) {
		return Phrase{}, 0, false
	}
	return Phrase{Range: r, Relation: rel, Anchor: anchor}, j, true
}

func midpoint(r memory.TimeRange) time.Time {
	days := int(r.End.Sub(r.Start).Hours() / 24)
	return r.Start.AddDate(0, 0, days/2)
}

// join makes the range "from x to y".
func (p *parser) join(x, y span) (memory.TimeRange, bool) {
	x, y = sameMonth(x, y), sameMonth(y, x)
	if x.abs && !x.hasB && y.abs && !y.hasB {
		return p.finish(span{abs: true, a: x.a, b: y.a, hasB: true})
	}
	rx, ok1 := p.finish(x)
	ry, ok2 := p.finish(y)
	if !ok1 || !ok2 || ry.End.Before(rx.Start) {
		return memory.TimeRange{}, false
	}
	return memory.TimeRange{Start: rx.Start, End: ry.End}, true
}

// dayAlone reports whether token k is a day of the month said alone, as
// an ordinal ("the 3rd", "the 21st") that no month follows and no noun
// either: "the 3rd floor", "the 2nd time" are no days.
func (p *parser) dayAlone(k int) bool {
	if _, ok := p.dayNum(k); !ok || !p.toks[k].ord {
		return false
	}
	if _, _, ok := p.dayMonth(k); ok {
		return false
	}
	if k+1 >= len(p.toks) || p.toks[k+1].kind != tWord {
		return true
	}
	next := p.toks[k+1]
	if next.w.class == cRel || next.w.class == cWord {
		return true // "on the 3rd and the 4th", "on the 3rd at the harbour"
	}
	return slices.Contains(lang.AfterLoneDay, strings.ToLower(p.text[next.start:next.end]))
}

// sameMonth gives a day said alone (x.dayOnly) the month and year of the
// date y it is joined to: "the 10th" of "between the 10th and the 14th of
// March" is March 10.
func sameMonth(x, y span) span {
	if x.dayOnly == 0 || !y.abs || y.hasB || y.a.m == 0 || y.a.d == 0 {
		return x
	}
	a := parts{y: y.a.y, m: y.a.m, d: x.dayOnly}
	if !validDay(a) {
		return x
	}
	return span{abs: true, a: a}
}

// coreTail matches a time expression and, if tails, a range tail after a
// calendar date: "Nov 27–Dec 1, 2025", "Oct 14–16", "2025-11-03 to 2025-11-05".
func (p *parser) coreTail(i, ctx int, tails bool) (span, int, bool) {
	sp, k, ok := p.core(i, ctx)
	if !ok || !tails || !sp.abs || sp.hasB || !p.connector(k) {
		return sp, k, ok
	}
	if sp2, k2, ok := p.core(k+1, ctxAll); ok && sp2.abs && !sp2.hasB && (sp.a.d == 0) == (sp2.a.d == 0) {
		both := span{abs: true, a: sp.a, b: sp2.a, hasB: true}
		if _, ok := p.finish(both); ok {
			return both, k2, true
		}
		return sp, k, true
	}
	if d, ok := p.dayNum(k + 1); ok && sp.a.d > 0 && sp.a.m > 0 {
		b := parts{y: sp.a.y, m: sp.a.m, d: d}
		k2 := k + 2
		y, k3, okY := p.optYear(k2)
		if okY && sp.a.y == 0 {
			sp.a.y, b.y, k2 = y, y, k3
		}
		both := span{abs: true, a: sp.a, b: b, hasB: true}
		if d > sp.a.d {
			if _, ok := p.finish(both); ok {
				return both, k2, true
			}
		}
	}
	return sp, k, true
}

// optYear matches ", 2025", " 2025" or " de 2025" (Spanish) at i.
func (p *parser) optYear(i int) (int, int, bool) {
	if p.kind(i, tComma) || (p.word(i, cWord, wOf) && p.toks[i].end-p.toks[i].start == 2) {
		if y, ok := p.yearNum(i + 1); ok {
			return y, i + 2, true
		}
		return 0, i, false
	}
	if y, ok := p.yearNum(i); ok {
		return y, i + 1, true
	}
	return 0, i, false
}

// core matches one time expression at token i.
func (p *parser) core(i, ctx int) (span, int, bool) {
	if i >= len(p.toks) {
		return span{}, 0, false
	}
	t := &p.toks[i]
	switch t.kind {
	case tISO:
		return span{abs: true, a: parts{y: int(t.n), m: int(t.m), d: int(t.d)}}, i + 1, true
	case tNum:
		if sp, j, ok := p.dayMonth(i); ok {
			return sp, j, true
		}
		if y, ok := p.yearNum(i); ok && ctx&ctxYear != 0 {
			return span{abs: true, a: parts{y: y}}, i + 1, true
		}
		if t.ord {
			return p.part(i) // "2nd half of Dec"
		}
		if !t.ord && t.nd <= 5 && t.n >= 0 {
			return p.ago(int(t.n), i+1)
		}
		return span{}, 0, false
	case tWord:
	default:
		return span{}, 0, false
	}
	w := t.w
	switch w.class {
	case cHoliday:
		if !p.named(i) {
			return span{}, 0, false // "a christmas tree", "easter eggs in the code"
		}
		return p.holiday(int(w.val), i+1)
	case cMonth:
		return p.month(i, ctx)
	case cWeekday:
		k := i + 1
		if w.flags&fAbbrev != 0 && p.kind(k, tDot) {
			k++
		}
		if p.kind(k, tComma) {
			k++
		}
		if sp, j, ok := p.core(k, ctxAll); ok && sp.abs && sp.a.d > 0 {
			return sp, j, true // "Thursday, Nov 27, 2025": the date decides
		}
		if w.flags&fAbbrev != 0 && ctx&ctxAbbr == 0 {
			return span{}, 0, false
		}
		if p.beforeLast(i + 1) {
			// "Saturday before last": the one before last Saturday.
			return p.day(p.weekday(time.Weekday(w.val), wLast).AddDate(0, 0, -7)), i + 3, true
		}
		if sp, j, ok := p.weekdayNextTo(time.Weekday(w.val), i+1); ok {
			return sp, j, true // "the Tuesday after Easter"
		}
		return p.day(p.weekday(time.Weekday(w.val), 0)), i + 1, true
	case cSeason:
		return p.season(int(w.val), 0, i+1, ctx)
	case cOrdinal:
		return p.part(i) // "second half of March"
	case cNumWord:
		n, k := p.count(i)
		return p.ago(n, k)
	case cUnit:
		if w.val == unitYear {
			if y, ok := p.yearNum(i + 1); ok {
				return span{abs: true, a: parts{y: y}}, i + 2, true // "the year 2024"
			}
		}
		return span{}, 0, false
	case cWord:
	default:
		return span{}, 0, false
	}
	switch w.val {
	case wNew:
		if p.word(i+1, cUnit, unitYear) && p.named(i) {
			return p.holiday(holNewYear, i+2) // "New Year", "New Year's Eve"
		}
		return span{}, 0, false
	case wToday, wTonight:
		return p.day(p.today), i + 1, true
	case wYesterday:
		return p.day(p.today.AddDate(0, 0, -1)), i + 1, true
	case wTomorrow:
		return p.day(p.today.AddDate(0, 0, 1)), i + 1, true
	case wRecently:
		return p.rng(p.today.AddDate(0, 0, -RecentDays), p.today), i + 1, true
	case wThe:
		k := i + 1
		if sp, j, ok := p.part(k); ok {
			return sp, j, true // "the end of May", "the second week of June"
		}
		switch {
		case p.word(k, cUnit, unitDay) && p.word(k+1, cRel, relBefore) && p.word(k+2, cWord, wYesterday):
			return p.day(p.today.AddDate(0, 0, -2)), k + 3, true
		case p.dayAlone(k):
			return span{dayOnly: int(p.toks[k].n)}, k + 1, true // "on the 3rd"
		case p.kind(k, tWord) && p.toks[k].w.class == cSeason:
			return p.season(int(p.toks[k].w.val), 0, k+1, ctx)
		case p.word(k, cUnit, unitWeekend) && p.text[p.toks[k].end-1] == 'd' && ctx&ctxRel != 0 &&
			!p.word(k+1, cRel, relAfter) && !p.word(k+1, cRel, relBefore) && !p.word(k+1, cWord, wOf):
			return p.latestWeekend(), k + 1, true // "over the weekend"
		case p.word(k, cUnit, unitWeek) && p.word(k+1, cWord, wOf):
			// "the week of June 8": Monday to Sunday around that day.
			if r, j, ok := p.bounded(k+2, ctxAll); ok && r.Start.Equal(r.End) {
				ws := monday(r.Start)
				return p.rng(ws, ws.AddDate(0, 0, 6)), j, true
			}
			return span{}, 0, false
		case p.word(k, cWord, wNew) && p.word(k+1, cUnit, unitYear):
			return p.holiday(holNewYear, k+2) // "since the new year"
		case k+1 < len(p.toks) && p.toks[k].kind == tWord && p.toks[k].w.class == cUnit && p.beforeLast(k+1):
			// "the week before last", "the weekend before last"
			return p.calendarAt(-2, int(p.toks[k].w.val)), k + 3, true
		case p.word(k, cUnit, unitDay) && p.word(k+1, cRel, relAfter) && p.word(k+2, cWord, wTomorrow):
			return p.day(p.today.AddDate(0, 0, 2)), k + 3, true
		case k+1 < len(p.toks) && p.toks[k].kind == tWord && p.toks[k].w.class == cUnit && (p.word(k+1, cRel, relAfter) || p.word(k+1, cRel, relBefore)):
			return p.nextTo(k)
		case p.word(k, cWord, wLast) || p.word(k, cWord, wPast):
			return p.relative(k, true)
		case p.kind(k, tNum):
			return p.dayMonth(k) // "the 27th of November"
		case p.word(k, cUnit, unitYear):
			return p.core(k, ctx)
		}
		return span{}, 0, false
	case wLast, wPast, wThis, wNext:
		return p.relative(i, false)
	case wStart, wEnd:
		return p.part(i) // "end of last month"
	case wEarlier:
		if p.word(i+1, cWord, wToday) || p.word(i+1, cWord, wThis) {
			return p.core(i+1, ctx) // "earlier today", "earlier this week"
		}
	case wEarly, wMid, wLate:
		sub := 1
		if w.val == wMid {
			sub = 2
		} else if w.val == wLate {
			sub = 3
		}
		k := i + 1
		if p.kind(k, tDash) {
			k++ // "mid-November"
		}
		if y, ok := p.yearNum(k); ok {
			return span{abs: true, a: parts{y: y, sub: sub}}, k + 1, true // "early 2024"
		}
		if k < len(p.toks) && p.toks[k].kind == tWord && p.toks[k].w.class == cSeason {
			// "late summer", "early spring 2024": a third of the season.
			sp, j, ok := p.season(int(p.toks[k].w.val), 0, k+1, ctxRel)
			if !ok {
				return span{}, 0, false
			}
			r := sp.r
			s := r.Start.AddDate(0, sub-1, 0)
			return p.rng(s, s.AddDate(0, 1, -1)), j, true
		}
		if k < len(p.toks) && p.toks[k].kind == tWord && p.toks[k].w.class == cMonth {
			a := parts{m: int(p.toks[k].w.val), sub: sub}
			k++
			if p.toks[k-1].w.flags&fAbbrev != 0 && p.kind(k, tDot) {
				k++
			}
			if _, ok := p.dayNum(k); ok {
				return span{}, 0, false // "late March 3": the date, not a third of March
			}
			if y, j, ok := p.optYear(k); ok {
				a.y, k = y, j
			} else if p.word(k, cWord, wOf) {
				if y, ok := p.yearNum(k + 1); ok {
					a.y, k = y, k+2
				}
			}
			return span{abs: true, a: a}, k, true
		}
	}
	return span{}, 0, false
}

// beforeLast reports whether tokens k and k+1 are "before last" and end
// the phrase there ("the week before last", "Saturday before last"), not
// "before last Friday".
func (p *parser) beforeLast(k int) bool {
	if !p.word(k, cRel, relBefore) || !p.word(k+1, cWord, wLast) {
		return false
	}
	if k+2 < len(p.toks) && p.toks[k+2].kind == tWord {
		switch p.toks[k+2].w.class {
		case cUnit, cWeekday, cMonth, cSeason, cNumWord:
			return false
		}
	}
	return !p.kind(k+2, tNum)
}

// bounded reads a time expression at token k that has both ends ("Easter",
// "Nov 3", not "after May"): its range and the token after it.
func (p *parser) bounded(k, ctx int) (memory.TimeRange, int, bool) {
	sp, j, ok := p.core(k, ctx)
	if !ok {
		return memory.TimeRange{}, 0, false
	}
	r, ok := p.finish(sp)
	if !ok || r.Start.Equal(MinDay) || r.End.Equal(MaxDay) {
		return memory.TimeRange{}, 0, false
	}
	return r, j, true
}

// weekdayNextTo reads "after Easter" or "before Nov 3" at token k, after
// a weekday: the first such weekday after the time ends, or the last
// before it starts.
func (p *parser) weekdayNextTo(wd time.Weekday, k int) (span, int, bool) {
	after := p.word(k, cRel, relAfter)
	if !after && !p.word(k, cRel, relBefore) {
		return span{}, 0, false
	}
	r, j, ok := p.bounded(k+1, ctxAll)
	if !ok {
		return span{}, 0, false
	}
	if after {
		t := r.End.AddDate(0, 0, 1)
		return p.day(t.AddDate(0, 0, (int(wd)-int(t.Weekday())+7)%7)), j, true
	}
	t := r.Start.AddDate(0, 0, -1)
	return p.day(t.AddDate(0, 0, -((int(t.Weekday()) - int(wd) + 7) % 7))), j, true
}

// part reads a part of a time expression, from token k: "start of May",
// "the beginning of the year", "end of last month", "the first days of
// June", "the last few days of May" (the first or last third of it), "the
// second week of June", "the last week of May" (seven days of a month).
func (p *parser) part(k int) (span, int, bool) {
	if k >= len(p.toks) {
		return span{}, 0, false
	}
	w := p.toks[k].w
	nth := int(w.val) // first … fourth
	if t := &p.toks[k]; t.kind == tNum && t.ord && t.n >= 1 && t.n <= 4 {
		w, nth = wordInfo{class: cOrdinal}, int(t.n) // "the 2nd week of May"
	} else if t.kind != tWord {
		return span{}, 0, false
	}
	week, half, first := 0, 0, false
	j := k + 1
	switch {
	case w.class == cWord && (w.val == wStart || w.val == wEnd):
		first = w.val == wStart
	case w.class == cOrdinal || w.class == cWord && w.val == wLast:
		first = w.class == cOrdinal
		if p.word(j, cNumWord, 3) && p.toks[j].end-p.toks[j].start == 3 {
			j++ // "the last few days"
		}
		switch {
		case p.word(j, cUnit, unitWeek) && p.text[p.toks[j].end-1] != 's':
			week = 5 // the last
			if first {
				week = nth
			}
		case p.word(j, cWord, wHalf) && (!first || nth <= 2):
			half = 2 // the second, or the last
			if first {
				half = nth
			}
		case p.word(j, cUnit, unitDay) && p.text[p.toks[j].end-1] == 's' && (!first || nth == 1):
		default:
			return span{}, 0, false
		}
		j++
	default:
		return span{}, 0, false
	}
	if !p.word(j, cWord, wOf) {
		return span{}, 0, false
	}
	var r memory.TimeRange
	var end int
	var ok bool
	if m := j + 1; p.kind(m, tWord) && p.toks[m].w.class == cMonth && p.toks[m].w.flags&fAbbrev == 0 && !p.kind(m+1, tNum) {
		// "the end of May": after "of", a month needs no day or year.
		a := parts{m: int(p.toks[m].w.val)}
		end = m + 1
		if y, k, hasYear := p.optYear(end); hasYear {
			a.y, end = y, k
		}
		r, ok = p.finish(span{abs: true, a: a})
	} else if u := j + 2; p.word(j+1, cWord, wThe) && p.kind(u, tWord) && p.toks[u].w.class == cUnit &&
		(p.toks[u].w.val == unitWeek || p.toks[u].w.val == unitMonth || p.toks[u].w.val == unitYear) &&
		!p.word(u+1, cWord, wOf) && !p.kind(u+1, tNum) && p.text[p.toks[u].end-1] != 's' {
		r, ok = p.finish(p.calendarAt(0, int(p.toks[u].w.val))) // "the end of the month": this one
		end = u + 1
	} else {
		r, end, ok = p.bounded(j+1, ctxAll|ctxRel)
	}
	if !ok {
		return span{}, 0, false
	}
	days := int(r.End.Sub(r.Start).Hours()/24) + 1
	if half > 0 {
		if days < 28 {
			return span{}, 0, false
		}
		mid := r.Start.AddDate(0, 0, days/2) // November: the 1st–15th, the 16th–30th
		if half == 1 {
			return p.rng(r.Start, mid.AddDate(0, 0, -1)), end, true
		}
		return p.rng(mid, r.End), end, true
	}
	if week > 0 {
		if days < 28 {
			return span{}, 0, false // weeks of a month, of a season, of a year
		}
		if week == 5 {
			return p.rng(r.End.AddDate(0, 0, -6), r.End), end, true
		}
		s := r.Start.AddDate(0, 0, 7*(week-1))
		return p.rng(s, s.AddDate(0, 0, 6)), end, true
	}
	if days < 3 {
		return span{}, 0, false
	}
	third := (days + 2) / 3
	if first {
		return p.rng(r.Start, r.Start.AddDate(0, 0, third-1)), end, true
	}
	return p.rng(r.End.AddDate(0, 0, 1-third), r.End), end, true
}

// season reads a season (spring, summer, autumn or fall, winter), its
// name at token k-1: with lead wLast the latest one that ended before
// today, wNext the first that starts after, wThis the one nearest today,
// 0 the latest that has begun. A year may follow ("summer 2025", "the
// summer of 2024"); without one, a bare season needs a relation word
// before it ("in the spring", "over the summer"), as "a summer intern"
// or "the spring release" name no time. Winter 2025 is December 2024 to
// February 2025.
func (p *parser) season(s, lead, k, ctx int) (span, int, bool) {
	y, j, hasYear := p.optYear(k)
	if !hasYear && p.word(k, cWord, wOf) {
		if yy, ok := p.yearNum(k + 1); ok {
			y, j, hasYear = yy, k+2, true
		}
	}
	if hasYear {
		r := seasonRange(s, y)
		return p.rng(r.Start, r.End), j, true
	}
	if lead == 0 && p.beforeLast(k) {
		lead, k = leadBeforeLast, k+2 // "the summer before last"
	}
	if lead == 0 && ctx&ctxRel == 0 {
		return span{}, 0, false
	}
	t := p.today
	y = t.Year() + 1 // the latest season of this kind that has begun by today
	for seasonRange(s, y).Start.After(t) {
		y--
	}
	switch lead {
	case wLast, leadBeforeLast:
		if !seasonRange(s, y).End.Before(t) {
			y--
		}
		if lead == leadBeforeLast {
			y--
		}
	case wNext:
		y++
	case wThis:
		if r := seasonRange(s, y); r.End.Before(t) {
			// Past: this year's, or the coming one if that is nearer.
			next := seasonRange(s, y+1)
			if next.Start.Sub(t) < t.Sub(r.End) {
				y++
			}
		}
	}
	r := seasonRange(s, y)
	return p.rng(r.Start, r.End), k, true
}

// leadBeforeLast stands for "before last" after a season, as wLast
// stands for "last" before one.
const leadBeforeLast = -1

// seasonRange is the range of season s of year y; winter is that of
// December y-1 to February y.
func seasonRange(s, y int) memory.TimeRange {
	m := time.Month(3 * s) // March, June, September, December
	start := time.Date(y, m, 1, 0, 0, 0, 0, time.UTC)
	if s == seasonWinter {
		start = start.AddDate(-1, 0, 0)
	}
	return memory.TimeRange{Start: start, End: start.AddDate(0, 3, -1)}
}

// latestWeekend is the weekend under way, or else the last one.
func (p *parser) latestWeekend() span {
	if wd := p.today.Weekday(); wd == time.Saturday || wd == time.Sunday {
		return p.calendarAt(0, unitWeekend)
	}
	return p.calendarAt(-1, unitWeekend)
}

// holidayFrom reads a holiday led by last, this or next, its name at
// token k-1: last is the latest that ended before today, next the first
// that starts after today, this the one of this year.
func (p *parser) holidayFrom(h, lead, k int) (span, int, bool) {
	h, qual, j, ok := p.holidayName(h, k)
	if !ok || p.kind(j, tNum) {
		return span{}, 0, false // "last Christmas 2024" says two things
	}
	y := p.today.Year()
	for range 3 { // a holiday a year: the one wanted is at most two years off
		s, e, ok := holidayRange(h, qual, y)
		switch {
		case !ok:
			return span{}, 0, false
		case lead == wThis, lead == wLast && e.Before(p.today), lead == wNext && s.After(p.today):
			return p.rng(s, e), j, true
		case lead == wLast:
			y--
		default:
			y++
		}
	}
	return span{}, 0, false
}

// calendarAt is the calendar unit off units from the one containing
// today: -1 last week, -2 the week before last.
func (p *parser) calendarAt(off, unit int) span {
	t := p.today
	ws := monday(t)
	switch unit {
	case unitDay:
		return p.day(t.AddDate(0, 0, off))
	case unitWeek:
		s := ws.AddDate(0, 0, 7*off)
		return p.rng(s, s.AddDate(0, 0, 6))
	case unitWeekend:
		s := ws.AddDate(0, 0, 7*off+5)
		return p.rng(s, s.AddDate(0, 0, 1))
	case unitFortnight:
		return p.rng(t.AddDate(0, 0, 14*off), t.AddDate(0, 0, 14*(off+1)-1))
	case unitMonth:
		s := time.Date(t.Year(), t.Month()+time.Month(off), 1, 0, 0, 0, 0, time.UTC)
		return p.rng(s, s.AddDate(0, 1, -1))
	}
	return span{abs: true, a: parts{y: t.Year() + off}}
}

// nextTo reads "the week after Easter", "the day before Nov 3", "the month
// after the launch date": the unit at token k, next to the time expression
// after the relation word at k+1. The window is that long and starts the
// day after the expression ends (or ends the day before it starts).
func (p *parser) nextTo(k int) (span, int, bool) {
	unit := p.toks[k].w.val
	after := p.word(k+1, cRel, relAfter)
	r, j, ok := p.bounded(k+2, ctxAll)
	if !ok {
		return span{}, 0, false
	}
	var days int
	switch unit {
	case unitDay:
		days = 1
	case unitWeek:
		days = 7
	case unitWeekend:
		days = 2
	case unitFortnight:
		days = 14
	case unitMonth:
		days = 30
	default:
		return span{}, 0, false
	}
	if unit == unitWeekend {
		// The first Saturday and Sunday after (or before) it.
		sat := r.End.AddDate(0, 0, 1)
		for sat.Weekday() != time.Saturday {
			sat = sat.AddDate(0, 0, 1)
		}
		if !after {
			sat = r.Start.AddDate(0, 0, -2)
			for sat.Weekday() != time.Saturday {
				sat = sat.AddDate(0, 0, -1)
			}
		}
		return p.rng(sat, sat.AddDate(0, 0, 1)), j, true
	}
	if after {
		s := r.End.AddDate(0, 0, 1)
		return p.rng(s, s.AddDate(0, 0, days-1)), j, true
	}
	e := r.Start.AddDate(0, 0, -1)
	return p.rng(e.AddDate(0, 0, 1-days), e), j, true
}

// holiday reads a named holiday whose name ends before token k: an
// optional possessive ("New Year's", "Valentine's"), "Eve" or "Day" or
// "Sunday"/"Monday" (Easter), and an optional year. Without a year it is
// the latest one that began on or before today ("over Easter" said in
// May is this year's, said in January last year's).
func (p *parser) holiday(h, k int) (span, int, bool) {
	h, qual, k, ok := p.holidayName(h, k)
	if !ok {
		return span{}, 0, false
	}
	return p.holidayIn(h, qual, k)
}

// holidayName reads the rest of a holiday's name from token k: which
// holiday it is ("Whit Sunday" is Pentecost), the day of it that it
// names ("eve", "day", "monday": Easter Monday; "" for the whole), and
// the token after the name.
func (p *parser) holidayName(h, k int) (int, string, int, bool) {
	if wd, ok := feastDay[h]; ok {
		// "Good Friday", "Whit Monday" (or "Whit Sunday"): the weekday is
		// part of the name, capitalised as the name is.
		switch {
		case p.word(k, cWeekday, int(wd)) && p.named(k):
		case h == holWhit && p.word(k, cWeekday, int(time.Sunday)) && p.named(k):
			h = holPentecost
		default:
			return 0, "", 0, false
		}
		return h, "day", k + 1, true
	}
	if h >= holBoxing {
		// "Boxing Day", "Independence Day", "St Patrick's Day": the day
		// is part of the name.
		if p.kind(k, tOther) && k+1 < len(p.toks) && p.toks[k+1].end-p.toks[k+1].start == 1 && p.toks[k].end-p.toks[k].start <= 3 {
			k += 2 // "'s"
		}
		if !p.word(k, cUnit, unitDay) || !p.named(k) {
			return 0, "", 0, false
		}
		return h, "day", k + 1, true
	}
	if p.kind(k, tOther) && k+1 < len(p.toks) && p.toks[k+1].end-p.toks[k+1].start == 1 && p.toks[k].end-p.toks[k].start <= 3 {
		k += 2 // "'s" (the apostrophe is a token of its own, then "s")
	}
	switch {
	case p.word(k, cWord, wEve):
		return h, "eve", k + 1, true
	case p.word(k, cUnit, unitDay):
		return h, "day", k + 1, true
	case h == holEaster && p.word(k, cWeekday, int(time.Sunday)):
		return h, "day", k + 1, true
	case h == holEaster && p.word(k, cWeekday, int(time.Monday)):
		return h, "monday", k + 1, true
	}
	return h, "", k, true
}

// holidayIn is holiday h (qualified: its eve, its day) of the year at
// token k, if one is written there, else the latest one that began on or
// before today.
func (p *parser) holidayIn(h int, qual string, k int) (span, int, bool) {
	if y, j, ok := p.optYear(k); ok {
		s, e, ok := holidayRange(h, qual, y)
		return p.rng(s, e), j, ok
	}
	y := p.today.Year()
	s, e, ok := holidayRange(h, qual, y)
	if ok && s.After(p.today) {
		s, e, ok = holidayRange(h, qual, y-1)
	}
	return p.rng(s, e), k, ok
}

// fromEaster is the days from Easter Sunday to each feast that Easter
// dates.
var fromEaster = map[int]int{holGood: -2, holMaundy: -3, holHoly: -1, holPalm: -7, holAsh: -46, holWhit: 50}

// feastDay is the weekday that follows each holiday word naming a feast
// day: "Good Friday", "Whit Monday", "Black Friday".
var feastDay = map[int]time.Weekday{
	holGood: time.Friday, holMaundy: time.Thursday, holHoly: time.Saturday, holPalm: time.Sunday,
	holAsh: time.Wednesday, holWhit: time.Monday, holBlack: time.Friday, holCyber: time.Monday,
}

// holidayRange is the range of days holiday h of year y covers: Easter is
// Good Friday to Easter Monday, Christmas the 24th to the 26th, New Year
// the 31st of December before to the 1st of January; "eve" and "day" pick
// one day of them.
func holidayRange(h int, qual string, y int) (time.Time, time.Time, bool) {
	d := func(m time.Month, day int) time.Time { return time.Date(y, m, day, 0, 0, 0, 0, time.UTC) }
	one := func(t time.Time) (time.Time, time.Time, bool) { return t, t, true }
	switch h {
	case holEaster:
		e := easterSunday(y)
		switch qual {
		case "day":
			return one(e)
		case "monday":
			return one(e.AddDate(0, 0, 1))
		}
		return e.AddDate(0, 0, -2), e.AddDate(0, 0, 1), true
	case holPentecost:
		e := easterSunday(y).AddDate(0, 0, 49)
		if qual == "day" {
			return one(e) // "Whit Sunday"
		}
		return e, e.AddDate(0, 0, 1), true
	case holGood, holMaundy, holHoly, holPalm, holAsh, holWhit:
		return one(easterSunday(y).AddDate(0, 0, fromEaster[h]))
	case holBlack, holCyber:
		t, _, _ := holidayRange(holThanksgiving, "", y)
		if h == holBlack {
			return one(t.AddDate(0, 0, 1))
		}
		return one(t.AddDate(0, 0, 4))
	case holBoxing:
		return one(d(time.December, 26))
	case holIndependence:
		return one(d(time.July, 4)) // the United States'
	case holMemorial:
		t := d(time.May, 31)
		for t.Weekday() != time.Monday {
			t = t.AddDate(0, 0, -1)
		}
		return one(t) // the last Monday of May (US)
	case holLabor:
		t := d(time.September, 1)
		for t.Weekday() != time.Monday {
			t = t.AddDate(0, 0, 1)
		}
		return one(t) // the first Monday of September (US)
	case holChristmas:
		switch qual {
		case "eve":
			return one(d(time.December, 24))
		case "day":
			return one(d(time.December, 25))
		}
		return d(time.December, 24), d(time.December, 26), true
	case holNewYear:
		switch qual {
		case "eve":
			return one(d(time.December, 31)) // "New Year's Eve 2025": the 31st of December 2025
		case "day":
			return one(d(time.January, 1))
		}
		return d(time.December, 31).AddDate(-1, 0, 0), d(time.January, 1), true
	case holHalloween:
		return one(d(time.October, 31))
	case holValentine:
		return one(d(time.February, 14))
	case holThanksgiving:
		t := d(time.November, 1)
		for t.Weekday() != time.Thursday {
			t = t.AddDate(0, 0, 1)
		}
		return one(t.AddDate(0, 0, 21)) // the fourth Thursday (US)
	}
	if f, ok := fixedDays[h]; ok {
		return one(d(f.month, f.day))
	}
	return time.Time{}, time.Time{}, false
}

// fixedDays are the dates of the national and saints' days that fall on
// the same day each year: Portugal's Liberty Day, Anzac Day, Australia
// Day, Canada Day, Bastille Day, Waitangi Day, Remembrance (Armistice)
// Day, the Netherlands' King's Day, St Patrick's (Paddy's), St
// Stephen's, St Andrew's, St David's and St George's Days, Kenya's
// Madaraka, Mashujaa and Jamhuri Days, and Assumption Day.
var fixedDays = map[int]struct {
	month time.Month
	day   int
}{
	holLiberty: {time.April, 25}, holAnzac: {time.April, 25}, holAustralia: {time.January, 26},
	holCanada: {time.July, 1}, holBastille: {time.July, 14}, holWaitangi: {time.February, 6},
	holRemembrance: {time.November, 11}, holKings: {time.April, 27}, holPatrick: {time.March, 17},
	holStephen: {time.December, 26}, holAndrew: {time.November, 30}, holDavid: {time.March, 1},
	holGeorge: {time.April, 23}, holMadaraka: {time.June, 1}, holMashujaa: {time.October, 20},
	holJamhuri: {time.December, 12}, holAssumption: {time.August, 15},
}

// easterSunday is the date of Western Easter in year y (the anonymous
// Gregorian algorithm).
func easterSunday(y int) time.Time {
	a, b, c := y%19, y/100, y%100
	d, e := b/4, b%4
	f := (b + 8) / 25
	g := (b - f + 1) / 3
	h := (19*a + b - d - g + 15) % 30
	i, k := c/4, c%4
	l := (32 + 2*e + 2*i - h - k) % 7
	m := (a + 11*h + 22*l) / 451
	month := (h + l - 7*m + 114) / 31
	day := (h+l-7*m+114)%31 + 1
	return time.Date(y, time.Month(month), day, 0, 0, 0, 0, time.UTC)
}

// month matches a month name and what follows it: "Nov 27", "November 27th,
// 2025", "Nov 2025", or a bare month where that is unambiguous.
func (p *parser) month(i, ctx int) (span, int, bool) {
	w := p.toks[i].w
	a := parts{m: int(w.val)}
	k := i + 1
	if w.flags&fAbbrev != 0 && p.kind(k, tDot) {
		k++
	}
	if a.m == 5 && w.flags&fAbbrev == 0 && p.word(k, cUnit, unitDay) && p.named(i) && p.named(k) && p.toks[i].end-p.toks[i].start == 3 {
		a.d, k = 1, k+1 // "May Day": the first of May
		if y, j, ok := p.optYear(k); ok {
			a.y, k = y, j
		}
		return span{abs: true, a: a}, k, true
	}
	if d, ok := p.dayNum(k); ok {
		a.d = d
		k++
		if y, j, ok := p.optYear(k); ok {
			a.y, k = y, j
		}
		if !validDay(a) {
			return span{}, 0, false
		}
		return span{abs: true, a: a}, k, true
	}
	if y, ok := p.yearNum(k); ok {
		a.y = y
		return span{abs: true, a: a}, k + 1, true
	}
	if p.word(k, cWord, wOf) {
		if y, ok := p.yearNum(k + 1); ok {
			a.y = y
			return span{abs: true, a: a}, k + 2, true
		}
	}
	if (w.flags&fAmbiguous != 0 || (w.flags&fAbbrev != 0 && ctx&ctxAbbr == 0)) && !p.monthDash(i, k) {
		return span{}, 0, false
	}
	return span{abs: true, a: a}, k, true
}

// monthDash reports whether the month name at i (ending before k) and
// another are joined by a dash, either way: an end of a range of months
// ("Jan–Feb 2026", "March–April", "Mar-Apr"), however ambiguous or
// abbreviated it is alone ("march", "may", "Jan" the name).
func (p *parser) monthDash(i, k int) bool {
	isMonth := func(j int) bool { return j >= 0 && p.kind(j, tWord) && p.toks[j].w.class == cMonth }
	if p.kind(k, tDash) && isMonth(k+1) {
		return true
	}
	j := i - 1
	if j >= 1 && p.kind(j-1, tWord) && p.kind(j, tDot) {
		j-- // "Jan.–Feb."
	}
	return j >= 1 && p.kind(j, tDash) && (isMonth(j-1) || (p.kind(j-1, tDot) && isMonth(j-2)))
}

// dayMonth matches "27 Nov", "27th of November 2025", "27–30 Nov".
func (p *parser) dayMonth(i int) (span, int, bool) {
	d, ok := p.dayNum(i)
	if !ok {
		return span{}, 0, false
	}
	k := i + 1
	d2 := 0
	if p.connector(k) {
		if n, ok := p.dayNum(k + 1); ok && n > d {
			d2 = n
			k += 2
		}
	}
	if p.word(k, cWord, wOf) {
		k++
	} else if d2 == 0 && p.kind(k, tDot) && k+1 < len(p.toks) && p.toks[k+1].kind == tWord && p.toks[k+1].w.class == cMonth {
		k++ // "27. November 2025", as German writes it
	}
	if k >= len(p.toks) || p.toks[k].kind != tWord || p.toks[k].w.class != cMonth {
		return span{}, 0, false
	}
	mw := p.toks[k].w
	k++
	if mw.flags&fAbbrev != 0 && p.kind(k, tDot) {
		k++
	}
	a := parts{m: int(mw.val), d: d}
	if y, j, ok := p.optYear(k); ok {
		a.y, k = y, j
	}
	if !validDay(a) {
		return span{}, 0, false
	}
	if d2 == 0 {
		return span{abs: true, a: a}, k, true
	}
	b := a
	b.d = d2
	if !validDay(b) {
		return span{}, 0, false
	}
	return span{abs: true, a: a, b: b, hasB: true}, k, true
}

// count reads a spelled-out count at i: "a", "two", "a couple of", "a few".
func (p *parser) count(i int) (int, int) {
	n := int(p.toks[i].w.val)
	k := i + 1
	if n == 1 && k < len(p.toks) && p.toks[k].kind == tWord && p.toks[k].w.class == cNumWord && p.toks[k].w.val >= 2 {
		n = int(p.toks[k].w.val) // "a couple", "a few"
		k++
	}
	if p.word(k, cWord, wOf) {
		k++ // "a couple of"
	}
	return n, k
}

// ago matches "<unit> ago" at k, for a count n already read.
func (p *parser) ago(n, k int) (span, int, bool) {
	if k+1 >= len(p.toks) || p.toks[k].kind != tWord || p.toks[k].w.class != cUnit || !p.word(k+1, cWord, wAgo) || n > 10000 {
		return span{}, 0, false
	}
	j := k + 2
	if p.word(j, cWord, wToday) {
		// "two weeks ago today", "a year ago today": that very day.
		switch p.toks[k].w.val {
		case unitDay:
			return p.day(p.today.AddDate(0, 0, -n)), j + 1, true
		case unitWeek:
			return p.day(p.today.AddDate(0, 0, -7*n)), j + 1, true
		case unitMonth:
			return p.day(p.today.AddDate(0, -n, 0)), j + 1, true
		case unitYear:
			return p.day(p.today.AddDate(-n, 0, 0)), j + 1, true
		}
	}
	switch p.toks[k].w.val {
	case unitMinute:
		return p.day(memory.Day(p.now.Add(-time.Duration(n) * time.Minute))), j, true
	case unitHour:
		return p.day(memory.Day(p.now.Add(-time.Duration(n) * time.Hour))), j, true
	case unitDay:
		return p.day(p.today.AddDate(0, 0, -n)), j, true
	case unitWeek:
		return p.near(p.today.AddDate(0, 0, -7*n), 3), j, true
	case unitFortnight:
		return p.near(p.today.AddDate(0, 0, -14*n), 3), j, true
	case unitWeekend:
		return p.calendarAt(-n, unitWeekend), j, true // "two weekends ago"
	case unitMonth:
		return p.near(p.today.AddDate(0, -n, 0), 15), j, true
	case unitYear:
		return p.near(p.today.AddDate(-n, 0, 0), 182), j, true
	}
	return span{}, 0, false
}

// relative matches expressions led by last, past, this or next at i:
// "last week", "past 3 weeks", "next Tuesday", "last November". After
// "the", "last N" and "last week" are rolling windows ending today.
func (p *parser) relative(i int, afterThe bool) (span, int, bool) {
	lead := int(p.toks[i].w.val)
	k := i + 1
	if k >= len(p.toks) {
		return span{}, 0, false
	}
	t := &p.toks[k]
	n, hasCount := 0, false
	switch {
	case t.kind == tNum && !t.ord && t.nd <= 5:
		n, hasCount = int(t.n), true
		k++
	case t.kind == tWord && t.w.class == cNumWord && t.w.val != 1: // not "last a"
		n, k = p.count(k)
		hasCount = true
	}
	if hasCount {
		if k >= len(p.toks) || p.toks[k].kind != tWord || p.toks[k].w.class != cUnit || p.toks[k].w.val == unitWeekend || n > 10000 {
			return span{}, 0, false
		}
		return p.rolling(lead, n, int(p.toks[k].w.val)), k + 1, true
	}
	if lead == wThis && p.word(k, cWord, wPast) {
		return p.relative(k, false) // "this past weekend", "this past Monday"
	}
	switch t.w.class {
	case cUnit:
		unit := int(t.w.val)
		if unit == unitWeekend && (lead == wPast || afterThe && lead == wLast) {
			return p.calendar(wLast, unitWeekend), k + 1, true // "the past weekend": last weekend
		}
		if lead == wPast || (afterThe && lead == wLast) {
			return p.rolling(wLast, 1, unit), k + 1, true
		}
		return p.calendar(lead, unit), k + 1, true
	case cHoliday:
		if lead == wPast || !p.named(k) {
			return span{}, 0, false
		}
		return p.holidayFrom(int(t.w.val), lead, k+1) // "last Christmas", "next Easter"
	case cWeekday:
		if lead == wPast {
			lead = wLast
		}
		return p.day(p.weekday(time.Weekday(t.w.val), lead)), k + 1, true
	case cSeason:
		if lead == wPast {
			return span{}, 0, false
		}
		return p.season(int(t.w.val), lead, k+1, 0)
	case cMonth:
		if lead == wPast {
			return span{}, 0, false
		}
		m := int(t.w.val)
		y, cur := p.today.Year(), int(p.today.Month())
		switch {
		case lead == wLast && m >= cur:
			y--
		case lead == wNext && m <= cur:
			y++
		}
		return span{abs: true, a: parts{y: y, m: m}}, k + 1, true
	case cWord:
		switch {
		case t.w.val == wNight && lead == wLast:
			return p.day(p.today.AddDate(0, 0, -1)), k + 1, true
		case t.w.val == wPartOfDay && lead == wThis:
			return p.day(p.today), k + 1, true
		}
	}
	return span{}, 0, false
}

// rolling is the window of n units ending today (last, past) or starting
// today (next).
func (p *parser) rolling(lead, n, unit int) span {
	var other time.Time
	sign := -1
	if lead == wNext || lead == wThis {
		sign = 1
	}
	switch unit {
	case unitMinute:
		other = memory.Day(p.now.Add(time.Duration(sign*n) * time.Minute))
	case unitHour:
		other = memory.Day(p.now.Add(time.Duration(sign*n) * time.Hour))
	case unitDay:
		other = p.today.AddDate(0, 0, sign*n)
	case unitWeek:
		other = p.today.AddDate(0, 0, sign*7*n)
	case unitFortnight:
		other = p.today.AddDate(0, 0, sign*14*n)
	case unitMonth:
		other = p.today.AddDate(0, sign*n, 0)
	default:
		other = p.today.AddDate(sign*n, 0, 0)
	}
	if sign < 0 {
		return p.rng(other, p.today)
	}
	return p.rng(p.today, other)
}

// calendar is the calendar unit before (last), containing (this) or after
// (next) today.
func (p *parser) calendar(lead, unit int) span {
	off := 0
	switch lead {
	case wLast:
		off = -1
	case wNext:
		off = 1
	}
	switch unit {
	case unitMinute, unitHour:
		return p.day(p.today)
	case unitFortnight:
		if lead == wNext {
			return p.rolling(wNext, 1, unitFortnight) // "the next fortnight"
		}
		return p.rolling(wLast, 1, unitFortnight) // "last fortnight", "this fortnight"
	}
	return p.calendarAt(off, unit)
}

// weekday finds a day of the week: lead wLast is the latest one before
// today, wNext the first one after, wThis the one in this Monday-based week,
// and 0 (a bare weekday) the latest one not after today.
func (p *parser) weekday(wd time.Weekday, lead int) time.Time {
	t := p.today
	switch lead {
	case wThis:
		ws := monday(t)
		return ws.AddDate(0, 0, (int(wd)+6)%7)
	case wNext:
		t = t.AddDate(0, 0, 1)
		return t.AddDate(0, 0, (int(wd)-int(t.Weekday())+7)%7)
	case wLast:
		t = t.AddDate(0, 0, -1)
	}
	return t.AddDate(0, 0, -((int(t.Weekday()) - int(wd) + 7) % 7))
}

// monday is the Monday of t's week (weeks run Monday to Sunday).
func monday(t time.Time) time.Time {
	return t.AddDate(0, 0, -((int(t.Weekday()) + 6) % 7))
}

func (p *parser) day(t time.Time) span {
	return span{r: memory.TimeRange{Start: t, End: t}}
}

func (p *parser) rng(s, e time.Time) span {
	return span{r: memory.TimeRange{Start: s, End: e}}
}

// near is the window of ±half days around anchor, clipped at today.
func (p *parser) near(anchor time.Time, half int) span {
	e := anchor.AddDate(0, 0, half)
	if e.After(p.today) && !anchor.After(p.today) {
		e = p.today
	}
	return span{r: memory.TimeRange{Start: anchor.AddDate(0, 0, -half), End: e}, around: true, anchor: anchor}
}

// finish resolves a span to its range, filling in missing years: a lone date
// takes the latest year that puts it not after today; in a range, a year
// written on one end applies to the other.
func (p *parser) finish(sp span) (memory.TimeRange, bool) {
	if sp.dayOnly > 0 {
		return p.latestDay(sp.dayOnly)
	}
	if !sp.abs {
		return sp.r, true
	}
	a, b := sp.a, sp.b
	if !sp.hasB {
		if a.y == 0 {
			a = p.resolveYear(a)
		}
		return a.rangeOf()
	}
	switch {
	case a.y == 0 && b.y == 0:
		a = p.resolveYear(a)
		b.y = a.y
		if b.first().Before(a.first()) {
			b.y++
		}
	case a.y == 0:
		a.y = b.y
		if a.first().After(b.first()) {
			a.y--
		}
	case b.y == 0:
		b.y = a.y
		if b.first().Before(a.first()) {
			b.y++
		}
	}
	ra, ok1 := a.rangeOf()
	rb, ok2 := b.rangeOf()
	if !ok1 || !ok2 || rb.End.Before(ra.Start) {
		return memory.TimeRange{}, false
	}
	return memory.TimeRange{Start: ra.Start, End: rb.End}, true
}

// latestDay is the latest day d of a month up to today: "on the 3rd"
// said on the 10th is this month's, said on the 2nd last month's (or the
// month before, where last month has no such day).
func (p *parser) latestDay(d int) (memory.TimeRange, bool) {
	y, m := p.today.Year(), p.today.Month()
	if d > p.today.Day() {
		m--
	}
	for range 3 {
		if t := time.Date(y, m, 1, 0, 0, 0, 0, time.UTC); d <= daysIn(t.Year(), int(t.Month())) {
			day := time.Date(t.Year(), t.Month(), d, 0, 0, 0, 0, time.UTC)
			return memory.TimeRange{Start: day, End: day}, true
		}
		m--
	}
	return memory.TimeRange{}, false
}

// resolveYear gives a the latest year that puts its start not after today.
func (p *parser) resolveYear(a parts) parts {
	y := p.today.Year()
	if a.m == 0 {
		a.y = y
		return a
	}
	for k := 0; k < 8; k++ {
		a.y = y - k
		if (a.d == 0 || a.d <= daysIn(a.y, a.m)) && !a.first().After(p.today) {
			return a
		}
	}
	return a
}

// first is the first day of a's range (which may not be valid yet).
func (a parts) first() time.Time {
	d := max(a.d, 1)
	return time.Date(a.y, time.Month(max(a.m, 1)), d, 0, 0, 0, 0, time.UTC)
}

// rangeOf is the range of days a covers, once its year is known.
func (a parts) rangeOf() (memory.TimeRange, bool) {
	if a.y < 1 || a.y > 9999 {
		return memory.TimeRange{}, false
	}
	switch {
	case a.m == 0:
		s, e := time.Date(a.y, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(a.y, 12, 31, 0, 0, 0, 0, time.UTC)
		switch a.sub {
		case 1:
			e = time.Date(a.y, 4, 30, 0, 0, 0, 0, time.UTC)
		case 2:
			s, e = time.Date(a.y, 5, 1, 0, 0, 0, 0, time.UTC), time.Date(a.y, 8, 31, 0, 0, 0, 0, time.UTC)
		case 3:
			s = time.Date(a.y, 9, 1, 0, 0, 0, 0, time.UTC)
		}
		return memory.TimeRange{Start: s, End: e}, true
	case a.d == 0:
		last := daysIn(a.y, a.m)
		s, e := 1, last
		switch a.sub {
		case 1:
			e = 10
		case 2:
			s, e = 11, 20
		case 3:
			s = 21
		}
		m := time.Month(a.m)
		return memory.TimeRange{Start: time.Date(a.y, m, s, 0, 0, 0, 0, time.UTC), End: time.Date(a.y, m, e, 0, 0, 0, 0, time.UTC)}, true
	}
	if a.d > daysIn(a.y, a.m) {
		return memory.TimeRange{}, false
	}
	t := time.Date(a.y, time.Month(a.m), a.d, 0, 0, 0, 0, time.UTC)
	return memory.TimeRange{Start: t, End: t}, true
}

// validDay reports whether a's day can exist in its month (in some year,
// when the year is unknown: Feb 29 is valid).
func validDay(a parts) bool {
	if a.y == 0 {
		return a.d <= daysIn(2000, a.m)
	}
	return a.d <= daysIn(a.y, a.m)
}

// daysIn is the number of days in month m of year y.
func daysIn(y, m int) int {
	return time.Date(y, time.Month(m)+1, 0, 0, 0, 0, 0, time.UTC).Day()
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
