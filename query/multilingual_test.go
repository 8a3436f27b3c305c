package query

import (
	"slices"
	"testing"
	"time"
)

// TestParseOtherScripts: mentions, known names, words and dates in other
// scripts.
func TestParseOtherScripts(t *testing.T) {
	now := time.Date(2025, 12, 1, 9, 0, 0, 0, time.UTC)
	names := NewNameTable(map[string][]string{
		"Пётр": {"Петя", "Петр"},
		"王伟":   nil,
		"Zoë":  {"Zoe"},
		"田中":   nil,
	})
	tests := []struct {
		text      string
		entities  []string
		nameWords []string
		words     []string
		window    string // "start..end" or ""
	}{
		{"@Пётр ужин", []string{"Пётр"}, []string{"пётр"}, []string{"ужин"}, ""},
		{"что говорил Петя про отчёты", []string{"Пётр"}, []string{"петя"}, []string{"что", "говорил", "петя", "про", "отчёты"}, ""},
		{"ПЁТР", []string{"Пётр"}, []string{"пётр"}, []string{"пётр"}, ""},
		{"@北京 办公室", []string{"北京"}, []string{"北京"}, []string{"办公室"}, ""},
		{"王伟说客户什么时候上线", []string{"王伟"}, []string{"王伟"}, []string{"王伟", "说客户什么时候上线"}, ""},
		{"本番の移行で田中さんは何と言った", []string{"田中"}, []string{"田中"}, []string{"本番の移行で", "田中", "さんは何と言った"}, ""},
		{"@Zoë Geburtstag", []string{"Zoë"}, []string{"zoë"}, []string{"geburtstag"}, ""},
		{"Was wünscht sich Zoe?", []string{"Zoë"}, []string{"zoe"}, []string{"was", "wünscht", "sich", "zoe"}, ""},
		{"что было 27 ноября 2025", nil, nil, []string{"что", "было"}, "2025-11-27..2025-11-27"},
		{"2025年11月的会议", nil, nil, []string{"的会议"}, "2025-11-01..2025-11-30"},
		{"Termine am 27.11.2025", nil, nil, []string{"termine", "am"}, "2025-11-27..2025-11-27"},
	}
	for _, tt := range tests {
		q, err := Parse(tt.text, Options{Now: now, Names: names})
		if err != nil {
			t.Fatalf("%q: %v", tt.text, err)
		}
		if !slices.Equal(q.Entities, tt.entities) || !slices.Equal(q.NameWords, tt.nameWords) || !slices.Equal(q.Words, tt.words) {
			t.Errorf("%q: entities %q name words %q words %q, want %q %q %q", tt.text, q.Entities, q.NameWords, q.Words, tt.entities, tt.nameWords, tt.words)
		}
		w := ""
		if q.Window != nil {
			w = q.Window.Start.Format(time.DateOnly) + ".." + q.Window.End.Format(time.DateOnly)
		}
		if w != tt.window {
			t.Errorf("%q: window %q, want %q", tt.text, w, tt.window)
		}
	}
	// Entity slugs in any script are accepted by --entity; unsafe ones are
	// still rejected.
	for _, ok := range []string{"Пётр", "@北京", "Zoë", "Frau-Müller", "서울"} {
		if _, err := Parse("x", Options{Now: now, Entities: []string{ok}}); err != nil {
			t.Errorf("--entity %q: %v", ok, err)
		}
	}
	for _, bad := range []string{"../Пётр", "北京/上海", ".Zoë", "Zoë.", "a..b"} {
		if _, err := Parse("x", Options{Now: now, Entities: []string{bad}}); err == nil {
			t.Errorf("--entity %q accepted", bad)
		}
	}
}
