package query

import "testing"

// TestShortNames: a capitalised word of three letters or more that begins
// the first word of exactly one entity's names stands for it ("Rob" for
// Robert); one that begins two ("Alex"), a stop word, a month or weekday
// abbreviation, or a word in lower case names nobody.
func TestShortNames(t *testing.T) {
	tab := NewNameTable(map[string][]string{"Robert": {"Robert Marsh"}, "Alexander": nil, "Alexandra": nil, "Marrakech": nil, "Whatsapp-Group": nil})
	for text, want := range map[string]string{
		"tell me about Rob":     "Robert",
		"what did Alex say":     "",
		"around Mar 3":          "",
		"rob said":              "",
		"What happened":         "",
		"ask Marr about prices": "Marrakech",
	} {
		ms := tab.MatchEntities(text)
		got := ""
		if len(ms) > 0 {
			got = ms[0].Slug
		}
		if got != want {
			t.Errorf("%q: %q, want %q", text, got, want)
		}
	}
}
