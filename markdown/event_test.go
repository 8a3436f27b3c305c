package markdown

import (
	"testing"
	"time"
)

func TestEventTime(t *testing.T) {
	written := time.Date(2025, 11, 27, 0, 0, 0, 0, time.UTC) // a Thursday
	tests := []struct {
		text       string
		written    time.Time
		start, end string // "" for no event time
	}{
		{"Currently in Marrakech (Nov 27–Dec 1, 2025) for Andy's birthday.", written, "2025-11-27", "2025-12-01"},
		{"Deployed warelay to Hetzner on 2025-11-03.", written, "2025-11-03", "2025-11-03"},
		{"Met Clara last Tuesday about the roadmap.", written, "2025-11-25", "2025-11-25"},
		{"Moved the sync to Dec 3.", written, "2025-12-03", "2025-12-03"},
		{"Biscuit's booster was on Nov 20.", written, "2025-11-20", "2025-11-20"},
		{"Prefers concise replies on WhatsApp.", written, "", ""},
		{"Has lived in Vienna since 2019.", written, "", ""},
		{"Conference Oct 14–16, 2025 in Berlin.", time.Time{}, "2025-10-14", "2025-10-16"},
		{"Call him yesterday.", time.Time{}, "", ""}, // undated file: relative times mean nothing
		{"Visited Lisbon in October.", written, "2025-10-01", "2025-10-31"},
	}
	for _, tt := range tests {
		got := EventTime(tt.text, tt.written)
		if tt.start == "" {
			if got != nil {
				t.Errorf("%q: got %v, want none", tt.text, got)
			}
			continue
		}
		if got == nil {
			t.Errorf("%q: no event time, want %s..%s", tt.text, tt.start, tt.end)
			continue
		}
		if s, e := got.Start.Format("2006-01-02"), got.End.Format("2006-01-02"); s != tt.start || e != tt.end {
			t.Errorf("%q: got %s..%s, want %s..%s", tt.text, s, e, tt.start, tt.end)
		}
	}
}
