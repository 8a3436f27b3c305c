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

func isDigit(b byte) bool { return '0' <= b && b <= '9' }

// tokenize splits s into tokens, appending to buf.
func tokenize(s string, buf []token) []token {
	toks := buf[:0]
	for i := 0; i < len(s); {
		var next int
		if s[i] < utf8.RuneSelf {
			toks, next = asciiToken(s, i, toks)
		} else {
			toks, next = wideToken(s, i, toks)
		}
		if next == i {
			toks, next = alnumToken(s, i, toks)
		}
		i = next
	}
	return toks
}

// asciiToken reads what the ASCII character at s[i] starts: a space,
// skipped; punctuation; a date written in digits (27.11.2025, 11月27日);
// anything else that is no letter or digit, a tOther token of its own. It
// returns the tokens and where the next begins, or i itself where an
// alphanumeric run begins (alnumToken).
func asciiToken(s string, i int, toks []token) ([]token, int) {
	switch c := s[i]; {
	case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
		return toks, i + 1
	case c == ',':
		return append(toks, token{start: i, end: i + 1, kind: tComma}), i + 1
	case c == '.':
		return append(toks, token{start: i, end: i + 1, kind: tDot}), i + 1
	case c == '-':
		return append(toks, token{start: i, end: i + 1, kind: tDash}), i + 1
	case isDigit(c):
		return numericDate(s, i, toks)
	case 'a' <= c|0x20 && c|0x20 <= 'z':
		return toks, i
	}
	return append(toks, token{start: i, end: i + 1, kind: tOther}), i + 1
}

// numericDate reads a date written in digits and signs at s[i]: a
// day.month.year date (not after a '.' or '/', where it would continue a
// version or a path), or a date with the CJK signs. It returns i itself
// when there is none.
func numericDate(s string, i int, toks []token) ([]token, int) {
	if i == 0 || (s[i-1] != '.' && s[i-1] != '/') {
		if t, ok := scanDMY(s, i); ok {
			return append(toks, t), t.end
		}
	}
	if k := scanCJK(s, i, toks); len(k) > len(toks) {
		return k, k[len(k)-1].end
	}
	return toks, i
}

// wideToken reads what the non-ASCII character at s[i] starts: a space,
// skipped; a dash or 至, which joins a range ("2025年11月27日至12月1日"); a
// CJK date word (昨天, 星期三); any other character that is no letter, or
// is CJK, a tOther token of its own, since CJK puts no spaces around the
// numbers of a date (は2025年11月22日の). It returns the tokens and where
// the next begins, or i itself where an alphanumeric run begins.
func wideToken(s string, i int, toks []token) ([]token, int) {
	r, size := utf8.DecodeRuneInString(s[i:])
	switch {
	case unicode.IsSpace(r):
		return toks, i + size
	case isDash(r) || r == '至':
		return append(toks, token{start: i, end: i + size, kind: tDash}), i + size
	}
	if lang.IsCJK(r) {
		if k, end := scanCJKWord(s, i, toks); end > i {
			return k, end
		}
	}
	if !isAlnum(r) || lang.IsCJK(r) {
		return append(toks, token{start: i, end: i + size, kind: tOther}), i + size
	}
	return toks, i
}

// alnumToken reads the run of letters and digits at s[i] (CJK characters
// end it) as one token (classify), and returns where the next begins.
func alnumToken(s string, i int, toks []token) ([]token, int) {
	j, letters, digits, ascii := i, 0, 0, true
	for j < len(s) {
		c := s[j]
		if c < utf8.RuneSelf {
			if isDigit(c) {
				digits++
			} else if 'a' <= c|0x20 && c|0x20 <= 'z' {
				letters++
			} else {
				break
			}
			j++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[j:])
		if !isAlnum(r) || lang.IsCJK(r) {
			break
		}
		ascii = false
		letters++
		j += size
	}
	t := classify(s, i, j, letters, digits, ascii)
	if t.kind == tISO {
		j = t.end // an ISO date runs on past the digits ("2025-11-03")
	}
	return append(toks, t), j
}

// scanISO reads YYYY-MM-DD (or with '/'), optionally followed by THH:MM[:SS][Z],
// or YYYY-MM, at s[i:]. The date must end at a word boundary, and must not
// continue an identifier: "policy LM-2231-07" names no July of 2231.
func scanISO(s string, i int) (token, bool) {
	if continuesIdentifier(s, i) {
		return token{}, false // "LM-2231-07"; "2025-11-03-2025-11-05" is a range
	}
	y := atoi(s[i : i+4])
	k := i + 4
	if k >= len(s) || (s[k] != '-' && s[k] != '/') || !twoDigits(s, k+1) {
		return token{}, false
	}
	sep := s[k]
	m := atoi(s[k+1 : k+3])
	k += 3
	d := 0
	if k < len(s) && s[k] == sep {
		if !twoDigits(s, k+1) {
			return token{}, false // 2025-11-3 and the like
		}
		if d = atoi(s[k+1 : k+3]); d == 0 {
			return token{}, false
		}
		k = timeOfDay(s, k+3)
	}
	if !wordEnds(s, k) || !validMonth(y, m) || d > daysIn(y, m) {
		return token{}, false
	}
	return token{start: i, end: k, kind: tISO, n: int32(y), m: uint8(m), d: uint8(d)}, true
}

// continuesIdentifier reports whether the digits at s[i] follow a letter
// and '-', '_' or '#': they are part of a name ("LM-2231-07"), not a
// date.
func continuesIdentifier(s string, i int) bool {
	if i < 2 || strings.IndexByte("-_#", s[i-1]) < 0 {
		return false
	}
	r, _ := utf8.DecodeLastRuneInString(s[:i-1])
	return unicode.IsLetter(r)
}

// twoDigits reports whether s[k] and s[k+1] are digits.
func twoDigits(s string, k int) bool {
	return k+2 <= len(s) && isDigit(s[k]) && isDigit(s[k+1])
}

// timeOfDay skips the time of day of an ISO timestamp at s[k]:
// THH:MM[:SS][Z]. It returns where the timestamp ends.
func timeOfDay(s string, k int) int {
	if k+6 > len(s) || (s[k] != 'T' && s[k] != 't') || !twoDigits(s, k+1) || s[k+3] != ':' || !twoDigits(s, k+4) {
		return k
	}
	k += 6
	if k+3 <= len(s) && s[k] == ':' && twoDigits(s, k+1) {
		k += 3
	}
	if k < len(s) && (s[k] == 'Z' || s[k] == 'z') {
		k++
	}
	return k
}

// wordEnds reports whether no letter or digit continues a word at s[k].
func wordEnds(s string, k int) bool {
	if k >= len(s) {
		return true
	}
	r, _ := utf8.DecodeRuneInString(s[k:])
	return !isAlnum(r)
}

// validMonth reports whether y and m are a year of four digits and a
// month.
func validMonth(y, m int) bool {
	return y >= 1000 && m >= 1 && m <= 12
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
