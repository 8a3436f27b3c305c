package datephrase

import (
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
	for name, u := range map[string]int{
		"minute": unitMinute, "minutes": unitMinute, "min": unitMinute, "mins": unitMinute,
		"hour": unitHour, "hours": unitHour, "hr": unitHour, "hrs": unitHour,
		"day": unitDay, "days": unitDay,
		"week": unitWeek, "weeks": unitWeek, "wk": unitWeek, "wks": unitWeek,
		"month": unitMonth, "months": unitMonth,
		"year": unitYear, "years": unitYear, "yr": unitYear, "yrs": unitYear,
		"weekend": unitWeekend,
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
		"on": relOn, "in": relIn, "during": relIn, "within": relOver, "over": relOver,
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
		"through": wTo, "thru": wTo, "of": wOf, "early": wEarly, "mid": wMid,
		"late": wLate, "earlier": wEarlier, "morning": wPartOfDay,
		"afternoon": wPartOfDay, "evening": wPartOfDay, "night": wNight,
		"tonight": wTonight,
	} {
		keywords[name] = wordInfo{cWord, int8(w), 0}
	}
	return keywords
}

// maxKeyword is the length of the longest keyword, so longer words need no lookup.
const maxKeyword = 13 // "approximately"

// isDash reports whether r is a range dash.
func isDash(r rune) bool {
	switch r {
	case '-', '‐', '‑', '‒', '–', '—', '―', '−':
		return true
	}
	return false
}

func isAlnum(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r)
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
			case isDigit(c) || ('a' <= c|0x20 && c|0x20 <= 'z'):
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
			if !isAlnum(r) {
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
			if !isAlnum(r) {
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
// or YYYY-MM, at s[i:]. The date must end at a word boundary.
func scanISO(s string, i int) (token, bool) {
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
