package change

import (
	"strings"
	"unicode"

	"memoria/lang"
)

// changePhrases are lang.ChangeWords' phrases as word sequences, made
// once; cjkChange its phrases of languages without spaces.
var changePhrases, cjkChange = func() ([][]string, []string) {
	var words [][]string
	var cjk []string
	for language, ps := range lang.ChangeWords {
		for _, p := range ps {
			if language == "zh" || language == "ja" {
				cjk = append(cjk, p)
			} else {
				words = append(words, strings.Fields(p))
			}
		}
	}
	return words, cjk
}()

// saysChangeAnyLang reports whether a text says that a value changed, in
// any language of lang.ChangeWords (English's fuller rules: Says).
func saysChangeAnyLang(text string) bool {
	if Says(text) {
		return true
	}
	l := strings.ToLower(text)
	for _, p := range cjkChange {
		if strings.Contains(l, p) {
			return true
		}
	}
	ws := strings.FieldsFunc(l, func(r rune) bool { return !unicode.IsLetter(r) && r != '\'' && r != '-' })
	for i := range ws {
		for _, p := range changePhrases {
			if phraseAt(ws[i:], p) {
				return true
			}
		}
	}
	return false
}

// phraseAt reports whether words start with the phrase p (its last word
// a prefix when it ends in "*").
func phraseAt(words, p []string) bool {
	if len(words) < len(p) {
		return false
	}
	for j, w := range p {
		if prefix, ok := strings.CutSuffix(w, "*"); ok && j == len(p)-1 {
			if !strings.HasPrefix(words[j], prefix) {
				return false
			}
		} else if words[j] != w {
			return false
		}
	}
	return true
}
