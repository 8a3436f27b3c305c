package change

import (
	"strings"
	"unicode"

	"memoria/lang"
)

// Says reports whether a text says that a value changed, in any language
// of lang.ChangeWords: one of its phrases ("no longer", "switched",
// "moved", "jetzt", "теперь", "搬到"), what English's grammar reads
// ("has moved", "is now", "from next month", "the new treasurer is",
// changeGrammar), or an arrow from an old value to a new one ("Start
// time: 19:00 → 19:15"). A bare English "now" or "new" is not enough:
// prose says "noticed only now" and "two new bookings" of things that did
// not change.
func Says(text string) bool {
	l := strings.ToLower(text)
	if strings.Contains(l, "→") || strings.Contains(l, " -> ") {
		return true
	}
	return saysPhrase(l) || saysByGrammar(l)
}

// changePhrases are lang.ChangeWords' phrases of languages written with
// spaces as word sequences, by their first word (exact, or a prefix when
// it ends in '*'), made once; cjkChange the phrases of languages without
// spaces, which match anywhere.
var changePhrases, prefixPhrases, cjkChange = func() (map[string][][]string, [][]string, []string) {
	byWord := map[string][][]string{}
	var prefix [][]string
	var cjk []string
	for language, ps := range lang.ChangeWords {
		for _, p := range ps {
			if language == "zh" || language == "ja" {
				cjk = append(cjk, p)
				continue
			}
			ws := strings.Fields(p)
			if strings.HasSuffix(ws[0], "*") {
				prefix = append(prefix, ws)
			} else {
				byWord[ws[0]] = append(byWord[ws[0]], ws)
			}
		}
	}
	return byWord, prefix, cjk
}()

// saysPhrase reports whether a lower-cased text holds a phrase of
// lang.ChangeWords.
func saysPhrase(l string) bool {
	for _, p := range cjkChange {
		if strings.Contains(l, p) {
			return true
		}
	}
	ws := strings.FieldsFunc(l, func(r rune) bool { return !unicode.IsLetter(r) && r != '\'' && r != '’' && r != '-' })
	for i, w := range ws {
		for _, p := range changePhrases[w] {
			if phraseAt(ws[i:], p) {
				return true
			}
		}
		for _, p := range prefixPhrases {
			if phraseAt(ws[i:], p) {
				return true
			}
		}
	}
	return false
}

// phraseAt reports whether words start with the phrase p (a word of it
// that ends in '*' a prefix).
func phraseAt(words, p []string) bool {
	if len(words) < len(p) {
		return false
	}
	for j, w := range p {
		if prefix, ok := strings.CutSuffix(w, "*"); ok {
			if !strings.HasPrefix(words[j], prefix) {
				return false
			}
		} else if words[j] != w {
			return false
		}
	}
	return true
}
