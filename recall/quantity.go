package recall

import (
	"strings"
	"unicode"

	"memoria/lang"
)

// statesQuantity reports whether text states an amount, for a question
// that asks for one (Plan.Quantity): a number written in digits ("57",
// "$1,200", "3/1", "5K") or in words ("four hours", "a dozen"). What only
// looks like one does not count: the time and speaker that open a line of
// a chat transcript ("- 10:20 **User**:") and the numbers of a numbered
// list ("1. Preheat the oven", "2) …").
func statesQuantity(text string) bool {
	for line := range strings.SplitSeq(text, "\n") {
		if _, rest, ok := chatTurn(line); ok {
			line = rest
		}
		for _, tok := range strings.Fields(line) {
			if isEnumerator(tok) {
				continue
			}
			if strings.ContainsFunc(tok, unicode.IsDigit) {
				return true
			}
			if numberWords[strings.ToLower(strings.TrimFunc(tok, isNotLetter))] {
				return true
			}
		}
	}
	return false
}

// isEnumerator reports whether a token numbers an item of a list: one or
// two digits and a full stop or a closing parenthesis ("3.", "12)",
// "**2."), nothing else.
func isEnumerator(tok string) bool {
	tok = strings.TrimLeft(strings.Trim(tok, "*_"), "(")
	n := len(tok)
	if n < 2 || n > 3 || (tok[n-1] != '.' && tok[n-1] != ')') {
		return false
	}
	for i := range n - 1 {
		if !isDigit(tok[i]) {
			return false
		}
	}
	return true
}

func isNotLetter(r rune) bool { return !unicode.IsLetter(r) }

// numberWords are amounts written out (lang.AmountWords).
var numberWords = lang.WordSet(lang.AmountWords)
