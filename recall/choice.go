package recall

import (
	"slices"
	"strings"
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
var notChoices = [][]string{{"picked", "up"}}

// statesChoice reports whether text records a choice or gives a reason
// (choiceCues).
func statesChoice(text string) bool {
	words := splitWords(text)
	for i := range words {
		if slices.ContainsFunc(notChoices, func(not []string) bool { return cueAt(words, i, not) }) {
			continue
		}
		for _, cue := range choiceCues {
			if cueAt(words, i, cue) {
				return true
			}
		}
	}
	return false
}

// cueAt reports whether the words from i on begin with cue.
func cueAt(words []string, i int, cue []string) bool {
	if i+len(cue) > len(words) {
		return false
	}
	for k, c := range cue {
		w := words[i+k]
		if pre, ok := strings.CutSuffix(c, "*"); ok {
			if !strings.HasPrefix(w, pre) {
				return false
			}
		} else if w != c {
			return false
		}
	}
	return true
}
