package datephrase

import (
	"time"

	"memoria/memory"
)

// The grammar of one time expression, the phrase without its relation
// word: core reads what a token starts, the helpers below each case.

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
		return p.number(i, ctx)
	case tWord:
		return p.keyword(i, ctx)
	}
	return span{}, 0, false
}

// number matches an expression that starts with a number at token i: a
// day and its month ("27 Nov"), a year after a relation word ("in
// 2024"), a part of a period ("2nd half of Dec"), a count ("3 days ago").
func (p *parser) number(i, ctx int) (span, int, bool) {
	t := &p.toks[i]
	if sp, j, ok := p.dayMonth(i); ok {
		return sp, j, true
	}
	if y, ok := p.yearNum(i); ok && ctx&ctxYear != 0 {
		return span{abs: true, a: parts{y: y}}, i + 1, true
	}
	if t.ord {
		return p.part(i) // "2nd half of Dec"
	}
	if t.nd <= 5 && t.n >= 0 {
		return p.ago(int(t.n), i+1)
	}
	return span{}, 0, false
}

// keyword matches an expression that starts with the keyword at token i.
func (p *parser) keyword(i, ctx int) (span, int, bool) {
	w := p.toks[i].w
	switch w.class {
	case cHoliday:
		if !p.named(i) {
			return span{}, 0, false // "a christmas tree", "easter eggs in the code"
		}
		return p.holiday(int(w.val), i+1)
	case cMonth:
		return p.month(i, ctx)
	case cWeekday:
		return p.weekdayAt(i, ctx)
	case cSeason:
		return p.season(int(w.val), 0, i+1, ctx)
	case cOrdinal:
		return p.part(i) // "second half of March"
	case cNumWord:
		n, k := p.count(i)
		return p.ago(n, k)
	case cUnit:
		if y, ok := p.yearNum(i + 1); ok && w.val == unitYear {
			return span{abs: true, a: parts{y: y}}, i + 2, true // "the year 2024"
		}
	case cWord:
		return p.grammarWord(i, ctx)
	}
	return span{}, 0, false
}

// weekdayAt matches a weekday at token i: "Tuesday", "on Sat", "Saturday
// before last", "the Tuesday after Easter", or the date it leads
// ("Thursday, Nov 27, 2025").
func (p *parser) weekdayAt(i, ctx int) (span, int, bool) {
	w := p.toks[i].w
	abbrev := w.flags&fAbbrev != 0
	k := i + 1
	if abbrev && p.kind(k, tDot) {
		k++
	}
	if p.kind(k, tComma) {
		k++
	}
	if sp, j, ok := p.core(k, ctxAll); ok && sp.abs && sp.a.d > 0 {
		return sp, j, true // "Thursday, Nov 27, 2025": the date decides
	}
	if abbrev && ctx&ctxAbbr == 0 {
		return span{}, 0, false
	}
	wd := time.Weekday(w.val)
	if p.beforeLast(i + 1) {
		// "Saturday before last": the one before last Saturday.
		return p.day(p.weekday(wd, wLast).AddDate(0, 0, -7)), i + 3, true
	}
	if sp, j, ok := p.weekdayNextTo(wd, i+1); ok {
		return sp, j, true // "the Tuesday after Easter"
	}
	return p.day(p.weekday(wd, 0)), i + 1, true
}

// grammarWord matches an expression led by a word of the grammar (cWord)
// at token i: "today", "the …", "last week", "end of May", "earlier
// today", "mid-November", "New Year".
func (p *parser) grammarWord(i, ctx int) (span, int, bool) {
	switch w := p.toks[i].w; w.val {
	case wNew:
		if p.word(i+1, cUnit, unitYear) && p.named(i) {
			return p.holiday(holNewYear, i+2) // "New Year", "New Year's Eve"
		}
	case wToday, wTonight:
		return p.day(p.today), i + 1, true
	case wYesterday:
		return p.day(p.today.AddDate(0, 0, -1)), i + 1, true
	case wTomorrow:
		return p.day(p.today.AddDate(0, 0, 1)), i + 1, true
	case wRecently:
		return p.rng(p.today.AddDate(0, 0, -RecentDays), p.today), i + 1, true
	case wThe:
		return p.the(i+1, ctx)
	case wLast, wPast, wThis, wNext:
		return p.relative(i, false)
	case wStart, wEnd:
		return p.part(i) // "end of last month"
	case wEarlier:
		if p.word(i+1, cWord, wToday) || p.word(i+1, cWord, wThis) {
			return p.core(i+1, ctx) // "earlier today", "earlier this week"
		}
	case wEarly, wMid, wLate:
		return p.third(int(w.val)-wEarly+1, i+1)
	}
	return span{}, 0, false
}

