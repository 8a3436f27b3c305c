package datephrase

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"memoria/lang"
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
			var buf [asciiKeywordCap]byte
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
	for _, w := range lang.CJKNotADay["han"] {
		if strings.HasPrefix(rest, w) {
			return true
		}
	}
	for _, w := range lang.CJKNotADay["hangul"] {
		if strings.HasPrefix(afterSpace, w) {
			return true
		}
	}
	return false
}

// maxCJKWord is the length in bytes of the longest of lang's CJK date
// words and weekdays.
var maxCJKWord = func() int {
	n := 0
	for w := range lang.CJKDateWords {
		n = max(n, len(w))
	}
	for w := range lang.CJKWeekdays {
		n = max(n, len(w))
	}
	return n
}()

// scanCJKWord reads the longest relative date word or weekday of
// Chinese, Japanese or Korean (lang.CJKDateWords, lang.CJKWeekdays) at
// s[i:], and appends to toks the tokens of
// the English words it stands for, each spanning the whole CJK word. It
// returns the tokens and where the word ends, or toks and i when none
// matched.
func scanCJKWord(s string, i int, toks []token) ([]token, int) {
	for n := min(maxCJKWord, len(s)-i); n > 0; n-- {
		w := s[i : i+n]
		en, ok := lang.CJKDateWords[w]
		if !ok {
			en, ok = lang.CJKWeekdays[w]
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
