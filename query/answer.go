package query

import (
	"slices"

	"memoria/lang"
)

// quantityMarkers ask for an amount (lang.AsksAmount): a count, a sum, a
// duration, an age, a distance, a rate or a share. The answer is a number
// the memory states ("I have 57 of them", "it took four hours", "born in
// 1991"), whatever else the lines share with the question.
var quantityMarkers = lang.NewPhrases(lang.AsksAmount)

// asksQuantity reports whether a question, as its lower-cased words in
// order, asks for an amount (quantityMarkers). "How many weeks ago …" and
// "how long ago …" do not: they ask when something happened, which the
// memory tells by the day it was written, not by a number in the line.
func asksQuantity(words []string) bool {
	return quantityMarkers.First(words) >= 0 && !slices.Contains(words, "ago")
}

// choiceMarkers ask why something was done, or what was chosen
// (lang.AsksReason, lang.ChoiceCues). The answer is the line that records
// the choice or gives its reason ("went with Bellcote: Ridgeway's price
// rose"), while the lines that only mention the options (a quote, a demo,
// later use) often share as many words with the question.
// notChoiceMarkers begin like one and ask for no choice: "when do I pick
// up the kids?" (lang.ChoiceCuesNot).
var choiceMarkers = lang.NewPhrases(lang.AsksReason, lang.ChoiceCues)
var notChoiceMarkers = lang.NewPhrases(lang.ChoiceCuesNot)

// asksChoice reports whether a question, as its lower-cased words in
// order, asks for a decision or the reason for one (choiceMarkers).
func asksChoice(words []string) bool {
	for i := range words {
		if !notChoiceMarkers.At(words, i) && choiceMarkers.At(words, i) {
			return true
		}
	}
	return false
}
