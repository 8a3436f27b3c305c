package datephrase

import "time"

// The grammar of named days and periods of the year ("over Easter",
// "Good Friday", "St Patrick's Day", "last Christmas") and their dates.

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
	if f, ok := fixedDays[h]; ok {
		t := time.Date(y, f.month, f.day, 0, 0, 0, 0, time.UTC)
		return t, t, true
	}
	switch h {
	case holEaster, holPentecost, holGood, holMaundy, holHoly, holPalm, holAsh, holWhit:
		s, e := easterRange(h, qual, y)
		return s, e, true
	case holThanksgiving, holBlack, holCyber, holMemorial, holLabor:
		t := usHoliday(h, y)
		return t, t, true
	case holChristmas, holNewYear:
		s, e := yearEndRange(h, qual, y)
		return s, e, true
	}
	return time.Time{}, time.Time{}, false
}

// easterRange is the range of Easter (Good Friday to Easter Monday; its
// Sunday or Monday alone) or Pentecost (Whit Sunday and Monday; the
// Sunday alone) of year y, or the day of a feast Easter dates.
func easterRange(h int, qual string, y int) (time.Time, time.Time) {
	e := easterSunday(y)
	switch {
	case h == holEaster && qual == "day":
		return e, e
	case h == holEaster && qual == "monday":
		return e.AddDate(0, 0, 1), e.AddDate(0, 0, 1)
	case h == holEaster:
		return e.AddDate(0, 0, -2), e.AddDate(0, 0, 1)
	case h == holPentecost && qual == "day":
		return e.AddDate(0, 0, 49), e.AddDate(0, 0, 49) // "Whit Sunday"
	case h == holPentecost:
		return e.AddDate(0, 0, 49), e.AddDate(0, 0, 50)
	}
	t := e.AddDate(0, 0, fromEaster[h])
	return t, t
}

// usHoliday is the day of year y of a holiday of the United States that
// falls on a weekday of a week of its month: Memorial Day (the last
// Monday of May), Labor Day (the first Monday of September),
// Thanksgiving (the fourth Thursday of November), and the Friday and
// Monday after Thanksgiving (Black Friday, Cyber Monday).
func usHoliday(h, y int) time.Time {
	switch h {
	case holMemorial:
		return onOrBefore(time.Date(y, time.May, 31, 0, 0, 0, 0, time.UTC), time.Monday)
	case holLabor:
		return onOrAfter(time.Date(y, time.September, 1, 0, 0, 0, 0, time.UTC), time.Monday)
	}
	t := onOrAfter(time.Date(y, time.November, 1, 0, 0, 0, 0, time.UTC), time.Thursday).AddDate(0, 0, 21)
	switch h {
	case holBlack:
		return t.AddDate(0, 0, 1)
	case holCyber:
		return t.AddDate(0, 0, 4)
	}
	return t
}

// yearEndRange is the range of Christmas (the 24th to the 26th of
// December of year y; its eve or its day alone) or of New Year (the 31st
// of December of y-1 and the 1st of January of y; New Year's Eve is the
// 31st of December of y, New Year's Day the 1st of January of y).
func yearEndRange(h int, qual string, y int) (time.Time, time.Time) {
	d := func(m time.Month, day int) time.Time { return time.Date(y, m, day, 0, 0, 0, 0, time.UTC) }
	switch {
	case h == holChristmas && qual == "eve":
		return d(time.December, 24), d(time.December, 24)
	case h == holChristmas && qual == "day":
		return d(time.December, 25), d(time.December, 25)
	case h == holChristmas:
		return d(time.December, 24), d(time.December, 26)
	case qual == "eve":
		return d(time.December, 31), d(time.December, 31) // "New Year's Eve 2025": the 31st of December 2025
	case qual == "day":
		return d(time.January, 1), d(time.January, 1)
	}
	return d(time.December, 31).AddDate(-1, 0, 0), d(time.January, 1)
}

// fixedDays are the dates of the named days that fall on the same day
// each year: Boxing Day, the United States' Independence Day, Halloween,
// Valentine's Day, and national and saints' days: Portugal's Liberty
// Day, Anzac Day, Australia Day, Canada Day, Bastille Day, Waitangi Day,
// Remembrance (Armistice) Day, the Netherlands' King's Day, St Patrick's
// (Paddy's), St Stephen's, St Andrew's, St David's and St George's Days,
// Kenya's Madaraka, Mashujaa and Jamhuri Days, and Assumption Day.
var fixedDays = map[int]struct {
	month time.Month
	day   int
}{
	holBoxing: {time.December, 26}, holIndependence: {time.July, 4}, holHalloween: {time.October, 31},
	holValentine: {time.February, 14},
	holLiberty:   {time.April, 25}, holAnzac: {time.April, 25}, holAustralia: {time.January, 26},
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
