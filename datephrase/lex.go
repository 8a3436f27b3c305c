package datephrase

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// tokKind classifies a token of the input text.
type tokKind uint8

const (
	tWord  tokKind = iota + 1 // a run of letters
	tNum                      // a run of ASCII digits, optionally with an ordinal suffix (27th)
	tISO                      // YYYY-MM-DD, YYYY/MM/DD (optionally with THH:MM[:SS]) or YYYY-MM
	tDash                     // '-', or a Unicode dash (– — ‒ ― −)
	tComma                    // ','
	tDot                      // '.'
	tOther                    // anything else: mixed letters and digits, other punctuation
)

// token is one lexical unit with its byte offsets in the text.
type token struct {
	start, end int
	n          int32    // tNum: value (-1 if too long); tISO: year
	kind       tokKind  // what the token is
	w          wordInfo // tWord: what the word means, if it is a keyword
	nd         uint8    // tNum: number of digits
	ord        bool     // tNum: has an ordinal suffix (st, nd, rd, th)
	m, d       uint8    // tISO: month and day (d == 0 for YYYY-MM)
}

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

var keywords = makeKeywords()

func makeKeywords() map[string]wordInfo {
	keywords := map[string]wordInfo{}
	months := []struct {
		names []string
		flags []uint8
	}{
		{[]string{"january", "jan"}, nil},
		{[]string{"february", "feb"}, nil},
		{[]string{"march", "mar"}, []uint8{fAmbiguous, fAbbrev}},
		{[]string{"april", "apr"}, nil},
		{[]string{"may"}, []uint8{fAmbiguous}},
		{[]string{"june", "jun"}, nil},
		{[]string{"july", "jul"}, nil},
		{[]string{"august", "aug"}, nil},
		{[]string{"september", "sep", "sept"}, nil},
		{[]string{"october", "oct"}, nil},
		{[]string{"november", "nov"}, nil},
		{[]string{"december", "dec"}, nil},
	}
	for i, m := range months {
		for j, name := range m.names {
			var f uint8
			if j > 0 {
				f = fAbbrev
			}
			if m.flags != nil {
				f = m.flags[j]
			}
			keywords[name] = wordInfo{cMonth, int8(i + 1), f}
		}
	}
	days := [][]string{
		{"sunday", "sun"}, {"monday", "mon"}, {"tuesday", "tue", "tues"},
		{"wednesday", "wed"}, {"thursday", "thu", "thur", "thurs"}, {"friday", "fri"},
		{"saturday", "sat"},
	}
	for i, d := range days {
		for j, name := range d {
			var f uint8
			if j > 0 {
				f = fAbbrev
			}
			keywords[name] = wordInfo{cWeekday, int8(i), f}
		}
	}
	// Month names in other languages, in the forms dates use them ("27.
	// November 2025", "27 novembre 2025", "27 ноября 2025", "в ноябре
	// 2025"). They are months only next to a day number or a year
	// (fAmbiguous): "Mars", "mai" and "mayo" are ordinary words too.
	for i, names := range [12]string{
		"januar jänner janvier gennaio enero январь января январе",
		"februar février fevrier febbraio febrero февраль февраля феврале",
		"märz maerz mars marzo март марта марте",
		"avril aprile abril апрель апреля апреле",
		"mai maggio mayo май мая мае",
		"juni juin giugno junio июнь июня июне",
		"juli juillet luglio julio июль июля июле",
		"août aout agosto август августа августе",
		"septembre settembre septiembre сентябрь сентября сентябре",
		"oktober octobre ottobre octubre октябрь октября октябре",
		"novembre noviembre ноябрь ноября ноябре",
		"dezember décembre decembre dicembre diciembre декабрь декабря декабре",
	} {
		for _, name := range strings.Fields(names) {
			keywords[name] = wordInfo{cMonth, int8(i + 1), fAmbiguous}
		}
	}
	for name, m := range map[string]int{
		"mär": 3, "okt": 10, "dez": 12, // German
		"giu": 6, "lug": 7, "ott": 10, "dic": 12, // Italian ("gen", "mag", "set", "ago" are other words)
		"ene": 1, "abr": 4, // Spanish
		"janv": 1, "févr": 2, "avr": 4, "juil": 7, "déc": 12, // French
		"янв": 1, "фев": 2, "апр": 4, "июн": 6, "июл": 7, "авг": 8, "сен": 9, "окт": 10, "ноя": 11, "дек": 12, // Russian
	} {
		keywords[name] = wordInfo{cMonth, int8(m), fAbbrev}
	}
	for name, u := range map[string]int{
		"minute": unitMinute, "minutes": unitMinute, "min": unitMinute, "mins": unitMinute,
		"hour": unitHour, "hours": unitHour, "hr": unitHour, "hrs": unitHour,
		"day": unitDay, "days": unitDay,
		"week": unitWeek, "weeks": unitWeek, "wk": unitWeek, "wks": unitWeek,
		"month": unitMonth, "months": unitMonth,
		"year": unitYear, "years": unitYear, "yr": unitYear, "yrs": unitYear,
		"weekend": unitWeekend, "weekends": unitWeekend,
		"fortnight": unitFortnight, "fortnights": unitFortnight,
	} {
		keywords[name] = wordInfo{cUnit, int8(u), 0}
	}
	for name, n := range map[string]int{
		"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
		"seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
		"couple": 2, "few": 3, "several": 3,
	} {
		keywords[name] = wordInfo{cNumWord, int8(n), 0}
	}
	for name, r := range map[string]int{
		"on": relOn, "at": relOn, "in": relIn, "during": relIn, "within": relOver, "over": relOver,
		"throughout": relIn, "since": relSince, "before": relBefore, "until": relUntil,
		"till": relUntil, "til": relUntil, "after": relAfter, "around": relAround,
		"circa": relAround, "approximately": relAround, "approx": relAround,
		"from": relFrom, "between": relBetween, "prior": relPrior,
	} {
		keywords[name] = wordInfo{cRel, int8(r), 0}
	}
	for name, w := range map[string]int{
		"the": wThe, "last": wLast, "past": wPast, "this": wThis, "next": wNext,
		"ago": wAgo, "today": wToday, "yesterday": wYesterday, "tomorrow": wTomorrow,
		"recently": wRecently, "lately": wRecently, "and": wAnd, "to": wTo,
		"through": wTo, "thru": wTo, "of": wOf, "de": wOf, "early": wEarly, "mid": wMid,
		"late": wLate, "earlier": wEarlier, "morning": wPartOfDay,
		"afternoon": wPartOfDay, "evening": wPartOfDay, "night": wNight,
		"tonight": wTonight, "new": wNew, "eve": wEve, "back": wAgo,
		"start": wStart, "beginning": wStart, "end": wEnd, "half": wHalf,
	} {
		keywords[name] = wordInfo{cWord, int8(w), 0}
	}
	for name, h := range map[string]int{
		"easter": holEaster, "christmas": holChristmas, "xmas": holChristmas, "halloween": holHalloween,
		"valentine": holValentine, "valentines": holValentine, "thanksgiving": holThanksgiving,
		"pentecost": holPentecost, "whitsun": holPentecost, "whitsunday": holPentecost,
		"good": holGood, "maundy": holMaundy, "holy": holHoly, "palm": holPalm, "ash": holAsh,
		"whit": holWhit, "black": holBlack, "cyber": holCyber, "boxing": holBoxing,
		"independence": holIndependence, "memorial": holMemorial, "labor": holLabor,
		"liberty": holLiberty, "anzac": holAnzac, "australia": holAustralia, "canada": holCanada,
		"bastille": holBastille, "waitangi": holWaitangi, "remembrance": holRemembrance, "armistice": holRemembrance,
		"king": holKings, "kings": holKings, "patrick": holPatrick, "paddy": holPatrick, "stephen": holStephen,
		"andrew": holAndrew, "david": holDavid, "george": holGeorge, "madaraka": holMadaraka,
		"mashujaa": holMashujaa, "jamhuri": holJamhuri, "assumption": holAssumption,
	} {
		keywords[name] = wordInfo{cHoliday, int8(h), 0}
	}
	for name, v := range map[string]int{
		"spring": seasonSpring, "summer": seasonSummer, "autumn": seasonAutumn, "fall": seasonAutumn,
		"winter": seasonWinter,
	} {
		keywords[name] = wordInfo{cSeason, int8(v), 0}
	}
	for name, v := range map[string]int{"first": 1, "second": 2, "third": 3, "fourth": 4} {
		keywords[name] = wordInfo{cOrdinal, int8(v), 0}
	}
	return keywords
}

