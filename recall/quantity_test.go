package recall

import (
	"testing"

	"memoria/memory"
	"memoria/query"
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

// TestQuantityFeature: for a question that asks for an amount, the line
// that states a number has the quantity feature and the vague one does
// not; any other question gives it to neither.
func TestQuantityFeature(t *testing.T) {
	vague := &candidate{
		item:  memory.Item{RowID: 1, Kind: memory.KindPassage, Content: "- 09:00 **User**: I keep my jam jars in the cellar."},
		ranks: map[string]int{"lexical": 1},
	}
	counted := &candidate{
		item:  memory.Item{RowID: 2, Kind: memory.KindPassage, Content: "- 09:05 **User**: We filled 14 jars of jam this year."},
		ranks: map[string]int{"lexical": 2},
	}
	for _, quantity := range []bool{true, false} {
		f := featuresOf(Plan{Query: query.Query{Quantity: quantity, Words: []string{"jars", "jam"}}}, []*candidate{vague, counted}, noLinks(), false)
		if _, ok := f[0]["quantity"]; ok {
			t.Errorf("Quantity %v: the vague line has the quantity feature", quantity)
		}
		if _, ok := f[1]["quantity"]; ok != quantity {
			t.Errorf("Quantity %v: the counted line has it: %v", quantity, ok)
		}
	}
}
