package lang

import (
	"slices"
	"strings"
	"testing"
)

// checkChangeTable fails t for a phrase of a table of change.go that is
// empty, not lower case, has surrounding or doubled spaces, a '*' but at
// the end of a word, or comes twice.
func checkChangeTable(t *testing.T, table string, phrases []string) {
	t.Helper()
	seen := map[string]bool{}
	for _, p := range phrases {
		switch {
		case p == "" || strings.TrimSpace(p) != p || strings.Contains(p, "  "):
			t.Errorf("%s: %q is empty or spaced", table, p)
		case strings.ToLower(p) != p:
			t.Errorf("%s: %q is not lower case", table, p)
		case slices.ContainsFunc(strings.Split(p, " "), func(w string) bool { return strings.Contains(strings.TrimSuffix(w, "*"), "*") || w == "*" }):
			t.Errorf("%s: %q has a '*' but at a word's end", table, p)
		case seen[p]:
			t.Errorf("%s: %q twice", table, p)
		}
		seen[p] = true
	}
}

// TestChangeTables: every table of change.go is well formed and holds a
// few words it is known for.
func TestChangeTables(t *testing.T) {
	tables := []struct {
		name    string
		phrases []string
		known   []string
	}{
		{"NotSettled", NotSettled, []string{"might", "plan*", "this week only", "wanted us to"}},
		{"ModalOpeners", ModalOpeners, []string{"if", "maybe"}},
		{"Unchanged", Unchanged, []string{"still", "as usual"}},
		{"EndingWords", EndingWords, []string{"stepped down", "resigned", "moved out"}},
		{"EndMarkers", EndMarkers, []string{"n't", "no longer", "former"}},
		{"Deadlines", Deadlines, []string{"valid until", "open till"}},
		{"LeftFrom", LeftFrom, []string{"moved", "transferred", "over"}},
		{"StartWords", StartWords, []string{"today", "next"}},
		{"RelationWords", RelationWords, []string{"since", "per"}},
		{"WorkVerbs", WorkVerbs, []string{"works", "worked"}},
		{"Titles", Titles, []string{"dr", "mrs"}},
		{"AddressTitles", AddressTitles, []string{"st"}},
		{"MeasureUnits", MeasureUnits, []string{"ml", "kg", "%"}},
	}
	for language, ps := range ChangeWords {
		tables = append(tables, struct {
			name    string
			phrases []string
			known   []string
		}{"ChangeWords[" + language + "]", ps, nil})
	}
	for _, kinds := range []map[string][]string{ValueKindNouns, AttributeCues} {
		var all []string
		for _, ws := range kinds {
			all = append(all, ws...)
		}
		tables = append(tables, struct {
			name    string
			phrases []string
			known   []string
		}{"by kind", all, nil}) // a word names one kind or attribute
	}
	for _, tb := range tables {
		checkChangeTable(t, tb.name, tb.phrases)
		for _, k := range tb.known {
			if !slices.Contains(tb.phrases, k) {
				t.Errorf("%s: no %q", tb.name, k)
			}
		}
	}
	for language, want := range map[string]string{"en": "switched", "fr": "désormais", "es": "ya no", "pt": "mudou", "sv": "flyttat", "de": "jetzt", "it": "trasferit*", "ru": "теперь", "zh": "搬到", "ja": "引っ越"} {
		if !slices.Contains(ChangeWords[language], want) {
			t.Errorf("ChangeWords[%s]: no %q", language, want)
		}
	}
	if AttributeCues["residence"] == nil || !slices.Contains(AttributeCues["phone"], "mobile") || !slices.Contains(ValueKindNouns["money"], "fee") {
		t.Error("AttributeCues or ValueKindNouns lack a known word")
	}
}
