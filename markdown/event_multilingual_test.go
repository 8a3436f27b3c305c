package markdown

import (
	"testing"
	"time"
)

// TestEventTimeOtherLanguages: Retain facts written in other languages get
// their event time from the date forms those languages use.
func TestEventTimeOtherLanguages(t *testing.T) {
	written := time.Date(2025, 10, 18, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		text       string
		start, end string
	}{
		{"Die Geburtstagsfeier ist am 27.11.2025 im Garten bei Oma.", "2025-11-27", "2025-11-27"},
		{"Der Hausmeister kommt am 14. November 2025 wegen der Heizung.", "2025-11-14", "2025-11-14"},
		{"数据同步项目要求在2025年11月28日之前上线。", "2025-11-28", "2025-11-28"},
		{"本番の移行日は2025年11月22日の夜。", "2025-11-22", "2025-11-22"},
		{"11月27日开会", "2025-11-27", "2025-11-27"}, // no year: the nearest such day
		{"Доклад о миграции нужно сдать к 27 ноября 2025.", "2025-11-27", "2025-11-27"},
		{"Il contratto va rivisto entro il 27 ott 2025.", "2025-10-27", "2025-10-27"},
		{"Scadenza: 27 nov 2025", "2025-11-27", "2025-11-27"},
		{"L'apertura è rinviata al 15 gennaio 2026.", "2026-01-15", "2026-01-15"},
		{"Wünscht sich ein blaues Fahrrad.", "", ""},
	}
	for _, tt := range tests {
		got := EventTime(tt.text, written)
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
		if s, e := got.Start.Format(time.DateOnly), got.End.Format(time.DateOnly); s != tt.start || e != tt.end {
			t.Errorf("%q: got %s..%s, want %s..%s", tt.text, s, e, tt.start, tt.end)
		}
	}
}
