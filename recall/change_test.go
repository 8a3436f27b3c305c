package recall

import (
	"slices"
	"testing"
)

// TestProseSentences: a passage's sentences, whole, without list markers
// or a typed fact's kind; each sentence after the first on a line keeps
// its first letter.
func TestProseSentences(t *testing.T) {
	got := proseSentences("- W Switched the vet to Clutha Vets. Switched the feed too.\nWe met Dr. Reid. \"Fine,\" she said.\n- ok.")
	want := []string{"Switched the vet to Clutha Vets.", "Switched the feed too.", "We met Dr. Reid.", `"Fine," she said.`}
	if !slices.Equal(got, want) {
		t.Errorf("proseSentences = %q, want %q", got, want)
	}
}

// TestChangeSaying: of the clauses that hold, those that say the change.
func TestChangeSaying(t *testing.T) {
	c := ReadChange("He talks to me from a riad roof now, and the long answers live in files.", nil)
	if c == nil {
		t.Fatal("no change read")
	}
	if want := "He talks to me from a riad roof now"; c.Saying != want {
		t.Errorf("Saying = %q, want %q", c.Saying, want)
	}
}
