package query

import (
	"slices"
	"testing"
	"time"
)

func TestPeriodsAndBrowse(t *testing.T) {
	now := time.Date(2025, 12, 1, 9, 0, 0, 0, time.UTC)
	table := NewNameTable(map[string][]string{"Biscuit": {"the dog"}})
	tests := []struct {
		text       string
		start, end string // the window; "" for none
		browse     bool
		nameWords  []string
	}{
		{"What was I doing during the first week of October?", "2025-10-01", "2025-10-07", true, nil},
		{"What did we get done in the last week of October?", "2025-10-25", "2025-10-31", true, nil},
		{"Anything about Biscuit in the second half of November?", "2025-11-16", "2025-11-30", false, []string{"biscuit"}},
		{"the first half of November 2024", "2024-11-01", "2024-11-15", true, nil},
		{"the third week of September", "2025-09-15", "2025-09-21", true, nil},
		{"What went on at Halloween?", "2025-10-31", "2025-10-31", true, nil},
		{"plans for Christmas", "2024-12-24", "2024-12-26", false, nil}, // Christmas 2025 is after now
		{"what did we do over christmas", "2024-12-24", "2024-12-26", true, nil},
		{"anything since easter?", "2025-04-18", "2025-12-01", true, nil},
		{"what happened on good friday", "2025-04-18", "2025-04-18", true, nil},
		{"christmas day", "2024-12-25", "2024-12-25", true, nil},
		// Named days in lower case, which datephrase reads only in a
		// question, any of its names.
		{"what did we do on anzac day?", "2025-04-25", "2025-04-25", true, nil},
		{"anything over xmas?", "2024-12-24", "2024-12-26", true, nil},
		{"who came at christmas", "2024-12-24", "2024-12-26", false, nil},
		{"the tuesday after easter", "2025-04-22", "2025-04-22", true, nil},
		{"What happened between Oct 3 and Oct 9?", "2025-10-03", "2025-10-09", true, nil},
		{"What happened with the dog in September?", "2025-09-01", "2025-09-30", false, []string{"the", "dog"}},
		{"What happened with the boiler in September?", "2025-09-01", "2025-09-30", false, nil},
		{"what happened", "", "", false, nil}, // no window: nothing to browse
	}
	for _, tc := range tests {
		t.Run(tc.text, func(t *testing.T) {
			q, err := Parse(tc.text, Options{Now: now, Names: table})
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case tc.start == "" && q.Window != nil:
				t.Errorf("window %v, want none", q.Window)
			case tc.start != "" && (q.Window == nil || q.Window.Start.Format(time.DateOnly) != tc.start || q.Window.End.Format(time.DateOnly) != tc.end):
				t.Errorf("window %v, want %s..%s (%+v)", q.Window, tc.start, tc.end, *q)
			}
			if q.Browse != tc.browse {
				t.Errorf("browse %v, want %v (%+v)", q.Browse, tc.browse, *q)
			}
			if !slices.Equal(q.NameWords, tc.nameWords) {
				t.Errorf("name words %q, want %q", q.NameWords, tc.nameWords)
			}
		})
	}
}