// maxKeyword is the length of the longest ASCII keyword, so longer words
// need no lookup; maxWideKeyword that of the longest keyword with
// non-ASCII letters.
const (
	maxKeyword     = 13 // "approximately"
	maxWideKeyword = 16 // "сентября"
)

// isDash reports whether r is a range dash.
func isDash(r rune) bool {
	switch r {
	case '-', '‐', '‑', '‒', '–', '—', '―', '−', '〜', '～':
		return true
	}
	return false
}

func isAlnum(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r)
}

// isCJK reports whether r is Han, kana or Hangul.
func isCJK(r rune) bool {
	return r >= 0x1100 && (unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) ||
		unicode.Is(unicode.Katakana, r) || unicode.Is(unicode.Hangul, r))
}

func isDigit(b byte) bool { return '0' <= b && b <= '9' }

// tokenize splits s into tokens, appending to buf.
func tokenize(s string, buf []token) []token {
	toks := buf[:0]
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
				i++
				continue
			case c == ',':
				toks = append(toks, token{start: i, end: i + 1, kind: tComma})
				i++
				continue
			case c == '.':
				toks = append(toks, token{start: i, end: i + 1, kind: tDot})
				i++
				continue
			case c == '-':
				toks = append(toks, token{start: i, end: i + 1, kind: tDash})
				i++
				continue
			case isDigit(c):
				if i == 0 || (s[i-1] != '.' && s[i-1] != '/') {
					if t, ok := scanDMY(s, i); ok {
						toks = append(toks, t)
						i = t.end
						continue
					}
				}
				if k := scanCJK(s, i, toks); len(k) > len(toks) {
					toks = k
					i = toks[len(toks)-1].end
					continue
				}
				// alphanumeric run, handled below
			case 'a' <= c|0x20 && c|0x20 <= 'z':
				// alphanumeric run, handled below
			default:
				toks = append(toks, token{start: i, end: i + 1, kind: tOther})
				i++
				continue
			}
		} else {
			r, size := utf8.DecodeRuneInString(s[i:])
			if unicode.IsSpace(r) {
				i += size
				continue
			}
			if isDash(r) {
				toks = append(toks, token{start: i, end: i + size, kind: tDash})
				i += size
				continue
			}
			if r == '至' {
				// "2025年11月27日至12月1日": a range joined by 至.
				toks = append(toks, token{start: i, end: i + size, kind: tDash})
				i += size
				continue
			}
			if isCJK(r) {
				if k, end := scanCJKWord(s, i, toks); end > i {
					toks, i = k, end
					continue
				}
			}
			if !isAlnum(r) || isCJK(r) {
				// A CJK character is a word of its own: the script puts no
				// spaces around the numbers of a date (は2025年11月22日の).
				toks = append(toks, token{start: i, end: i + size, kind: tOther})
				i += size
				continue
			}
		}
		// An alphanumeric run.
		j, letters, digits, ascii := i, 0, 0, true
		for j < len(s) {
			c := s[j]
			if c < utf8.RuneSelf {
				switch {
				case isDigit(c):
					digits++
				case 'a' <= c|0x20 && c|0x20 <= 'z':
					letters++
				default:
					goto done
				}
				j++
				continue
			}
			r, size := utf8.DecodeRuneInString(s[j:])
			if r == '至' {
				// "2025年11月27日至12月1日": a range joined by 至.
				toks = append(toks, token{start: i, end: i + size, kind: tDash})
				i += size
				continue
			}
			if !isAlnum(r) || isCJK(r) {
				break
			}
			ascii = false
			letters++
			j += size
		}
	done:
		toks = append(toks, classify(s, i, j, letters, digits, ascii))
		if t := &toks[len(toks)-1]; t.kind == tISO {
			j = t.end
		}
		i = j
	}
	return toks
}

