package query

import "testing"

// TestAsksQuantity: a question that asks for an amount (a count, a sum, a
// duration, an age, a distance, a rate, a share) is marked, so recall can
// lift the lines that state a number; one that asks when something
// happened ("how many days ago") or for anything else is not.
func TestAsksQuantity(t *testing.T) {
	tests := []struct {
		text string
		want bool
	}{
		{"How many jars of plum jam did we put up last autumn?", true},
		{"how much did the new bike rack cost", true},
		{"How long was the drive to Ljubljana?", true},
		{"How old is Mirela's son?", true},
		{"How far is the cabin from the lake?", true},
		{"How often does Teo water the orchids?", true},
		{"What percentage of the grant went on equipment?", true},
		{"What share of the rent does Ines pay?", true},
		{"How many weeks ago did I start the pottery course?", false},
		{"How long ago did we repaint the shed?", false},
		{"How did the tasting go?", false},
		{"What did Ines say about the rent?", false},
		{"Where does Teo keep the spare keys?", false},
	}
	for _, tc := range tests {
		if got := parse(t, tc.text).Quantity; got != tc.want {
			t.Errorf("%q: Quantity %v, want %v", tc.text, got, tc.want)
		}
	}
}

// TestAsksChoice: a question asks for a choice when it asks why something
// was done, what was picked, chosen or dropped, or what was taken instead
// of something; a question about what happened, when or how much does not.
func TestAsksChoice(t *testing.T) {
	tests := []struct {
		text string
		want bool
	}{
		{"Why did the co-op leave the old printer firm?", true},
		{"What did Anouk pick instead of the yurt?", true},
		{"Which kayak hire did they end up going with?", true},
		{"What made Jonas drop the evening class?", true},
		{"Which mic did the studio pick?", true},
		{"did we go with the slate roof or the tiles?", true},
		{"How come the choir moved to Thursdays?", true},
		{"Which venue was ruled out for the reunion?", true},
		{"What did the committee decide about parking?", true},
		{"When is the choir's next concert?", false},
		{"How much did the slate roof cost?", false},
		{"Where does Anouk keep the tent poles?", false},
		{"What happened at the reunion?", false},
		{"I feel stuck with my garden lately, any ideas?", false},
		{"When do I pick up the kids on Friday?", false},
		{"Where did I drop off the parcel?", false},
		{"How do I switch on the heating?", false},
		// The cues a line records a choice with ask for one too (lang.ChoiceCues).
		{"Which supplier did we stay with in the end?", true},
		{"Did the shop approve the refund?", false},
		{"What did Rosaleen say when she dropped in last Tuesday?", false},
		{"When was the heating switched off?", false},
	}
	for _, tc := range tests {
		if got := parse(t, tc.text).Choice; got != tc.want {
			t.Errorf("%q: Choice %v, want %v", tc.text, got, tc.want)
		}
	}
}
