package datephrase

import (
	"slices"
	"strings"

	"memoria/lang"
)

// Dates written with the CJK signs (2025年11月27日, 2025년 11월 27일) and
// the date words of Chinese, Japanese and Korean (昨天, 先週, 지난주).

// scanCJK reads a date written with the CJK year, month and day signs at
// s[i:]: 2025年11月27日 (Chinese, Japanese; 号 for 日 too), 2025년 11월 27일
// (Korean), or their parts: 2025年11月 (a month), 11月27日 (a day whose
// year is resolved like "Nov 27"). It appends the tokens to toks: one ISO
// token for a date with its year, else a month keyword and a day number,
// which the grammar reads as "Nov 27". toks is returned unchanged when
// nothing matched.
func scanCJK(s string, i int, toks []token) []token {
	y, k, ok := cjkYear(s, i)
	if !ok {
		return toks
	}
	n, nd := cjkNum(s, k)
	mEnd, next := cjkSign(s, k+nd, "月", "월")
	if mEnd < 0 {
		if y == 0 && nd <= 2 && n >= 1 && n <= 31 {
			return cjkDayAlone(s, i, k+nd, n, nd, toks) // 3日
		}
		return toks
	}
	if nd > 2 || n < 1 || n > 12 {
		return toks
	}
	m, mStart, end := n, k, mEnd
	d, dStart := 0, next
	if n, nd = cjkNum(s, next); nd > 0 && nd <= 2 && n >= 1 && n <= 31 {
		if e, _ := cjkSign(s, next+nd, "日", "号", "일"); e > 0 {
			d, end = n, e
		}
	}
	switch {
	case y > 0:
		if y < 1000 || d > daysIn(y, m) {
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

// cjkYear reads the year of a CJK date at s[i], four digits and 年 or 년,
// if it has one: the year (0 if none) and where the month's number
// begins. It fails on four digits without the sign, or a year without a
// number after it.
func cjkYear(s string, i int) (int, int, bool) {
	n, nd := cjkNum(s, i)
	if nd != 4 {
		return 0, i, true
	}
	e, next := cjkSign(s, i+nd, "年", "년")
	if e < 0 {
		return 0, 0, false
	}
	if _, nd := cjkNum(s, next); nd == 0 {
		return 0, 0, false
	}
	return n, next, true
}

// cjkDayAlone reads the day sign after a number n of nd digits, a day of
// the month said alone (3日, 3号, 3일: "the 3rd"), which ends before k; i
// is where the number begins. It appends "the" and the day as an
// ordinal, or returns toks unchanged where the sign is missing or the
// number counts days or things (notADay).
func cjkDayAlone(s string, i, k, n, nd int, toks []token) []token {
	e, after := cjkSign(s, k, "日", "号", "일")
	if e < 0 || notADay(s[e:], s[after:]) {
		return toks
	}
	return append(toks,
		token{start: i, end: i, kind: tWord, w: keywords["the"]},
		token{start: i, end: e, kind: tNum, n: int32(n), nd: uint8(nd), ord: true})
}

// cjkNum reads up to four digits at s[k] (and no more digits after
// them): their value and how many there are, 0 and 0 for none.
func cjkNum(s string, k int) (int, int) {
	j := k
	for j < len(s) && j-k < 4 && isDigit(s[j]) {
		j++
	}
	if j == k || (j < len(s) && isDigit(s[j])) {
		return 0, 0
	}
	return atoi(s[k:j]), j - k
}

// cjkSign reads one of signs at s[k]: the end of the sign, and the start
// of what follows (Korean puts a space after each sign); -1 and -1 for
// none.
func cjkSign(s string, k int, signs ...string) (int, int) {
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

// notADay reports whether what follows a number and 日, 号 or 일 makes it
// no day of the month: a count of days (3日前 "3 days ago", 3日間, 3일 전,
// 3일 동안) or a number of a thing (3号线 "line 3", 3号楼 "building 3").
// rest follows the sign directly, afterSpace after the spaces that may
// follow it (Korean).
func notADay(rest, afterSpace string) bool {
	return slices.ContainsFunc(lang.CJKNotADay["han"], func(w string) bool { return strings.HasPrefix(rest, w) }) ||
		slices.ContainsFunc(lang.CJKNotADay["hangul"], func(w string) bool { return strings.HasPrefix(afterSpace, w) })
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