// classify makes a token of the alphanumeric run s[i:j]. A four-digit run
// may start an ISO date, in which case the token extends past j.
func classify(s string, i, j, letters, digits int, ascii bool) token {
	t := token{start: i, end: j, kind: tOther}
	switch {
	case letters == 0:
		if j-i == 4 {
			if iso, ok := scanISO(s, i); ok {
				return iso
			}
		}
		t.kind, t.nd = tNum, uint8(min(j-i, 255))
		t.n = int32(atoi(s[i:j]))
	case digits == 0:
		t.kind = tWord
		if ascii && j-i <= maxKeyword {
			var buf [maxKeyword]byte
			for k := i; k < j; k++ {
				buf[k-i] = s[k] | 0x20
			}
			t.w = keywords[string(buf[:j-i])]
		} else if !ascii && j-i <= maxWideKeyword {
			t.w = keywords[strings.ToLower(s[i:j])]
		}
	case ascii && digits <= 2 && letters == 2 && isDigit(s[i]) && j-i == digits+2:
		suf := [2]byte{s[j-2] | 0x20, s[j-1] | 0x20}
		switch string(suf[:]) {
		case "st", "nd", "rd", "th":
			t.kind, t.nd, t.ord = tNum, uint8(digits), true
			t.n = int32(atoi(s[i : i+digits]))
		}
	}
	return t
}

