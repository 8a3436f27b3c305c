package recall

import (
	"strings"

	"memoria/query"
)

// choiceCues are the words with which a line records a choice or gives a
// reason, for a question that asks for one (Plan.Choice): what was
// chosen ("went with", "settled on", "opted for", "picked"), what was
// turned away ("ruled out", "dropped", "instead", "rather than") and why
// ("because", "due to"). A trailing '*' matches any word with that
// prefix. "Stuck with" is no cue: one is as often stuck with a problem as
// with a choice.
var choiceCues = [][]string{
	{"decid*"}, {"decision*"}, {"chose"}, {"chosen"}, {"choos*"}, {"choice"},
	{"picked"}, {"opted"}, {"opting"}, {"opt", "for"},
	{"settled", "on"}, {"settle", "on"}, {"settling", "on"},
	{"went", "with"}, {"going", "with"}, {"go", "with"}, {"gone", "with"},
	{"ended", "up"}, {"end", "up"}, {"in", "the", "end"},
	{"agreed"}, {"voted"}, {"approved"}, {"selected"},
	{"switched"}, {"switching"}, {"swapped"}, {"replaced"}, {"replacing"},
	{"instead"}, {"rather", "than"}, {"won", "out"},
	{"ruled", "out"}, {"rule", "out"}, {"off", "the", "table"}, {"turned", "down"}, {"passed", "on"},
	{"stick", "with"}, {"sticking", "with"}, {"stay", "with"}, {"staying", "with"},
	{"signed", "with"}, {"plumped", "for"},
	{"dropped"}, {"dropping"}, {"abandon*"}, {"ditched"}, {"ditching"}, {"scrapped"}, {"rejected"},
	{"because"}, {"reason"}, {"reasons"}, {"due", "to"}, {"so", "that"}, {"given", "that"},
}

// notChoices are phrases that begin like a cue and record no choice:
// "picked up the keys".
var notChoices = map[string][]string{"picked": {"picked", "up"}}

// choiceCuesByWord holds choiceCues by their first word, and
// choicePrefixCues those whose first word is a prefix, so that a text's
// words are each looked up once: statesChoice runs on every candidate of
// such a question.
var choiceCuesByWord, choicePrefixCues = func() (map[string][][]string, [][]string) {
	exact := map[string][][]string{}
	var prefix [][]string
	for _, c := range choiceCues {
		if strings.HasSuffix(c[0], "*") {
			prefix = append(prefix, c)
		} else {
			exact[c[0]] = append(exact[c[0]], c)
		}
	}
	return exact, prefix
}()

// statesChoice reports whether text records a choice or gives a reason
// (choiceCues).
func statesChoice(text string) bool {
	words := splitWords(text)
	for i, w := range words {
		if not, ok := notChoices[w]; ok && query.MarkerAt(words, i, not) {
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
