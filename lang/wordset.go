package lang

import (
	"regexp"
	"slices"
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

// Phrases are the phrases of tables as sequences of words, found in a
// text's words (lower-cased, in order): a word of a phrase that ends in
// '*' matches any word it begins ("propos*"). They are kept by their
// first word, so that a text's words are each looked up once.
type Phrases struct {
	byFirst  map[string][][]string
	prefixed [][]string // the phrases whose first word ends in '*'
}

// NewPhrases makes the Phrases of tables.
func NewPhrases(tables ...[]string) Phrases {
	ps := Phrases{byFirst: map[string][][]string{}}
	for _, t := range tables {
		for _, p := range t {
			ws := strings.Fields(p)
			if strings.HasSuffix(ws[0], "*") {
				ps.prefixed = append(ps.prefixed, ws)
			} else {
				ps.byFirst[ws[0]] = append(ps.byFirst[ws[0]], ws)
			}
		}
	}
	return ps
}

// At reports whether one of the phrases starts at word i of words.
func (ps Phrases) At(words []string, i int) bool {
	has := func(p []string) bool { return phraseAt(words[i:], p) }
	return slices.ContainsFunc(ps.byFirst[words[i]], has) || slices.ContainsFunc(ps.prefixed, has)
}

// First is the index of the first word of words where one of the phrases
// starts, or -1.
func (ps Phrases) First(words []string) int {
	for i := range words {
		if ps.At(words, i) {
			return i
		}
	}
	return -1
}

// phraseAt reports whether words start with the phrase p.
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