// atoi reads ASCII digits, returning -1 for more than 9 of them.
func atoi(s string) int {
	if len(s) > 9 {
		return -1
	}
	n := 0
	for k := 0; k < len(s); k++ {
		n = n*10 + int(s[k]-'0')
	}
	return n
}

// scanISO reads YYYY-MM-DD (or with '/'), optionally followed by THH:MM[:SS][Z],
// or YYYY-MM, at s[i:]. The date must end at a word boundary, and must not
// continue an identifier: "policy LM-2231-07" names no July of 2231.
func scanISO(s string, i int) (token, bool) {
	if i >= 2 && strings.IndexByte("-_#", s[i-1]) >= 0 {
		if r, _ := utf8.DecodeLastRuneInString(s[:i-1]); unicode.IsLetter(r) {
			return token{}, false // "LM-2231-07"; "2025-11-03-2025-11-05" is a range
		}
	}
	y := atoi(s[i : i+4])
	k := i + 4
	if k+3 > len(s) || (s[k] != '-' && s[k] != '/') || !isDigit(s[k+1]) || !isDigit(s[k+2]) {
		return token{}, false
	}
	sep := s[k]
	m := atoi(s[k+1 : k+3])
	k += 3
	d := 0
	if k+3 <= len(s) && s[k] == sep && isDigit(s[k+1]) && isDigit(s[k+2]) {
		d = atoi(s[k+1 : k+3])
		if d == 0 {
			return token{}, false
		}
		k += 3
		// Optional time of day: THH:MM[:SS][Z].
		if k+6 <= len(s) && (s[k] == 'T' || s[k] == 't') && isDigit(s[k+1]) && isDigit(s[k+2]) &&
			s[k+3] == ':' && isDigit(s[k+4]) && isDigit(s[k+5]) {
			k += 6
			if k+3 <= len(s) && s[k] == ':' && isDigit(s[k+1]) && isDigit(s[k+2]) {
				k += 3
			}
			if k < len(s) && (s[k] == 'Z' || s[k] == 'z') {
				k++
			}
		}
	} else if k < len(s) && s[k] == sep {
		return token{}, false // 2025-11-3 and the like
	}
	if k < len(s) {
		r, _ := utf8.DecodeRuneInString(s[k:])
		if isAlnum(r) {
			return token{}, false
		}
	}
	if y < 1000 || m < 1 || m > 12 || (d != 0 && d > daysIn(y, m)) {
		return token{}, false
	}
	return token{start: i, end: k, kind: tISO, n: int32(y), m: uint8(m), d: uint8(d)}, true
}

// scanDMY reads a numeric day.month.year date, DD.MM.YYYY (one or two
// digits for day and month), at s[i:], as most of Europe and Russia write
// it. The year must have four digits and the date must end at a word
// boundary ("27.11.2025", not "1.2.20251" or a version "1.2.3").
func scanDMY(s string, i int) (token, bool) {
	num := func(k, maxLen int) (int, int) {
		j := k
		for j < len(s) && j-k < maxLen && isDigit(s[j]) {
			j++
		}
		return atoi(s[k:j]), j - k
	}
	d, nd := num(i, 2)
	k := i + nd
	if nd == 0 || k >= len(s) || s[k] != '.' {
		return token{}, false
	}
	m, nm := num(k+1, 2)
	k += 1 + nm
	if nm == 0 || k >= len(s) || s[k] != '.' {
		return token{}, false
	}
	y, ny := num(k+1, 4)
	k += 1 + ny
	if ny != 4 {
		return token{}, false
	}
	if k < len(s) {
		if r, _ := utf8.DecodeRuneInString(s[k:]); isAlnum(r) || (s[k] == '.' && k+1 < len(s) && isDigit(s[k+1])) {
			return token{}, false
		}
	}
	if y < 1000 || m < 1 || m > 12 || d < 1 || d > daysIn(y, m) {
		return token{}, false
	}
	return token{start: i, end: k, kind: tISO, n: int32(y), m: uint8(m), d: uint8(d)}, true
}

