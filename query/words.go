package query

import (
	"strings"
	"unicode"
	"unicode/utf8"
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

// stopWords are dropped from Query.Terms: English function words, question
// words, pronouns, the verbs of asking ("tell", "know", "remember"), and
// the fragments that apostrophes leave behind ("what's" → "what", "s").
// Intent detection reads the original text, so nothing here is needed
// there. Negations ("not", "no", "never") are kept: they carry meaning.
var stopWords = makeStopWords()

func makeStopWords() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`
		a an the and or but nor of to in on at for with by from about as into onto
		over under than then so if because while per via up out off
		is are was were be been being am do does did doing done have has had having
		i me my mine myself we us our ours you your yours he him his she her hers
		it its they them their theirs this that these those there here
		what which who whom whose when where why how
		can could would should will shall may might must
		tell told say said know knew remember recall think mention mentioned
		please any anything some something everything all
		s t d ll re ve m don doesn didn isn aren wasn weren haven hasn hadn
		won wouldn couldn shouldn
	`) {
		m[w] = true
	}
	return m
}

// IsGenericWord reports whether the lower-cased word w says only that
// something happened (genericWords).
func IsGenericWord(w string) bool { return genericWords[w] }

// IsStopWord reports whether the lower-cased word w is on the stop-word list.
func IsStopWord(w string) bool { return stopWords[w] }

// genericWords say that something happened without saying what: event
// verbs and the leftovers of time phrases the parser reads only in part
// ("the first week of October" leaves "first" and "week"). A query whose
// terms are all generic browses its window (Query.Browse).
var genericWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`
		happen happened happens happening go goes going went gone get got getting
		done doing up new news stuff thing things occur occurred occurring
		during first second third fourth last half early late mid week weeks
		weekend day days month months time
	`) {
		m[w] = true
	}
	return m
}()
