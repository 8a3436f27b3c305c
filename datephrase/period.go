package datephrase

import (
	"cmp"
	"time"

	"memoria/memory"
)

// The grammar of parts of a period ("the end of May", "the second week of
// June", "the first half of 2024") and of seasons.

// partOf is a part of a period that a phrase names: its first or last
// third (start, end, "the first days of"), a week of it (1 to 4, 5 for
// the last), or a half (1 or 2).
type partOf struct {
	first      bool
	week, half int
}

// part reads a part of a time expression, from token k: "start of May",
// "the beginning of the year", "end of last month", "the first days of
// June", "the last few days of May" (the first or last third of it), "the
// second week of June", "the last week of May" (seven days of a month).
func (p *parser) part(k int) (span, int, bool) {
	pt, j, ok := p.partName(k)
	if !ok || !p.word(j, cWord, wOf) {
		return span{}, 0, false
	}
	r, end, ok := p.partPeriod(j + 1)
	if !ok {
		return span{}, 0, false
	}
	sp, ok := p.cut(r, pt)
	if !ok {
		return span{}, 0, false
	}
	return sp, end, true
}

// partName reads the name of a part at token k, up to "of": "start",
// "end", "first week", "2nd half", "last few days". It returns the part
// and the token after its name.
func (p *parser) partName(k int) (partOf, int, bool) {
	if k >= len(p.toks) {
		return partOf{}, 0, false
	}
	t := &p.toks[k]
	switch {
	case t.kind == tNum && t.ord && t.n >= 1 && t.n <= 4:
		return p.nthPart(k+1, int(t.n)) // "the 2nd week of May"
	case t.kind != tWord:
	case t.w.class == cWord && (t.w.val == wStart || t.w.val == wEnd):
		return partOf{first: t.w.val == wStart}, k + 1, true
	case t.w.class == cOrdinal:
		return p.nthPart(k+1, int(t.w.val))
	case t.w.class == cWord && t.w.val == wLast:
		return p.nthPart(k+1, 0)
	}
	return partOf{}, 0, false
}

// nthPart reads what the ordinal nth (1 to 4; 0 for "last") before token
// j counts: a week ("the second week"), a half ("the first half"), or days
// ("the first days", "the last few days": a third).
func (p *parser) nthPart(j, nth int) (partOf, int, bool) {
	first := nth > 0
	if p.word(j, cNumWord, 3) && p.toks[j].end-p.toks[j].start == 3 {
		j++ // "the last few days"
	}
	plural := p.kind(j, tWord) && p.text[p.toks[j].end-1] == 's'
	switch {
	case p.word(j, cUnit, unitWeek) && !plural:
		return partOf{first: first, week: cmp.Or(nth, 5)}, j + 1, true
	case p.word(j, cWord, wHalf) && nth <= 2:
		return partOf{first: first, half: cmp.Or(nth, 2)}, j + 1, true
	case p.word(j, cUnit, unitDay) && plural && nth <= 1:
		return partOf{first: first}, j + 1, true
	}
	return partOf{}, 0, false
}

// partPeriod reads the period a part is of, at token m after "of": a
// month, which needs no day or year there ("the end of May"), "the
// week", "the month" or "the year", which are this one ("the end of the
// month"), or any time expression with both ends.
func (p *parser) partPeriod(m int) (memory.TimeRange, int, bool) {
	switch {
	case p.kind(m, tWord) && p.toks[m].w.class == cMonth && p.toks[m].w.flags&fAbbrev == 0 && !p.kind(m+1, tNum):
		a := parts{m: int(p.toks[m].w.val)}
		end := m + 1
		if y, k, hasYear := p.optYear(end); hasYear {
			a.y, end = y, k
		}
		r, ok := p.finish(span{abs: true, a: a})
		return r, end, ok
	case p.word(m, cWord, wThe) && p.thisUnit(m+1):
		r, ok := p.finish(p.calendarAt(0, int(p.toks[m+1].w.val)))
		return r, m + 2, ok
	}
	return p.bounded(m, ctxAll|ctxRel)
}

// thisUnit reports whether token u is "week", "month" or "year" said
// alone after "the": this one, as in "the end of the month"; not "the
// months", "the week of …" or "the year 2024".
func (p *parser) thisUnit(u int) bool {
	if !p.kind(u, tWord) || p.toks[u].w.class != cUnit {
		return false
	}
	switch p.toks[u].w.val {
	case unitWeek, unitMonth, unitYear:
		return !p.word(u+1, cWord, wOf) && !p.kind(u+1, tNum) && p.text[p.toks[u].end-1] != 's'
	}
	return false
}

// cut is the part pt of the range r: a half of it, a week of a month
// (1–7, 8–14, …, the last 7 days), or its first or last third.
func (p *parser) cut(r memory.TimeRange, pt partOf) (span, bool) {
	days := int(r.End.Sub(r.Start).Hours()/24) + 1
	switch {
	case pt.half > 0 && days < 28, pt.week > 0 && days < 28, days < 3:
		return span{}, false // weeks and halves of a month, a season, a year; thirds of 3 days or more
	case pt.half == 1:
		mid := r.Start.AddDate(0, 0, days/2) // November: the 1st–15th, the 16th–30th
		return p.rng(r.Start, mid.AddDate(0, 0, -1)), true
	case pt.half == 2:
		return p.rng(r.Start.AddDate(0, 0, days/2), r.End), true
	case pt.week == 5:
		return p.rng(r.End.AddDate(0, 0, -6), r.End), true
	case pt.week > 0:
		s := r.Start.AddDate(0, 0, 7*(pt.week-1))
		return p.rng(s, s.AddDate(0, 0, 6)), true
	}
	third := (days + 2) / 3
	if pt.first {
		return p.rng(r.Start, r.Start.AddDate(0, 0, third-1)), true
	}
	return p.rng(r.End.AddDate(0, 0, 1-third), r.End), true
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
