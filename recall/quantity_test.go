package recall

import (
	"testing"

	"memoria/memory"
)

// TestStatesQuantity: a line states an amount when it gives a number in
// digits or in words; the time and speaker that open a chat turn and the
// numbers of a numbered list are not amounts.
func TestStatesQuantity(t *testing.T) {
	tests := []struct {
		text string
		want bool
	}{
		{"We put up 14 jars of plum jam.", true},
		{"The rack was $1,200 with fitting.", true},
		{"- 08:15 **User**: The drive took four hours with the ferry.", true},
		{"Her son turned twelve in May.", true},
		{"Teo waters them twice a week.", true},
		{"The 5K loop starts at the pier.", true},
		{"- 08:15 **User**: I love the drive along the coast.", false},
		{"- 21:40 **Assistant**: Here are some ideas:\n  1. Stew the plums.\n  2) Freeze them in bags.", false},
		{"  **3.** Label every jar.", false},
		{"This one is the sweeter of the plum jams.", false},
		{"", false},
	}
	for _, tc := range tests {
		if got := statesQuantity(tc.text); got != tc.want {
			t.Errorf("statesQuantity(%q) = %v, want %v", tc.text, got, tc.want)
		}
	}
}

// TestQuantityLift: for a question that asks for an amount, of two lines
// about the topic the one that states a number ranks first, though words
// alone ranked it second; any other question keeps the order of the words.
func TestQuantityLift(t *testing.T) {
	vague := &candidate{
		item:  memory.Item{RowID: 1, Kind: memory.KindPassage, Content: "- 09:00 **User**: I keep my jam jars in the cellar."},
		ranks: map[string]int{"lexical": 1},
	}
	counted := &candidate{
		item:  memory.Item{RowID: 2, Kind: memory.KindPassage, Content: "- 09:05 **User**: We filled 14 jars of jam this year."},
		ranks: map[string]int{"lexical": 2},
	}
	l := &links{sig: map[int64]*factSig{}, next: map[int64][]int64{}, prev: map[int64][]int64{}}
	tests := []struct {
		quantity bool
		first    int64
	}{
		{true, 2},
		{false, 1},
	}
	for _, tc := range tests {
		got := fuse(Plan{Quantity: tc.quantity, Terms: []string{"jars", "jam"}}, []*candidate{vague, counted}, l, false)
		if got[0].c.item.RowID != tc.first {
			t.Errorf("Quantity %v: %q first, want row %d", tc.quantity, got[0].c.item.Content, tc.first)
		}
	}
}
