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

// TestResolveAsInText: a name given on its own (Resolve) and the same name
// in a question (MatchEntities) name the same entity, or none: slug,
// display name, any case, with or without diacritics, an alias, a word
// of only one entity's slug; a name two entities answer to is
// ambiguous, with both as candidates.
func TestResolveAsInText(t *testing.T) {
	t.Parallel()
	tab := NewNameTable(map[string][]string{
		"Project-Atlas": nil, "Zoë-Müller": {"Zoë Müller", "Zo"}, "Alex-Kim": nil, "Alex-Moreau": nil,
		"The-Castle": nil, "Robert": {"Robert Marsh"},
	})
	for _, c := range []struct {
		name, slug string
		candidates []string
	}{
		{"Project Atlas", "Project-Atlas", nil},
		{"project-atlas", "Project-Atlas", nil},
		{"Atlas", "Project-Atlas", nil},
		{"atlas", "Project-Atlas", nil},
		{"Zoe Muller", "Zoë-Müller", nil},
		{"MULLER", "Zoë-Müller", nil},
		{"Zoe", "Zoë-Müller", nil},
		{"Zo", "Zoë-Müller", nil},
		{"Kim", "Alex-Kim", nil},
		{"castle", "The-Castle", nil},
		{"Marsh", "", nil}, // a word of an alias ("Robert Marsh") alone names no one
		{"Rob", "Robert", nil},
		{"Alex", "", []string{"Alex-Kim", "Alex-Moreau"}},
		{"the", "", nil},
		{"Nobody", "", nil},
	} {
		slug, candidates := tab.Resolve(c.name)
		slices.Sort(candidates)
		if slug != c.slug || !slices.Equal(candidates, c.candidates) {
			t.Errorf("Resolve(%q) = %q, %q; want %q, %q", c.name, slug, candidates, c.slug, c.candidates)
		}
		text := "tell me about " + c.name
		got := ""
		for _, m := range tab.MatchEntities(text) {
			if text[m.Start:m.End] == c.name {
				got = m.Slug
			}
		}
		if got != c.slug {
			t.Errorf("MatchEntities(%q) finds %q, want %q", text, got, c.slug)
		}
	}
	// Where the writer capitalises names, a word of a slug in lower case
	// is a word: "van" is not @Van-Dam.
	tab.Add("Van-Dam")
	for text, want := range map[string]int{"Is Joost happy with the electric van?": 0, "ask Van about it": 1, "what does van dam sell": 1, "tell me about atlas and Kim": 1} {
		if ms := tab.MatchEntities(text); len(ms) != want {
			t.Errorf("MatchEntities(%q) = %v, want %d matches", text, ms, want)
		}
	}
}
