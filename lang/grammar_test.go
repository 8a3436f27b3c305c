package lang

import (
	"slices"
	"testing"
)

// TestGrammarTables: every table of grammar.go and values.go is well
// formed (checkChangeTable) and holds a few words it is known for; the
// calendar units are keys of TimeUnits.
func TestGrammarTables(t *testing.T) {
	for _, tb := range []struct {
		name    string
		phrases []string
		known   []string
	}{
		{"SentenceJoiners", SentenceJoiners, []string{"but", "while"}},
		{"FactJoiners", FactJoiners, []string{"but", "whereas"}},
		{"ReplacingWords", ReplacingWords, []string{"instead of", "replacing"}},
		{"SwapVerbs", SwapVerbs, []string{"swapped", "traded"}},
		{"YearPrepositions", YearPrepositions, []string{"since", "back in"}},
		{"PersonalPossessives", PersonalPossessives, []string{"our", "their"}},
		{"Be", Be, []string{"is", "’s"}},
		{"BeAfterPronoun", BeAfterPronoun, []string{"'re", "’re"}},
		{"Have", Have, []string{"has", "'ve"}},
		{"WeAre", WeAre, []string{"we're", "we are"}},
		{"GoForms", GoForms, []string{"went", "gone"}},
		{"TakeOver", TakeOver, []string{"took over", "taken over"}},
		{"StartVerbs", StartVerbs, []string{"started", "joined"}},
		{"StateVerbs", StateVerbs, []string{"runs", "cost"}},
		{"ChangeStarts", ChangeStarts, []string{"next", "today"}},
		{"ExtendedUntil", ExtendedUntil, []string{"to", "till"}},
		{"OrdinalSuffixes", OrdinalSuffixes, []string{"st", "rd"}},
		{"ChangedObjects", ChangedObjects, []string{"it", "their"}},
		{"CurrencySymbols", CurrencySymbols, []string{"£", "₹"}},
		{"CurrencyCodes", CurrencyCodes, []string{"rs.", "kes", "eur"}},
		{"ClockSuffixes", ClockSuffixes, []string{"am", "hrs"}},
		{"CalendarUnits", CalendarUnits, []string{"week", "year"}},
	} {
		checkChangeTable(t, tb.name, tb.phrases)
		for _, k := range tb.known {
			if !slices.Contains(tb.phrases, k) {
				t.Errorf("%s: no %q", tb.name, k)
			}
		}
	}
	for _, u := range CalendarUnits {
		if TimeUnits[u] == nil {
			t.Errorf("CalendarUnits: %q is no key of TimeUnits", u)
		}
	}
	// A code with a dot comes before the same without: a regular
	// expression tries alternatives in order ("Rs. 600").
	for i, c := range CurrencyCodes {
		if j := slices.Index(CurrencyCodes, c+"."); j > i {
			t.Errorf("CurrencyCodes: %q before %q", c, c+".")
		}
	}
}
