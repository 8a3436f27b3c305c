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
