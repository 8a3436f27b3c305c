package change

import (
	"strings"
	"testing"
)

// TestShareCurrentValue: a fact shares a statement's current value when a
// value of the statement is one the fact gives as it is now; values in a
// clause that says something ended ("moved from Graz", "from Monday to
// Tuesday") are old ones, while "from" a day says when a value begins.
func TestShareCurrentValue(t *testing.T) {
	noName := func(string) bool { return false }
	for _, c := range []struct {
		statement, fact string
		want            bool
	}{
		{"Comes in on Mondays.", "Priscilla comes in on Mondays from 2026-08-17.", true},
		{"Comes in on Mondays.", "Priscilla comes in on Mondays from next week.", true},
		{"Weekly off: Monday.", "Weekly off moves from Monday to Tuesday, starting 9 June.", false},
		{"Lives in Graz.", "Moved to Linz from Graz last week.", false},
		{"Lives in Graz.", "Still lives in Graz, near the river.", true},
		// A measure is what the statement is about: another one of its
		// kind changes it, whatever qualifier the two share.
		{"Mooring fee: €640 a year incl. VAT, paid to Kanaal BV.", "The mooring fee is €705 a year incl. VAT now.", false},
		{"Mooring fee: €640 a year incl. VAT, paid to Kanaal BV.", "Paid Kanaal BV the €640 mooring fee and a €15 key deposit.", true},
		{"Ferry leaves Kilcreggan at 07:40, Western Ferries.", "Western Ferries: the first boat leaves at 07:10 from May.", false},
		{"Ferry leaves Kilcreggan at 07:40, Western Ferries.", "Western Ferries are on strike on Monday.", true},
		// "replaced Y as" ends Y only, though "replaced" alone would end
		// the whole clause; so does "replaced X with Y".
		{"Contact: Tom Beckwith, business manager.", "Tom Beckwith replaced Priya as our business manager.", true},
		{"Contact: Priya Sethi, business manager.", "Tom Beckwith replaced Priya Sethi as our business manager.", false},
		{"Supplier: Calder Parts.", "Replaced Ridings with Calder Parts in March.", true},
		// A weekly slot is what a statement with a weekday is about: other
		// days change it, whatever time or place the two share.
		{"Coffee with Odd, Thursdays 11:00 at Risø.", "Coffee with Odd is on Saturdays at 11:00 at the café at Smørtorget since 2026-01-10.", false},
		{"Coffee with Odd, Thursdays 11:00 at Risø.", "Coffee with Odd is on Thursdays at 11:00, at the café at Smørtorget now.", true},
		{"Kick-off: 8pm at the leisure centre.", "Sheepscar Rovers kick off at 8pm on Thursdays.", true},
	} {
		if got := ShareCurrentValue(c.statement, c.fact, noName); got != c.want {
			t.Errorf("ShareCurrentValue(%q, %q) = %v, want %v", c.statement, c.fact, got, c.want)
		}
	}
}

// TestFromToAnyCase: "from X To Y" and a tab before "to" are read as "from X
// to Y" is (the pattern ignores case; the cut used to look for " to " in
// lower case and cut at -1: a panic on a longmemeval line).
func TestFromToAnyCase(t *testing.T) {
	for _, fact := range []string{
		"Joanna Marsh moved from Ridgeway To Bellcote",
		"Joanna Marsh moved from Ridgeway\tto Bellcote",
		"Joanna Marsh moved FROM RIDGEWAY TO BELLCOTE",
	} {
		cs := splitClauses(fact)
		var ended []string
		for _, c := range cs {
			if c.ended {
				ended = append(ended, strings.TrimSpace(c.text))
			}
		}
		if len(ended) != 1 || !strings.Contains(strings.ToLower(ended[0]), "ridgeway") || strings.Contains(strings.ToLower(ended[0]), "bellcote") {
			t.Errorf("%q: ended %q, want the Ridgeway clause alone", fact, ended)
		}
	}
}
