package recall

import (
	"testing"

	"memoria/memory"
	"memoria/query"
)

// TestStatesChoice: a line records a choice when it says what was taken,
// kept or turned away, or gives a reason; a line that only mentions the
// options does not.
func TestStatesChoice(t *testing.T) {
	tests := []struct {
		text string
		want bool
	}{
		{"Went with the slate roof; the tiles needed a new batten frame.", true},
		{"The committee settled on the village hall for the reunion.", true},
		{"Yurt is off the table: the field floods every March.", true},
		{"Ruled out the Tuesday slot, half the choir works late.", true},
		{"Opted for the cheaper kayak hire in Brora.", true},
		{"Jonas dropped the evening class because of the commute.", true},
		{"We'll stick with the old printer until the lease ends.", true},
		{"Picked the blue kayak over the red one.", true},
		{"The board's decision: the hall, not the barn.", true},
		{"Abandoning the Tuesday slot for good.", true},
		{"Quote from the slate roofer: £8,400 plus VAT.", false},
		{"Anouk picked up the tent poles from the garage.", false},
		{"Demo of the new printer on Friday, looked fine.", false},
		{"The choir sang at the village hall.", false},
		{"Still stuck with the same chord change.", false},
		// The cues a question asks for a choice with say one too (lang.ChoiceCues).
		{"The board voted: the hall it is. We'll pick the caterer next week.", true},
		{"Lyn dropped in with a cake.", false},
		{"Subtitles switched on for the news.", false},
		{"A good selection of cheeses, and three choices of bread.", false},
		{"", false},
	}
	for _, tc := range tests {
		if got := statesChoice(tc.text); got != tc.want {
			t.Errorf("statesChoice(%q) = %v, want %v", tc.text, got, tc.want)
		}
	}
}

// TestChoiceFeature: for a question that asks what was chosen or why, the
// line that records the choice has the choice feature and the quote does
// not; any other question gives it to neither.
func TestChoiceFeature(t *testing.T) {
	quote := &candidate{
		item:  memory.Item{RowID: 1, Kind: memory.KindPassage, Content: "- Slate roof quote in, tiles quote due Monday."},
		ranks: map[string]int{"lexical": 1},
	}
	chosen := &candidate{
		item:  memory.Item{RowID: 2, Kind: memory.KindPassage, Content: "- Went with the tiles: the slate roof needs a new frame."},
		ranks: map[string]int{"lexical": 2},
	}
	for _, choice := range []bool{true, false} {
		f := featuresOf(Plan{Query: query.Query{Choice: choice, Words: []string{"slate", "roof"}}}, []*candidate{quote, chosen}, noLinks(), false)
		if _, ok := f[0]["choice"]; ok {
			t.Errorf("Choice %v: the quote has the choice feature", choice)
		}
		if _, ok := f[1]["choice"]; ok != choice {
			t.Errorf("Choice %v: the line that records the choice has it: %v", choice, ok)
		}
	}
}