// scanCJK reads a date written with the CJK year, month and day signs at
// s[i:]: 2025年11月27日 (Chinese, Japanese; 号 for 日 too), 2025년 11월 27일
// (Korean), or their parts: 2025年11月 (a month), 11月27日 (a day whose
// year is resolved like "Nov 27"). It appends the tokens to toks: one ISO
// token for a date with its year, else a month keyword and a day number,
// which the grammar reads as "Nov 27". toks is returned unchanged when
// nothing matched.
func scanCJK(s string, i int, toks []token) []token {
	// num reads up to four digits at k (and no more digits after them).
	num := func(k int) (int, int) {
		j := k
		for j < len(s) && j-k < 4 && isDigit(s[j]) {
			j++
		}
		if j == k || (j < len(s) && isDigit(s[j])) {
			return 0, 0
		}
		return atoi(s[k:j]), j - k
	}
	// sign reads one of signs at k: the end of the sign, and the start of
	// what follows (Korean puts a space after each sign).
	sign := func(k int, signs ...string) (int, int) {
		for _, g := range signs {
			if strings.HasPrefix(s[k:], g) {
				end := k + len(g)
				next := end
				for next < len(s) && s[next] == ' ' {
					next++
				}
				return end, next
			}
		}
		return -1, -1
	}
	y, d := 0, 0
	k := i
	n, nd := num(k)
	if nd == 4 {
		e, next := sign(k+nd, "年", "년")
		if e < 0 {
			return toks
		}
		y, k = n, next
		if n, nd = num(k); nd == 0 {
			return toks
		}
	}
	mStart := k
	mEnd, next := sign(k+nd, "月", "월")
	if mEnd < 0 && y == 0 && nd <= 2 && n >= 1 && n <= 31 {
		// 3日, 3号, 3일: a day of the month said alone, as "the 3rd".
		if e, after := sign(k+nd, "日", "号", "일"); e > 0 && !notADay(s[e:], s[after:]) {
			return append(toks,
				token{start: i, end: i, kind: tWord, w: keywords["the"]},
				token{start: i, end: e, kind: tNum, n: int32(n), nd: uint8(nd), ord: true})
		}
		return toks
	}
	if mEnd < 0 || nd > 2 || n < 1 || n > 12 {
		return toks
	}
	m, end := n, mEnd
	dStart := next
	if n, nd = num(next); nd > 0 && nd <= 2 && n >= 1 && n <= 31 {
		if e, _ := sign(next+nd, "日", "号", "일"); e > 0 {
			d, end = n, e
		}
	}
	switch {
	case y > 0:
		if y < 1000 || (d > 0 && d > daysIn(y, m)) {
			return toks
		}
		return append(toks, token{start: i, end: end, kind: tISO, n: int32(y), m: uint8(m), d: uint8(d)})
	case d > 0:
		return append(toks,
			token{start: mStart, end: mEnd, kind: tWord, w: wordInfo{cMonth, int8(m), 0}},
			token{start: dStart, end: end, kind: tNum, n: int32(d), nd: 2})
	}
	return toks
}

// notADay reports whether what follows a number and 日, 号 or 일 makes it
// no day of the month: a count of days (3日前 "3 days ago", 3日間, 3일 전,
// 3일 동안) or a number of a thing (3号线 "line 3", 3号楼 "building 3").
// rest follows the sign directly, afterSpace after the spaces that may
// follow it (Korean).
func notADay(rest, afterSpace string) bool {
	for _, w := range []string{"前", "后", "後", "间", "間", "内", "以", "来", "線", "线", "楼", "樓", "门", "門", "房", "机", "機", "位", "车", "車", "院", "厅", "床", "桌", "店", "馆", "館", "口", "目", "分"} {
		if strings.HasPrefix(rest, w) {
			return true
		}
	}
	for _, w := range []string{"전", "후", "동안", "간", "이내"} {
		if strings.HasPrefix(afterSpace, w) {
			return true
		}
	}
	return false
}

