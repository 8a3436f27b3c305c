package datephrase

import (
	"maps"
	"slices"

	"unicode/utf8"

	"memoria/lang"
)

// wclass is the class of a keyword.
type wclass uint8

const (
	cNone    wclass = iota
	cMonth          // val: 1..12
	cWeekday        // val: time.Weekday
	cUnit           // val: unit*
	cNumWord        // val: the number (a, an, one … twelve, couple, few, several)
	cRel            // val: rel*
	cWord           // val: w* (other words with a role in the grammar)
	cHoliday        // val: hol* (a named day or period of the year)
	cSeason         // val: season* (spring, summer, autumn or fall, winter)
	cOrdinal        // val: 1..4 (first … fourth), of "the second week of May"
)

// Keyword flags.
const (
	fAbbrev    = 1 << iota // abbreviation (Nov, Tue): bare use needs context
	fAmbiguous             // also an ordinary English word (May, March): needs a day or year
)

// wordInfo is what a keyword means to the grammar.
type wordInfo struct {
	class wclass
	val   int8
	flags uint8
}

// Units.
const (
	unitMinute = iota + 1
	unitHour
	unitDay
	unitWeek
	unitMonth
	unitYear
	unitWeekend
	unitFortnight
)

// Relation words (cRel).
const (
	relOn   = iota + 1
	relIn   // in, during, throughout
	relOver // over, within: like relIn, but no bare years after them
	relSince
	relBefore
	relUntil
	relAfter
	relAround
	relFrom
	relBetween
	relPrior // "prior to"
)

// Other grammar words (cWord).
const (
	wThe = iota + 1
	wLast
	wPast
	wThis
	wNext
	wAgo
	wToday
	wYesterday
	wTomorrow
	wRecently
	wAnd
	wTo // to, through, thru (range connectors that are not relations)
	wOf
	wEarly
	wMid
	wLate
	wEarlier
	wPartOfDay // morning, afternoon, evening
	wNight
	wTonight
	wNew   // "new", of "New Year"
	wEve   // "eve", of "Christmas Eve", "New Year's Eve"
	wStart // start, beginning: "the start of May"
	wEnd   // "the end of last month"
	wHalf  // "the second half of November"
)

// Named holidays (cHoliday): days and periods people name instead of a
// date ("over Easter", "at New Year", "after Christmas").
const (
	holEaster = iota + 1
	holChristmas
	holNewYear
	holHalloween
	holValentine
	holThanksgiving
	holPentecost
	// Days named by a word and a weekday ("Good Friday"): feasts.
	holGood
	holMaundy
	holHoly
	holPalm
	holAsh
	holWhit
	holBlack
	holCyber
	// Days named by a word and "Day" ("Boxing Day").
	holBoxing
	holIndependence
	holMemorial
	holLabor
	// National and saints' days of a fixed date, named by a word and
	// "Day" ("Canada Day", "St Patrick's Day"): fixedDays.
	holLiberty
	holAnzac
	holAustralia
	holCanada
	holBastille
	holWaitangi
	holRemembrance
	holKings
	holPatrick
	holStephen
	holAndrew
	holDavid
	holGeorge
	holMadaraka
	holMashujaa
	holJamhuri
	holAssumption
)

// Seasons (cSeason), as the northern hemisphere's meteorological ones.
const (
	seasonSpring = iota + 1 // March to May
	seasonSummer            // June to August
	seasonAutumn            // September to November
	seasonWinter            // December to February
)

