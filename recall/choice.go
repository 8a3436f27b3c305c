package recall

import (
	"slices"
	"strings"

	"memoria/change"
	"memoria/lang"
	"memoria/query"
)

// choiceCuesByWord holds the cues with which a line records a choice or
// gives a reason (lang.ChoiceCues, lang.GivesReason) by their first word, and
// choicePrefixCues those whose first word is a prefix (a trailing '*'),
// so that a text's words are each looked up once: statesChoice runs on
// every candidate of a question that asks for a choice (Plan.Choice).
// notChoices holds the phrases that begin like a cue and record no choice
// (lang.ChoiceCuesNot: "picked up the keys") by their first word.
var choiceCuesByWord, choicePrefixCues = func() (map[string][][]string, [][]string) {
	exact := map[string][][]string{}
	var prefix [][]string
	for _, p := range slices.Concat(lang.ChoiceCues, lang.GivesReason) {
		c := strings.Split(p, " ")
		if strings.HasSuffix(c[0], "*") {
			prefix = append(prefix, c)
		} else {
			exact[c[0]] = append(exact[c[0]], c)
		}
	}
	return exact, prefix
}()

var notChoices = func() map[string][][]string {
	m := map[string][][]string{}
	for _, p := range lang.ChoiceCuesNot {
		c := strings.Split(p, " ")
		m[c[0]] = append(m[c[0]], c)
	}
	return m
}()

// statesChoice reports whether text records a choice or gives a reason
// (choiceCuesByWord).
func statesChoice(text string) bool {
	words := change.SplitWords(text)
	for i, w := range words {
		if slices.ContainsFunc(notChoices[w], func(not []string) bool { return query.MarkerAt(words, i, not) }) {
			continue
		}
		for _, c := range choiceCuesByWord[w] {
			if query.MarkerAt(words, i, c) {
				return true
			}
		}
		for _, c := range choicePrefixCues {
			if query.MarkerAt(words, i, c) {
				return true
			}
		}
	}
	return false
}
