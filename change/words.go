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
// spaces, made once; cjkChange the phrases of languages without spaces,
// which match anywhere.
var changePhrases, cjkChange = func() (lang.Phrases, []string) {
	var spaced [][]string
	var cjk []string
	for language, ps := range lang.ChangeWords {
		if language == "zh" || language == "ja" {
			cjk = append(cjk, ps...)
		} else {
			spaced = append(spaced, ps)
		}
	}
	return lang.NewPhrases(spaced...), cjk
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
	return changePhrases.First(ws) >= 0
}
