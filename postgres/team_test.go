package postgres

import (
	"reflect"
	"testing"

	"memoria/memory"
)

// TestPlanWords checks the words a team-wide search uses, chosen as
// recall chooses a workspace's terms: the rare ones, rarest first, while
// their rows fit memory.MaxScoredRows (the rarest always); the rarest
// common one when no word is rare; a phrase counted by its rarest term;
// words that match nothing or are punctuation never.
func TestPlanWords(t *testing.T) {
	big := memory.MaxScoredRows
	for _, tc := range []struct {
		name    string
		lexemes [][]string
		counts  map[string]int
		total   int
		want    []plannedWord
	}{
		{"rarest first", [][]string{{"a"}, {"b"}, {"c"}}, map[string]int{"a": 30, "b": 10, "c": 0}, 1000,
			[]plannedWord{{1, 10}, {0, 30}}},
		{"common words are left out", [][]string{{"the"}, {"kyoto"}}, map[string]int{"the": 900, "kyoto": 5}, 1000,
			[]plannedWord{{1, 5}}},
		{"only common words: the rarest", [][]string{{"the"}, {"a"}}, map[string]int{"the": 900, "a": 700}, 1000,
			[]plannedWord{{1, 700}}},
		{"a phrase counts as its rarest term", [][]string{{"deploy", "sh"}, {"x"}}, map[string]int{"deploy": 50, "sh": 4, "x": 9}, 1000,
			[]plannedWord{{0, 4}, {1, 9}}},
		{"the budget stops at the rarest", [][]string{{"a"}, {"b"}}, map[string]int{"a": big, "b": big}, 10 * big,
			[]plannedWord{{0, big}}},
		{"punctuation only", [][]string{{}, {"a"}}, map[string]int{"a": 3}, 100,
			[]plannedWord{{1, 3}}},
	} {
		if got := planWords(tc.lexemes, tc.counts, tc.total); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}