// The keys of lang's tables of date words, as the grammar's values.
var (
	unitOf = map[string]int{
		"minute": unitMinute, "hour": unitHour, "day": unitDay, "week": unitWeek, "month": unitMonth,
		"year": unitYear, "weekend": unitWeekend, "fortnight": unitFortnight,
	}
	relationOf = map[string]int{
		"on": relOn, "in": relIn, "over": relOver, "since": relSince, "before": relBefore, "until": relUntil,
		"after": relAfter, "around": relAround, "from": relFrom, "between": relBetween, "prior": relPrior,
	}
	dateWordOf = map[string]int{
		"the": wThe, "last": wLast, "past": wPast, "this": wThis, "next": wNext, "ago": wAgo,
		"today": wToday, "yesterday": wYesterday, "tomorrow": wTomorrow, "recently": wRecently,
		"and": wAnd, "to": wTo, "of": wOf, "early": wEarly, "mid": wMid, "late": wLate,
		"earlier": wEarlier, "morning": wPartOfDay, "night": wNight, "tonight": wTonight,
		"new": wNew, "eve": wEve, "start": wStart, "end": wEnd, "half": wHalf,
	}
	holidayOf = map[string]int{
		"easter": holEaster, "christmas": holChristmas, "halloween": holHalloween,
		"valentine's day": holValentine, "thanksgiving": holThanksgiving, "pentecost": holPentecost,
		"good friday": holGood, "maundy thursday": holMaundy, "holy saturday": holHoly,
		"palm sunday": holPalm, "ash wednesday": holAsh, "whit monday": holWhit,
		"black friday": holBlack, "cyber monday": holCyber, "boxing day": holBoxing,
		"independence day": holIndependence, "memorial day": holMemorial, "labor day": holLabor,
		"liberty day": holLiberty, "anzac day": holAnzac, "australia day": holAustralia,
		"canada day": holCanada, "bastille day": holBastille, "waitangi day": holWaitangi,
		"remembrance day": holRemembrance, "king's day": holKings, "st patrick's day": holPatrick,
		"st stephen's day": holStephen, "st andrew's day": holAndrew, "st david's day": holDavid,
		"st george's day": holGeorge, "madaraka day": holMadaraka, "mashujaa day": holMashujaa,
		"jamhuri day": holJamhuri, "assumption day": holAssumption,
	}
)

// keywords are the words with a part in the grammar, lang's date words.
var keywords = makeKeywords()

func makeKeywords() map[string]wordInfo {
	kw := map[string]wordInfo{}
	add := func(class wclass, val int, flags uint8, words []string) {
		for _, w := range words {
			kw[w] = wordInfo{class, int8(val), flags}
		}
	}
	for i, m := range lang.Months["en"] {
		add(cMonth, i+1, 0, m.Full)
		add(cMonth, i+1, fAbbrev, m.Short)
	}
	for _, w := range lang.MonthsAlsoWords {
		kw[w] = wordInfo{cMonth, kw[w].val, fAmbiguous}
	}
	for i, d := range lang.Weekdays["en"] {
		add(cWeekday, i, 0, d.Full)
		add(cWeekday, i, fAbbrev, d.Short)
	}
	addForeignMonths(kw)
	for key, u := range unitOf {
		add(cUnit, u, 0, lang.TimeUnits[key])
	}
	for w, n := range lang.NumberWords {
		kw[w] = wordInfo{cNumWord, int8(n), 0}
	}
	for key, r := range relationOf {
		add(cRel, r, 0, lang.TimeRelations[key])
	}
	for key, w := range dateWordOf {
		add(cWord, w, 0, lang.DateWords[key])
	}
	for key, h := range holidayOf {
		add(cHoliday, h, 0, lang.Holidays[key])
	}
	for i, s := range lang.Seasons {
		add(cSeason, seasonSpring+i, 0, s)
	}
	for i, w := range lang.Ordinals {
		kw[w] = wordInfo{cOrdinal, int8(i + 1), 0}
	}
	return kw
}

// addForeignMonths adds the month names of the other languages, in the
// forms dates use them ("27. November 2025", "27 novembre 2025", "27
// ноября 2025", "в ноябре 2025"). A full name is a month only next to a
// day number or a year (fAmbiguous): "Mars", "mai" and "mayo" are
// ordinary words too. A name English has too ("april") is read as
// English.
func addForeignMonths(kw map[string]wordInfo) {
	langs := slices.Sorted(maps.Keys(lang.Months))
	for _, l := range langs {
		if l == "en" {
			continue
		}
		for i, m := range lang.Months[l] {
			for _, w := range m.Full {
				if _, ok := kw[w]; !ok {
					kw[w] = wordInfo{cMonth, int8(i + 1), fAmbiguous}
				}
			}
			for _, w := range m.Short {
				if _, ok := kw[w]; !ok {
					kw[w] = wordInfo{cMonth, int8(i + 1), fAbbrev}
				}
			}
		}
	}
}

// maxKeyword is the length of the longest keyword of ASCII letters, so
// longer words need no lookup; maxWideKeyword that of the longest
// keyword with other letters. asciiKeywordCap bounds the first: it is
// the size of the buffer a word is folded to lower case in.
var maxKeyword, maxWideKeyword = keywordLengths()

const asciiKeywordCap = 32

func keywordLengths() (ascii, wide int) {
	for w := range keywords {
		if isASCII(w) {
			ascii = max(ascii, len(w))
		} else {
			wide = max(wide, len(w))
		}
	}
	if ascii > asciiKeywordCap {
		panic("datephrase: a keyword longer than asciiKeywordCap")
	}
	return ascii, wide
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
