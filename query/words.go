package query

import (
	"unicode"
	"unicode/utf8"

	"memoria/lang"
)

// word is one alphanumeric run of the text, with its byte offsets.
type word struct {
	start, end int
	text       string // as written
}

// isWordRune reports whether r belongs in a word: letters and digits of any
// script, and combining marks. Everything else separates words, as in
// SQLite's unicode61 tokenizer.
func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r)
}

// words splits s into its alphanumeric runs.
func words(s string) []word {
	var out []word
	start := -1
	for i := 0; i < len(s); {
		r, size := rune(s[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(s[i:])
		}
		if isWordRune(r) {
			if start < 0 {
				start = i
			}
		} else if start >= 0 {
			out = append(out, word{start, i, s[start:i]})
			start = -1
		}
		i += size
	}
	if start >= 0 {
		out = append(out, word{start, len(s), s[start:]})
	}
	return out
}

// stopWords are dropped from Query.Terms (lang.StopWords). Intent
// detection reads the original text, so nothing here is needed there.
var stopWords = lang.WordSet(lang.StopWords)

// IsGenericWord reports whether the lower-cased word w says only that
// something happened (genericWords).
func IsGenericWord(w string) bool { return genericWords[w] }

// IsStopWord reports whether the lower-cased word w is on the stop-word list.
func IsStopWord(w string) bool { return stopWords[w] }

// genericWords say that something happened without saying what
// (lang.GenericWords). A query whose terms are all generic browses its
// window (Query.Browse).
var genericWords = lang.WordSet(lang.GenericWords)
