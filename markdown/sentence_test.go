package markdown

import (
	"slices"
	"testing"
)

func TestSentences(t *testing.T) {
	for _, tc := range []struct {
		line string
		want []string
	}{
		{"Switched the vet. Switched the feed too.", []string{"Switched the vet.", "Switched the feed too."}},
		{"We met Dr. Okafor at 9. Then lunch!", []string{"We met Dr. Okafor at 9.", "Then lunch!"}},
		{"Invoice from J. Smith arrived. 2 pages long.", []string{"Invoice from J. Smith arrived.", "2 pages long."}},
		{`He said "we're done." Then he left.`, []string{`He said "we're done."`, "Then he left."}},
		{"Bring flour, sugar, e.g. rye. (Not spelt.) Done?", []string{"Bring flour, sugar, e.g. rye.", "(Not spelt.)", "Done?"}},
		{"Price went to 3.50 today. no capital after this. Ok", []string{"Price went to 3.50 today. no capital after this.", "Ok"}},
		{"Berth is €640 incl. VAT, esp. in winter. Paid.", []string{"Berth is €640 incl. VAT, esp. in winter.", "Paid."}},
		{"The oven came at 11. ₹18,400 from the fund.", []string{"The oven came at 11.", "₹18,400 from the fund."}},
		{"Really?! Yes. Élodie starts Monday.", []string{"Really?!", "Yes.", "Élodie starts Monday."}},
		{"会议改到周五。 Moved it. 周五见", []string{"会议改到周五。 Moved it.", "周五见"}},
		{"  trailing.  ", []string{"trailing."}},
		{"", nil},
	} {
		if got := Sentences(tc.line); !slices.Equal(got, tc.want) {
			t.Errorf("Sentences(%q) = %q, want %q", tc.line, got, tc.want)
		}
	}
}

func TestSentenceEnd(t *testing.T) {
	for _, tc := range []struct {
		s    string
		i    int
		want int
	}{
		{"Done. Next", 4, 5},
		{"Done.", 4, 5},
		{`Done." Next`, 4, 6},
		{"Done.” Next", 4, 8}, // ” is three bytes
		{"Done.\nNext", 4, 5},
		{"Done. next", 4, -1},
		{"v1.2 ok", 2, -1},
		{"Mrs. Okafor", 3, -1},
		{"St. Ives", 2, -1},
		{"A. B", 1, -1},
		{"Done", 1, -1},
		{"Done.", 5, -1},
		{"Done.", -1, -1},
	} {
		if got := SentenceEnd(tc.s, tc.i); got != tc.want {
			t.Errorf("SentenceEnd(%q, %d) = %d, want %d", tc.s, tc.i, got, tc.want)
		}
	}
}

func TestItemStart(t *testing.T) {
	for _, tc := range []struct {
		line string
		want string // the line from where the statement starts; "!" for no list item
	}{
		{"- Vet: Dr Fiona McLeod", "Vet: Dr Fiona McLeod"},
		{"  * W @Peter: lives in Leeds", "@Peter: lives in Leeds"},
		{"- O(c=0.8) Rye sells best", "Rye sells best"},
		{"- B: booked the hall", "booked the hall"},
		{"1. [x] Stale: the vet", "Stale: the vet"},
		{"- [ ] W call the bank", "call the bank"},
		{"- We moved", "We moved"},
		{"- Sourdough is £4.50", "Sourdough is £4.50"},
		{"- B. Smith called", "B. Smith called"},
		{"12) twelfth", "twelfth"},
		{"-dash", "!"},
		{"Plain prose.", "!"},
	} {
		start, ok := ItemStart(tc.line)
		got := "!"
		if ok {
			got = tc.line[start:]
		}
		if got != tc.want {
			t.Errorf("ItemStart(%q): statement %q, want %q", tc.line, got, tc.want)
		}
	}
}
