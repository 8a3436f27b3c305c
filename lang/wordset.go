package lang

import (
	"regexp"
	"strings"
)

// WordSet is a table of words as a set, for the packages that look words
// up in one.
func WordSet(words []string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

// Alternation is a regular expression's alternatives for the phrases of a
// table, in the order given (where two could match at one place, the
// first wins): each phrase quoted, and a phrase that ends in '*' matching
// any word that starts with its last word ("propos*": "proposes",
// "proposal").
func Alternation(phrases []string) string {
	quoted := make([]string, len(phrases))
	for i, p := range phrases {
		if stem, ok := strings.CutSuffix(p, "*"); ok {
			quoted[i] = regexp.QuoteMeta(stem) + `\w*`
		} else {
			quoted[i] = regexp.QuoteMeta(p)
		}
	}
	return strings.Join(quoted, "|")
}
