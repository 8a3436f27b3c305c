package datephrase

import (
	"slices"
	"strings"
	"time"

	"memoria/lang"
	"memoria/memory"
)

// The grammar of a whole phrase: a relation word and what it relates
// ("since last week", "around Easter"), and ranges ("from Oct 3 to Oct
// 9", "Nov 27–Dec 1, 2025").

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
	switch rel := int(t.w.val); rel {
	case relBetween:
		return p.between(i)
	case relFrom:
		return p.from(i)
	case relPrior:
		if !p.word(i+1, cWord, wTo) {
			return Phrase{}, 0, false
		}
		return p.related(relBefore, i+1) // "prior to"
	default:
		return p.related(rel, i)
	}
}

// between matches "between X and Y" at token i; either end may be
// hedged ("between around 3 March and 9 March").
func (p *parser) between(i int) (Phrase, int, bool) {
	x, k, ok := p.coreTail(p.hedged(i+1), ctxAll, false)
	if !ok || !p.word(k, cWord, wAnd) {
		return Phrase{}, 0, false
	}
	y, j, ok := p.coreTail(p.hedged(k+1), ctxAll, false)
	if !ok {
		return Phrase{}, 0, false
	}
	r, ok := p.join(x, y)
	return p.make(r, During, time.Time{}, j, ok)
}

// from matches "from X to Y" at token i, a range, either end of which
// may be hedged ("from 23 March until around 8 April"); or "from X",
// which is "since X" ("from around X" alone is left to "around X").
func (p *parser) from(i int) (Phrase, int, bool) {
	x, k, ok := p.coreTail(p.hedged(i+1), ctxAll, true)
	if !ok {
		return Phrase{}, 0, false
	}
	if x.hasB {
		return p.plain(x, k) // "from Nov 27–Dec 1"
	}
	if p.connector(k) {
		if y, j, ok := p.coreTail(p.hedged(k+1), ctxAll, false); ok {
			if r, ok := p.join(x, y); ok {
				return p.make(r, During, time.Time{}, j, true)
			}
		}
	}
	return p.related(relSince, i)
}

// related matches the time expression after the relation word rel at
// token i, and makes the phrase of the two: "since X" runs from X's
// start through today, "before X" from MinDay to the day before X,
// "around X" is a window about X's middle; "on", "in", "over" and the
// like are X itself.
func (p *parser) related(rel, i int) (Phrase, int, bool) {
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

// coreTail matches a time expression and, if tails, a range tail after a
// calendar date: "Nov 27–Dec 1, 2025", "Oct 14–16", "2025-11-03 to
// 2025-11-05", "23 March until around 8 April" (a hedged end).
func (p *parser) coreTail(i, ctx int, tails bool) (span, int, bool) {
	sp, k, ok := p.core(i, ctx)
	if !ok || !tails || !sp.abs || sp.hasB || !p.connector(k) {
		return sp, k, ok
	}
	if sp2, k2, ok := p.core(p.hedged(k+1), ctxAll); ok && sp2.abs && !sp2.hasB && (sp.a.d == 0) == (sp2.a.d == 0) {
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

// hedged is the token after a hedge at token k ("around", "circa",
// "approximately"), or k where there is none. An end of a range may be
// hedged: "from 23 March until around 8 April" is the range, not a
// window around its end.
func (p *parser) hedged(k int) int {
	if p.word(k, cRel, relAround) {
		return k + 1
	}
	return k
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
