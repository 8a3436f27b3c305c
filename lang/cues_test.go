package lang

import (
	"maps"
	"slices"
	"strings"
	"testing"
)

// checkCues fails t for a cue of table that checkWords rejects, or whose
// words are not separated by single spaces, or that has a '*' anywhere
// but at the end of a word.
func checkCues(t *testing.T, table string, cues []string) {
	t.Helper()
	checkWords(t, table, cues)
	for _, c := range cues {
		for _, w := range strings.Split(c, " ") {
			if w == "" || strings.Contains(strings.TrimSuffix(w, "*"), "*") || w == "*" {
				t.Errorf("%s: %q is no phrase of words", table, c)
			}
		}
	}
}

// The tables of questions.go, choice.go, amounts.go and searchwords.go.
func TestCueTables(t *testing.T) {
	tables := []struct {
		name  string
		words []string
		known []string
	}{
		{"AsksDecision", AsksDecision, []string{"decid*", "settled on"}},
		{"AsksOpinion", AsksOpinion, []string{"prefer*", "feel about", "mind"}},
		{"AsksNow", AsksNow, []string{"now", "these days", "at the moment"}},
		{"PresentWords", PresentWords, []string{"now", "right", "today", "moment"}},
		{"LightVerbs", LightVerbs, []string{"see", "got", "used"}},
		{"AnchorSpans", slices.Sorted(maps.Keys(AnchorSpans)), []string{"week", "two weeks"}},
		{"AnchorSomeSpans", slices.Sorted(maps.Keys(AnchorSomeSpans)), []string{"days", "weeks"}},
		{"AnchorAfter", AnchorAfter, []string{"after"}},
		{"AnchorBefore", AnchorBefore, []string{"before"}},
		{"EventJoiners", EventJoiners, []string{"at", "in"}},
		{"EventOpeners", EventOpeners, []string{"the", "her"}},
		{"AsksPast", AsksPast, []string{"used to", "back then"}},
		{"AsksAbout", AsksAbout, []string{"tell me about", "who s", "wer ist", "кто такой"}},
		{"AsksSuggestion", AsksSuggestion, []string{"recommend", "what should i"}},
		{"LikeAuxiliaries", LikeAuxiliaries, []string{"does", "would"}},
		{"PastVerbs", PastVerbs, []string{"was", "were", "had"}},
		{"AsksAssistant", AsksAssistant, []string{"you said", "remind me"}},
		{"FirstPerson", FirstPerson, []string{"i", "myself"}},
		{"ChoiceCues", ChoiceCues, []string{"went with", "ruled out", "rather than", "reason"}},
		{"ChoiceCuesNot", ChoiceCuesNot, []string{"pick up", "picked up", "dropped in"}},
		{"AsksReason", AsksReason, []string{"why", "how come"}},
		{"GivesReason", GivesReason, []string{"because", "due to"}},
		{"ChoiceFrames", ChoiceFrames, []string{"rather than", "instead of"}},
		{"AsksAmount", AsksAmount, []string{"how many", "what share of"}},
		{"AmountWords", AmountWords, []string{"two", "dozen", "twice"}},
		{"StopWords", StopWords, []string{"the", "what", "didn", "s"}},
		{"GenericWords", GenericWords, []string{"happened", "week"}},
	}
	for _, tt := range tables {
		checkCues(t, tt.name, tt.words)
		for _, w := range tt.known {
			if !slices.Contains(tt.words, w) {
				t.Errorf("%s: %q missing", tt.name, w)
			}
		}
	}
	// What a search keeps: negations carry meaning, and "one" of the
	// amounts is a pronoun.
	for _, w := range []string{"not", "no", "never"} {
		if slices.Contains(StopWords, w) {
			t.Errorf("StopWords: %q is a negation", w)
		}
	}
	// A cue of a choice is none of its reason's.
	for _, w := range slices.Concat(AsksReason, GivesReason) {
		if slices.Contains(ChoiceCues, w) {
			t.Errorf("ChoiceCues: %q is a cue of a reason", w)
		}
	}
	if slices.Contains(AmountWords, "one") {
		t.Error(`AmountWords: "one" is more often a pronoun`)
	}
}
