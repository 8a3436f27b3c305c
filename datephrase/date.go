package datephrase

import (
	"time"

	"memoria/memory"
)

// The grammar of calendar dates ("Nov 27", "27th of November 2025",
// "27–30 Nov", "March 2024"), and how a date written without its year
// gets one.

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
	date := func(m, d int) time.Time { return time.Date(a.y, time.Month(m), d, 0, 0, 0, 0, time.UTC) }
	switch {
	case a.m == 0 && a.sub > 0:
		// A third of the year: January to April, May to August,
		// September to December.
		s := date(4*a.sub-3, 1)
		return memory.TimeRange{Start: s, End: s.AddDate(0, 4, -1)}, true
	case a.m == 0:
		return memory.TimeRange{Start: date(1, 1), End: date(12, 31)}, true
	case a.d == 0:
		// The month, or a third of it: the 1st to the 10th, the 11th to
		// the 20th, the 21st to its end.
		s, e := 1, daysIn(a.y, a.m)
		if a.sub > 0 {
			s = 10*a.sub - 9
		}
		if a.sub == 1 || a.sub == 2 {
			e = 10 * a.sub
		}
		return memory.TimeRange{Start: date(a.m, s), End: date(a.m, e)}, true
	}
	if a.d > daysIn(a.y, a.m) {
		return memory.TimeRange{}, false
	}
	t := date(a.m, a.d)
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