// the matches what follows "the" at token k: a part of a period ("the end
// of May"), a unit ("the week before last"), a day of the month said
// alone ("the 3rd"), a season, "the new year", "the last 10 days", a
// date ("the 27th of November").
func (p *parser) the(k, ctx int) (span, int, bool) {
	if sp, j, ok := p.part(k); ok {
		return sp, j, true // "the end of May", "the second week of June"
	}
	if p.kind(k, tWord) && p.toks[k].w.class == cUnit {
		return p.theUnit(k, ctx)
	}
	switch {
	case p.dayAlone(k):
		return span{dayOnly: int(p.toks[k].n)}, k + 1, true // "on the 3rd"
	case p.kind(k, tWord) && p.toks[k].w.class == cSeason:
		return p.season(int(p.toks[k].w.val), 0, k+1, ctx)
	case p.word(k, cWord, wNew) && p.word(k+1, cUnit, unitYear):
		return p.holiday(holNewYear, k+2) // "since the new year"
	case p.word(k, cWord, wLast) || p.word(k, cWord, wPast):
		return p.relative(k, true)
	case p.kind(k, tNum):
		return p.dayMonth(k) // "the 27th of November"
	}
	return span{}, 0, false
}

// theUnit matches "the" and a unit, at token k: "the day before
// yesterday", "over the weekend", "the week of June 8", "the week before
// last", "the week after Easter", "the year 2024".
func (p *parser) theUnit(k, ctx int) (span, int, bool) {
	unit := int(p.toks[k].w.val)
	switch {
	case unit == unitDay && p.word(k+1, cRel, relBefore) && p.word(k+2, cWord, wYesterday):
		return p.day(p.today.AddDate(0, 0, -2)), k + 3, true
	case unit == unitWeekend && p.theWeekend(k, ctx):
		return p.latestWeekend(), k + 1, true // "over the weekend"
	case unit == unitWeek && p.word(k+1, cWord, wOf):
		// "the week of June 8": Monday to Sunday around that day.
		if r, j, ok := p.bounded(k+2, ctxAll); ok && r.Start.Equal(r.End) {
			ws := monday(r.Start)
			return p.rng(ws, ws.AddDate(0, 0, 6)), j, true
		}
	case p.beforeLast(k + 1):
		// "the week before last", "the weekend before last"
		return p.calendarAt(-2, unit), k + 3, true
	case unit == unitDay && p.word(k+1, cRel, relAfter) && p.word(k+2, cWord, wTomorrow):
		return p.day(p.today.AddDate(0, 0, 2)), k + 3, true
	case p.word(k+1, cRel, relAfter) || p.word(k+1, cRel, relBefore):
		return p.nextTo(k)
	case unit == unitYear:
		return p.core(k, ctx)
	}
	return span{}, 0, false
}

// theWeekend reports whether "the weekend" at token k, after a relation
// word ("over the weekend", "at the weekend"), is the weekend under way
// or the last one: not "the weekends", nor "the weekend after Easter" or
// "the weekend of the 5th".
func (p *parser) theWeekend(k, ctx int) bool {
	return p.text[p.toks[k].end-1] == 'd' && ctx&ctxRel != 0 &&
		!p.word(k+1, cRel, relAfter) && !p.word(k+1, cRel, relBefore) && !p.word(k+1, cWord, wOf)
}

// third matches a year, a season or a month at token k after early (sub
// 1), mid (2) or late (3): "early 2024", "mid-November", "late summer".
func (p *parser) third(sub, k int) (span, int, bool) {
	if p.kind(k, tDash) {
		k++ // "mid-November"
	}
	if y, ok := p.yearNum(k); ok {
		return span{abs: true, a: parts{y: y, sub: sub}}, k + 1, true // "early 2024"
	}
	if !p.kind(k, tWord) {
		return span{}, 0, false
	}
	switch p.toks[k].w.class {
	case cSeason:
		// "late summer", "early spring 2024": a third of the season.
		sp, j, ok := p.season(int(p.toks[k].w.val), 0, k+1, ctxRel)
		if !ok {
			return span{}, 0, false
		}
		s := sp.r.Start.AddDate(0, sub-1, 0)
		return p.rng(s, s.AddDate(0, 1, -1)), j, true
	case cMonth:
		return p.thirdOfMonth(sub, k)
	}
	return span{}, 0, false
}

// thirdOfMonth matches the month at token k after early, mid or late
// (sub 1, 2, 3), and its year if one follows: "mid-November", "late
// March 2024", "early May of 2023"; not "late March 3", a date.
func (p *parser) thirdOfMonth(sub, k int) (span, int, bool) {
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
		return p.day(onOrAfter(r.End.AddDate(0, 0, 1), wd)), j, true
	}
	return p.day(onOrBefore(r.Start.AddDate(0, 0, -1), wd)), j, true
}
