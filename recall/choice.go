package recall

import (
	"memoria/change"
	"memoria/lang"
)

// choiceCues are the cues with which a line records a choice or gives a
// reason (lang.ChoiceCues, lang.GivesReason); notChoices the phrases that
// begin like a cue and record no choice (lang.ChoiceCuesNot: "picked up
// the keys").
var choiceCues, notChoices = lang.NewPhrases(lang.ChoiceCues, lang.GivesReason), lang.NewPhrases(lang.ChoiceCuesNot)

// statesChoice reports whether text records a choice or gives a reason
// (choiceCues), for a question that asks what was chosen or why
// (Plan.Choice).
func statesChoice(text string) bool {
	words := change.SplitWords(text)
	for i := range words {
		if !notChoices.At(words, i) && choiceCues.At(words, i) {
			return true
		}
	}
	return false
}
