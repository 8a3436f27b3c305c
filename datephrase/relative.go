package datephrase

import (
	"time"

	"memoria/memory"
)

// latestWeekend is the weekend under way, or else the last one.
func (p *parser) latestWeekend() span {
	if wd := p.today.Weekday(); wd == time.Saturday || wd == time.Sunday {
		return p.calendarAt(0, unitWeekend)
	}
	return p.calendarAt(-1, unitWeekend)
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
	if n, j, ok := p.countAt(k); ok {
		return p.lastN(lead, n, j) // "past 3 weeks", "the last few days"
	}
	if lead == wThis && p.word(k, cWord, wPast) {
		return p.relative(k, false) // "this past weekend", "this past Monday"
	}
	t := &p.toks[k]
	switch t.w.class {
	case cUnit:
		return p.lastUnit(lead, int(t.w.val), afterThe), k + 1, true
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
		return p.relativeMonth(lead, int(t.w.val), k)
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

// countAt reads a count at token k, after last, past, this or next: a
// number ("past 3 weeks") or a number word other than "a" ("last two
// weeks", "the last couple of days"). It returns the count and the token
// after it.
func (p *parser) countAt(k int) (int, int, bool) {
	t := &p.toks[k]
	switch {
	case t.kind == tNum && !t.ord && t.nd <= 5:
		return int(t.n), k + 1, true
	case t.kind == tWord && t.w.class == cNumWord && t.w.val != 1: // not "last a"
		n, j := p.count(k)
		return n, j, true
	}
	return 0, 0, false
}

// lastN matches the unit at token k after lead and a count n: the
// rolling window of n units ("past 3 weeks", "next 2 days").
func (p *parser) lastN(lead, n, k int) (span, int, bool) {
	if !p.kind(k, tWord) || p.toks[k].w.class != cUnit || p.toks[k].w.val == unitWeekend || n > 10000 {
		return span{}, 0, false
	}
	return p.rolling(lead, n, int(p.toks[k].w.val)), k + 1, true
}

// lastUnit is the unit after lead: a calendar unit ("last week", "this
// month"), or, after "past" or "the last", the rolling window of one
// ("the past week", "the last month"), but for a weekend, which stays
// the last one ("the past weekend").
func (p *parser) lastUnit(lead, unit int, afterThe bool) span {
	if lead != wPast && (!afterThe || lead != wLast) {
		return p.calendar(lead, unit)
	}
	if unit == unitWeekend {
		return p.calendar(wLast, unitWeekend)
	}
	return p.rolling(wLast, 1, unit)
}

// relativeMonth is the month m after lead, at token k: "last November"
// is the latest one before this month, "next May" the first after it,
// "this May" the one of this year.
func (p *parser) relativeMonth(lead, m, k int) (span, int, bool) {
	if lead == wPast {
		return span{}, 0, false
	}
	y, cur := p.today.Year(), int(p.today.Month())
	switch {
	case lead == wLast && m >= cur:
		y--
	case lead == wNext && m <= cur:
		y++
	}
	return span{abs: true, a: parts{y: y, m: m}}, k + 1, true
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
	j, unit := k+2, int(p.toks[k].w.val)
	if p.word(j, cWord, wToday) && (unit == unitDay || unit == unitWeek || unit == unitMonth || unit == unitYear) {
		return p.day(p.shift(unit, -n)), j + 1, true // "two weeks ago today", "a year ago today": that very day
	}
	switch unit {
	case unitMinute, unitHour, unitDay:
		return p.day(p.shift(unit, -n)), j, true
	case unitWeek, unitFortnight:
		return p.near(p.shift(unit, -n), 3), j, true
	case unitWeekend:
		return p.calendarAt(-n, unitWeekend), j, true // "two weekends ago"
	case unitMonth:
		return p.near(p.shift(unit, -n), 15), j, true
	case unitYear:
		return p.near(p.shift(unit, -n), 182), j, true
	}
	return span{}, 0, false
}

// rolling is the window of n units ending today (last, past) or starting
// today (next).
func (p *parser) rolling(lead, n, unit int) span {
	if lead == wNext || lead == wThis {
		return p.rng(p.today, p.shift(unit, n))
	}
	return p.rng(p.shift(unit, -n), p.today)
}

// shift is the day n units (minutes, hours, days, weeks, fortnights,
// months, else years) from now; back for a negative n.
func (p *parser) shift(unit, n int) time.Time {
	switch unit {
	case unitMinute:
		return memory.Day(p.now.Add(time.Duration(n) * time.Minute))
	case unitHour:
		return memory.Day(p.now.Add(time.Duration(n) * time.Hour))
	case unitDay:
		return p.today.AddDate(0, 0, n)
	case unitWeek:
		return p.today.AddDate(0, 0, 7*n)
	case unitFortnight:
		return p.today.AddDate(0, 0, 14*n)
	case unitMonth:
		return p.today.AddDate(0, n, 0)
	}
	return p.today.AddDate(n, 0, 0)
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
// after the launch date", "the days before Good Friday": the unit at
// token k, next to the time expression after the relation word at k+1.
// The window is that long (nextToDays) and starts the day after the
// expression ends (or ends the day before it starts); "the weekend" is
// the first Saturday and Sunday after it (or the last before it).
func (p *parser) nextTo(k int) (span, int, bool) {
	unit := int(p.toks[k].w.val)
	after := p.word(k+1, cRel, relAfter)
	r, j, ok := p.bounded(k+2, ctxAll)
	if !ok {
		return span{}, 0, false
	}
	if unit == unitWeekend {
		sat := onOrAfter(r.End.AddDate(0, 0, 1), time.Saturday)
		if !after {
			sat = onOrBefore(r.Start.AddDate(0, 0, -2), time.Saturday)
		}
		return p.rng(sat, sat.AddDate(0, 0, 1)), j, true
	}
	lengths, ok := nextToDays[unit]
	if !ok {
		return span{}, 0, false
	}
	days := lengths[0]
	if p.text[p.toks[k].end-1] == 's' {
		days = lengths[1] // "the days before", "the weeks after"
	}
	if after {
		s := r.End.AddDate(0, 0, 1)
		return p.rng(s, s.AddDate(0, 0, days-1)), j, true
	}
	e := r.Start.AddDate(0, 0, -1)
	return p.rng(e.AddDate(0, 0, 1-days), e), j, true
}

// nextToDays is how many days "the <unit> after X" spans, for the unit
// said once and in the plural: "the day before" is one, "the days
// before Good Friday" a week of them, "the weeks after the launch" three
// weeks, as query counts them after an event ("in the days after the
// move").
var nextToDays = map[int][2]int{
	unitDay: {1, 7}, unitWeek: {7, 21}, unitFortnight: {14, 14}, unitMonth: {30, 30},
}

// weekday finds a day of the week: lead wLast is the latest one before
// today, wNext the first one after, wThis the one in this Monday-based week,
// and 0 (a bare weekday) the latest one not after today.
func (p *parser) weekday(wd time.Weekday, lead int) time.Time {
	switch lead {
	case wThis:
		return monday(p.today).AddDate(0, 0, (int(wd)+6)%7)
	case wNext:
		return onOrAfter(p.today.AddDate(0, 0, 1), wd)
	case wLast:
		return onOrBefore(p.today.AddDate(0, 0, -1), wd)
	}
	return onOrBefore(p.today, wd)
}

// onOrAfter is the first weekday wd on or after the day t; onOrBefore
// the last on or before it.
func onOrAfter(t time.Time, wd time.Weekday) time.Time {
	return t.AddDate(0, 0, (int(wd)-int(t.Weekday())+7)%7)
}

func onOrBefore(t time.Time, wd time.Weekday) time.Time {
	return t.AddDate(0, 0, -((int(t.Weekday()) - int(wd) + 7) % 7))
}

// monday is the Monday of t's week (weeks run Monday to Sunday).
func monday(t time.Time) time.Time { return onOrBefore(t, time.Monday) }

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
