package query

import "slices"

// quantityMarkers ask for an amount: a count, a sum, a duration, an age, a
// distance, a rate or a share. The answer is a number the memory states
// ("I have 57 of them", "it took four hours", "born in 1991"), whatever
// else the lines share with the question.
var quantityMarkers = [][]string{
	{"how", "many"}, {"how", "much"}, {"how", "long"}, {"how", "old"}, {"how", "far"},
	{"how", "often"}, {"how", "tall"}, {"how", "big"}, {"how", "heavy"},
	{"what", "percentage"}, {"what", "percent"}, {"what", "proportion"}, {"what", "fraction"},
	{"what", "share", "of"},
}

// asksQuantity reports whether a question, as its lower-cased words in
// order, asks for an amount (quantityMarkers). "How many weeks ago …" and
// "how long ago …" do not: they ask when something happened, which the
// memory tells by the day it was written, not by a number in the line.
func asksQuantity(words []string) bool {
	return firstMarker(words, quantityMarkers) >= 0 && !slices.Contains(words, "ago")
}

// choiceMarkers ask what was chosen, or why something was done: "why did
// we …", "what did we pick instead of …", "what made her drop …", "did
// we go with … or …". The answer is the line that records the choice or
// gives its reason ("went with Bellcote: Ridgeway's price rose"), while
// the lines that only mention the options (a quote, a demo, later use)
// often share as many words with the question. "Stuck with" is not one:
// "I've been feeling stuck with my paintings" asks for ideas.
var choiceMarkers = [][]string{
	{"why"}, {"how", "come"}, {"reason"}, {"reasons"}, {"what", "made"}, {"what", "led"},
	{"decid*"}, {"decision*"}, {"chose"}, {"chosen"}, {"choos*"}, {"choice*"},
	{"pick"}, {"picked"}, {"opt", "for"}, {"opted"}, {"settle", "on"}, {"settled", "on"},
	{"go", "with"}, {"went", "with"}, {"going", "with"}, {"gone", "with"},
	{"end", "up"}, {"ended", "up"}, {"instead"}, {"rather", "than"}, {"agree", "on"}, {"agreed", "on"},
	{"rule", "out"}, {"ruled", "out"}, {"abandon*"}, {"ditch*"},
	{"vote"}, {"voted"}, {"select*"},
}

// Not choices, though they begin like one: "when do I pick up the kids?".
// ("Drop" and "switch" are no markers at all: "where did I drop off the
// parcel?", "how do I switch on the heating?"; "why did we drop …" has
// its "why".)
var notChoiceMarkers = [][]string{{"pick", "up"}, {"picked", "up"}}

// asksChoice reports whether a question, as its lower-cased words in
// order, asks for a decision or the reason for one (choiceMarkers).
func asksChoice(words []string) bool {
	for i := range words {
		if slices.ContainsFunc(notChoiceMarkers, func(m []string) bool { return MarkerAt(words, i, m) }) {
			continue
		}
		if slices.ContainsFunc(choiceMarkers, func(m []string) bool { return MarkerAt(words, i, m) }) {
			return true
		}
	}
	return false
}
