package lang

import (
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The word tables package reflect compares statements by: polarity.go,
// stopwords.go, persons.go, statementkind.go.
func TestStatementWordTables(t *testing.T) {
	var polar []string
	for _, p := range Polarity {
		if p.Concept == "" || (p.Sign != 1 && p.Sign != -1) || len(p.Words) == 0 {
			t.Errorf("Polarity: pole %q %d with %d words", p.Concept, p.Sign, len(p.Words))
		}
		polar = append(polar, p.Words...)
	}
	checkWords(t, "Polarity", polar) // each word on one end of one scale
	for _, tt := range []struct {
		name  string
		words []string
	}{
		{"Negators", Negators},
		{"NegatedAuxiliaries", NegatedAuxiliaries},
		{"ClauseJoiners", ClauseJoiners},
		{"NoMore", NoMore},
		{"StatementStopWords", StatementStopWords},
		{"RelationNouns", RelationNouns},
		{"RelationModifiers", RelationModifiers},
		{"PersonPronouns", PersonPronouns},
		{"ViewVerbs", ViewVerbs},
		{"PreferenceVerbs", PreferenceVerbs},
		{"InstructionOpeners", InstructionOpeners},
		{"PastMarkers", PastMarkers},
	} {
		checkWords(t, tt.name, tt.words)
	}
	// Each scale has both ends.
	ends := map[string]int{}
	for _, p := range Polarity {
		ends[p.Concept] += p.Sign
	}
	for c, sum := range ends {
		if sum != 0 {
			t.Errorf("Polarity: %q has one end only", c)
		}
	}
	// A negator or a polarity word is what a statement says: no stop word
	// of a statement. (StopWords holds "nor", which reflect reads as a
	// negator before it looks a word up there.)
	for _, w := range slices.Concat(Negators, polar) {
		if slices.Contains(StatementStopWords, w) || !slices.Contains(Negators, w) && slices.Contains(StopWords, w) {
			t.Errorf("stop words: %q is a negator or a polarity word", w)
		}
	}
	for _, w := range StatementStopWords {
		if slices.Contains(StopWords, w) {
			t.Errorf("StatementStopWords: %q is in StopWords already", w)
		}
	}
}

func TestStatementWordsKnown(t *testing.T) {
	pole := func(w string) Pole {
		for _, p := range Polarity {
			if slices.Contains(p.Words, w) {
				return p
			}
		}
		return Pole{}
	}
	for _, tt := range []struct {
		name string
		got  bool
	}{
		{"Polarity concise", pole("concise").Concept == "length" && pole("concise").Sign == -1},
		{"Polarity verbose", pole("verbose").Concept == "length" && pole("verbose").Sign == 1},
		{"Polarity dislikes", pole("dislikes").Concept == "like" && pole("dislikes").Sign == -1},
		{"Polarity low-key", pole("low-key").Concept == "size"},
		{"Negators never", slices.Contains(Negators, "never")},
		{"NegatedAuxiliaries wo", slices.Contains(NegatedAuxiliaries, "wo")},
		{"ClauseJoiners but", slices.Contains(ClauseJoiners, "but")},
		{"NoMore any more", slices.Contains(NoMore, "any more")},
		{"StopWords the", slices.Contains(StopWords, "the")},
		{"StopWords keeps now", !slices.Contains(StopWords, "now")},
		{"RelationNouns brother", slices.Contains(RelationNouns, "brother")},
		{"RelationNouns fiancée", slices.Contains(RelationNouns, "fiancée")},
		{"RelationModifiers eldest", slices.Contains(RelationModifiers, "eldest")},
		{"PersonPronouns she", slices.Contains(PersonPronouns, "she")},
		{"ViewVerbs reckons", slices.Contains(ViewVerbs, "reckons")},
		{"PreferenceVerbs prefers", slices.Contains(PreferenceVerbs, "prefers")},
		{"InstructionOpeners do not", slices.Contains(InstructionOpeners, "do not")},
		{"PastMarkers used to", slices.Contains(PastMarkers, "used to")},
	} {
		if !tt.got {
			t.Errorf("%s: not found", tt.name)
		}
	}
}

func TestWordSet(t *testing.T) {
	s := WordSet(Negators)
	if len(s) != len(Negators) || !s["never"] || s["always"] {
		t.Errorf("WordSet(Negators) = %v", s)
	}
}

func TestAlternation(t *testing.T) {
	re := regexp.MustCompile(`^(?:` + Alternation([]string{"rs.", "no longer", "propos*"}) + `)$`)
	for s, want := range map[string]bool{"rs.": true, "rsx": false, "no longer": true, "proposes": true, "propos": true, "prop": false} {
		if re.MatchString(s) != want {
			t.Errorf("Alternation: %q matched %v", s, !want)
		}
	}
}

func TestPhrases(t *testing.T) {
	ps := NewPhrases([]string{"went with", "decid*"}, []string{"rather than"})
	words := strings.Fields("we decided to go rather than wait and went with it")
	for i, want := range []bool{false, true, false, false, true, false, false, false, true, false, false} {
		if ps.At(words, i) != want {
			t.Errorf("At(%q) = %v", words[i], !want)
		}
	}
	if ps.First(words) != 1 || ps.First(strings.Fields("went home")) != -1 {
		t.Errorf("First = %d", ps.First(words))
	}
}
