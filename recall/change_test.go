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
