package query

import (
	"slices"
	"testing"
	"time"
)

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

// TestEventAnchors: windows next to an event the query names by words.
func TestEventAnchors(t *testing.T) {
	for _, tc := range []struct {
		text  string
		words []string
		days  int
		dir   int
	}{
		{"what did we fix the week after the launch?", []string{"launch"}, 7, 1},
		{"how was she the day before her surgery", []string{"surgery"}, 1, -1},
		{"what happened in the month following the merger of the teams", []string{"merger"}, 30, 1},
		{"what did she learn in her first month at the new job?", []string{"new", "job"}, 30, 0},
		{"the fortnight before our move", []string{"move"}, 14, -1},
		{"how was Mum in the days after her night in the urgência?", []string{"night"}, 7, 1},
		{"the few weeks before the move", []string{"move"}, 21, -1},
	} {
		a, _, ok := findAnchor(tc.text)
		if !ok || !slices.Equal(a.Words, tc.words) || a.Days != tc.days || a.Dir != tc.dir {
			t.Errorf("%q: %+v %v", tc.text, a, ok)
		}
	}
	for _, text := range []string{"the week after Easter", "a day after that", "what did we fix last week?", "How many days before my best friend's birthday party did I order her gift?"} {
		if q, err := Parse(text, Options{Now: time.Date(2026, 4, 30, 0, 0, 0, 0, time.UTC)}); err != nil || q.Anchor != nil {
			t.Errorf("%q: anchor %+v, %v", text, q.Anchor, err)
		}
	}
}

// TestNameWithoutArticle: "The Cabin" is also named "the cabin", "our
// cabin" or "Cabin"; another entity's own name still wins.
func TestNameWithoutArticle(t *testing.T) {
	tab := NewNameTable(map[string][]string{"The-Cabin": nil, "Hill": nil, "The-Hill": nil})
	for text, want := range map[string]string{
		"how was our weekend at the cabin?": "The-Cabin",
		"did we fix the cabin roof":         "The-Cabin",
		"Cabin trip":                        "The-Cabin",
		"walk up the hill":                  "The-Hill",
		"Hill said hi":                      "Hill",
	} {
		ms := tab.MatchEntities(text)
		if len(ms) == 0 || ms[len(ms)-1].Slug != want {
			t.Errorf("%q: %+v, want %s", text, ms, want)
		}
	}
}