// cjkWords are the relative date words of Chinese, Japanese and Korean,
// as the English words the grammar reads ("上周" is "last week"; a
// weekday is its English name). The longest that matches is read.
var cjkWords = map[string]string{
	// Chinese
	"今天": "today", "昨天": "yesterday", "明天": "tomorrow",
	"前天": "the day before yesterday", "后天": "the day after tomorrow", "後天": "the day after tomorrow",
	"上周": "last week", "上週": "last week", "上个星期": "last week", "上個星期": "last week", "上星期": "last week", "上个礼拜": "last week", "上礼拜": "last week",
	"本周": "this week", "这周": "this week", "這週": "this week", "这个星期": "this week", "這個星期": "this week", "这星期": "this week",
	"下周": "next week", "下週": "next week", "下个星期": "next week", "下個星期": "next week", "下星期": "next week",
	"上个月": "last month", "上個月": "last month", "上月": "last month",
	"这个月": "this month", "這個月": "this month", "本月": "this month",
	"下个月": "next month", "下個月": "next month", "下月": "next month",
	"去年": "last year", "今年": "this year", "明年": "next year",
	"最近": "recently", "近来": "recently", "近來": "recently",
	"周末": "the weekend", "週末": "the weekend",
	// Japanese (今日, 昨日, 明日, 今年, 去年, 最近, 週末 are written as in Chinese)
	"今日": "today", "昨日": "yesterday", "明日": "tomorrow", "一昨日": "the day before yesterday", "明後日": "the day after tomorrow",
	"先週": "last week", "今週": "this week", "来週": "next week", "來週": "next week",
	"先月": "last month", "今月": "this month", "来月": "next month",
	"昨年": "last year", "来年": "next year",
	// Korean
	"오늘": "today", "어제": "yesterday", "내일": "tomorrow", "그저께": "the day before yesterday", "모레": "the day after tomorrow",
	"지난주": "last week", "지난 주": "last week", "이번 주": "this week", "이번주": "this week", "다음 주": "next week", "다음주": "next week",
	"지난달": "last month", "지난 달": "last month", "이번 달": "this month", "이번달": "this month", "다음 달": "next month", "다음달": "next month",
	"작년": "last year", "올해": "this year", "내년": "next year", "최근": "recently", "주말": "the weekend",
}

// cjkWeekdays are the weekday names: Chinese 星期一, 周一, 礼拜一 (日 or 天
// for Sunday), Japanese 月曜日 (月曜 too), Korean 월요일.
var cjkWeekdays = func() map[string]string {
	m := map[string]string{}
	names := []string{"sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"}
	for i, d := range []string{"日", "一", "二", "三", "四", "五", "六"} {
		for _, p := range []string{"星期", "周", "週", "礼拜", "禮拜"} {
			m[p+d] = names[i]
		}
	}
	for _, p := range []string{"星期", "周", "週", "礼拜", "禮拜"} {
		m[p+"天"] = "sunday"
	}
	for i, d := range []string{"日", "月", "火", "水", "木", "金", "土"} {
		m[d+"曜日"] = names[i]
		m[d+"曜"] = names[i]
	}
	for i, d := range []string{"일", "월", "화", "수", "목", "금", "토"} {
		m[d+"요일"] = names[i]
	}
	return m
}()

// maxCJKWord is the length in bytes of the longest of cjkWords and
// cjkWeekdays.
var maxCJKWord = func() int {
	n := 0
	for w := range cjkWords {
		n = max(n, len(w))
	}
	for w := range cjkWeekdays {
		n = max(n, len(w))
	}
	return n
}()

// scanCJKWord reads the longest relative date word or weekday of
// cjkWords and cjkWeekdays at s[i:], and appends to toks the tokens of
// the English words it stands for, each spanning the whole CJK word. It
// returns the tokens and where the word ends, or toks and i when none
// matched.
func scanCJKWord(s string, i int, toks []token) ([]token, int) {
	for n := min(maxCJKWord, len(s)-i); n > 0; n-- {
		w := s[i : i+n]
		en, ok := cjkWords[w]
		if !ok {
			en, ok = cjkWeekdays[w]
		}
		if !ok {
			continue
		}
		for _, e := range strings.Fields(en) {
			toks = append(toks, token{start: i, end: i + n, kind: tWord, w: keywords[e]})
		}
		return toks, i + n
	}
	return toks, i
}
