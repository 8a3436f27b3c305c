package datephrase

import (
	"testing"
	"time"
)

func TestFindNearest(t *testing.T) {
	now := time.Date(2025, 11, 10, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		text  string
		start string
	}{
		{"what happened on November 13", "2025-11-13"}, // three days ahead, not a year back
		{"the dentist on Dec 3", "2025-12-03"},
		{"on Nov 5", "2025-11-05"},             // just past: Find's reading stands
		{"since Nov 13", "2024-11-13"},         // since looks back
		{"last Tuesday", "2025-11-04"},         // relative: unchanged
		{"on November 13, 2024", "2024-11-13"}, // has its year
		{"around Nov 20", "2025-11-17"},        // around: the window starts 3 days before
	}
	for _, tt := range tests {
		ps := FindNearest(tt.text, now)
		if len(ps) == 0 {
			t.Errorf("%q: no phrase", tt.text)
			continue
		}
		if got := ps[0].Range.Start.Format("2006-01-02"); got != tt.start {
			t.Errorf("%q: starts %s, want %s", tt.text, got, tt.start)
		}
	}
}
