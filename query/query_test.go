package query

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"memoria/datephrase"
	"memoria/memory"
)

var now = time.Date(2025, 11, 27, 15, 4, 0, 0, time.UTC) // a Thursday

var names = NewNameTable(map[string][]string{
	"Peter":      {"Pete", "Peter Steinberger"},
	"The-Castle": nil,
	"Andy":       {"Andrew"},
	"June":       nil,
	"warelay":    {"WA relay"},
	"Will":       nil,
})

func day(s string) time.Time {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		panic(err)
	}
	return t
}

func parse(t *testing.T, text string) *Query {
	t.Helper()
	q, err := Parse(text, Options{Now: now, Names: names})
	if err != nil {
		t.Fatalf("Parse(%q): %v", text, err)
	}
	return q
}

func TestIntent(t *testing.T) {
	tests := []struct {
		text string
		want Intent
	}{
		{"Baileys WS crash", Search},
		{"what did I do last week", Search},
		{"tell me about Peter", About},
		{"Tell me more about the castle", About},
		{"who is Pete?", About},
		{"who's Andy", About},
		{"Кто такой Пётр?", About},
		{"Wer ist Zoe?", About},
		{"Wer hat den Grill?", Search},
		{"Qui est Andy ?", About},
		{"@Peter", About},
		{"Peter", About},
		{"what does Peter prefer", Opinion},
		{"Can you suggest some accessories for my camera?", Suggest},
		{"Any recommendations for a quiet evening?", Suggest},
		{"can you remind me which hotel you recommended?", Search},
		{"what does Peter think about WhatsApp", Opinion},
		{"does Andy like long replies?", Opinion},
		{"Peter's preferences for replies", Opinion},
		{"how does Pete feel about voice notes", Opinion},
		// Preferences asked from the other side.
		{"what does Pete refuse to do?", Opinion},
		{"what food does Mara avoid", Opinion},
		{"what won't Andy accept for his birthday?", Opinion},
		{"what can't Noor stand in meetings", Opinion},
		{"what's Peter's favourite restaurant", Opinion},
		{"what does Peter think of the decision", Opinion},
		{"what did we decide about the venue", Decision},
		{"what was decided on Nov 3", Decision},
		{"decisions about warelay", Decision},
		{"what did we agree on for the castle", Decision},
		{"what did we decide about Peter's preference", Decision},
		{"where is Peter now", Current},
		{"what is Peter currently working on", Current},
		{"is Andy still in Marrakech", Current},
		{"what is the latest release of warelay", Current},
		// An order in time: its "latest" is the last, not now.
		{"in what order did I visit the three museums, from earliest to latest?", Search},
		{"which flat do I live in now, and which was the earliest?", Current},
		{"what was true during Nov 2025", Past},
		{"where was Peter in October", Past},
		{"where did Peter use to live", Past},
		{"what Peter previously worked on", Past},
		{"what is Marrakech like", Search},
		{"where was the wifi password", Search}, // was, but no window
		{"who was at the castle last week", Past},
		// "Rather than" compares options: a choice, no opinion.
		{"why did we take a spot outside rather than a table indoors?", Search},
		{"would Pete rather take the train?", Opinion},
	}
	for _, tt := range tests {
		if got := parse(t, tt.text).Intent; got != tt.want {
			t.Errorf("Parse(%q).Intent = %v, want %v", tt.text, got, tt.want)
		}
	}
}

func TestTermsAndEntities(t *testing.T) {
	tests := []struct {
		text     string
		terms    []string
		entities []string
		phrases  []string
	}{
		{"What did I tell my sister about the trip?", []string{"sister", "trip"}, nil, nil},
		{"Baileys WS crash Baileys", []string{"baileys", "ws", "crash"}, nil, nil},
		{"@Peter prefers concise replies", []string{"prefers", "concise", "replies"}, []string{"Peter"}, nil},
		{"what does Pete prefer", []string{"pete", "prefer"}, []string{"Peter"}, nil},
		{"@pete and @Andy.", nil, []string{"Peter", "Andy"}, nil},
		{"ask peter@example.com", []string{"ask", "peter", "example", "com"}, []string{"Peter"}, nil},
		{"dinner at the castle with Andrew", []string{"dinner", "castle", "andrew"}, []string{"The-Castle", "Andy"}, nil},
		{"The-Castle wifi", []string{"castle", "wifi"}, []string{"The-Castle"}, nil},
		{"Peter Steinberger and Peter", []string{"peter", "steinberger"}, []string{"Peter"}, nil},
		{"Peter, Steinberger", []string{"peter", "steinberger"}, []string{"Peter"}, nil},
		{"Petersburg trip", []string{"petersburg", "trip"}, nil, nil},
		{"will it rain", []string{"rain"}, nil, nil},
		{"Will said so", nil, []string{"Will"}, nil},
		{"@Unknown-Person met @../../etc", []string{"met", "etc"}, []string{"Unknown-Person"}, nil},
		{`the "WS crash" in warelay`, []string{"warelay"}, []string{"warelay"}, []string{"ws crash"}},
		{`"meeting on Nov 27" notes`, []string{"notes"}, nil, []string{"meeting on nov 27"}},
		{`unbalanced "quote here`, []string{"unbalanced", "quote"}, nil, nil},
		{`“curly quotes” work`, []string{"work"}, nil, []string{"curly quotes"}},
		{`"" empty`, []string{"empty"}, nil, nil},
		{"crash NEAR fix AND (baileys OR ws*) -foo : bar", []string{"crash", "near", "fix", "baileys", "ws", "foo", "bar"}, nil, nil},
		{"Zürich café ÉTÉ", []string{"zürich", "café", "été"}, nil, nil},
		{"", nil, nil, nil},
		{"   \t\n", nil, nil, nil},
		{"!!! *** ---", nil, nil, nil},
		// "rather than" and "instead of" frame a choice; "rather" alone is a word.
		{"why the shop rather than online?", []string{"shop", "online"}, nil, nil},
		{"what did we buy instead of the van", []string{"buy", "van"}, nil, nil},
		{"I'd rather walk", []string{"rather", "walk"}, nil, nil},
		{"why are we not on Airbnb any more?", []string{"airbnb", "more"}, nil, nil},
	}
	for _, tt := range tests {
		q := parse(t, tt.text)
		var phrases []string
		for _, p := range q.Phrases {
			phrases = append(phrases, strings.Join(p, " "))
		}
		if !slices.Equal(q.Terms, tt.terms) || !slices.Equal(q.Entities, tt.entities) || !slices.Equal(phrases, tt.phrases) {
			t.Errorf("Parse(%q):\n got terms %q entities %q phrases %q\nwant terms %q entities %q phrases %q",
				tt.text, q.Terms, q.Entities, phrases, tt.terms, tt.entities, tt.phrases)
		}
	}
}

func TestTime(t *testing.T) {
	tests := []struct {
		text       string
		since      string
		until      string
		terms      []string
		start, end string // "" means no window
		around     string
		notes      int
	}{
		{"what did Peter say about the trip yesterday", "", "", []string{"peter", "trip"}, "2025-11-26", "2025-11-26", "", 0},
		{"crash since last week", "", "", []string{"crash"}, "2025-11-17", "2025-11-27", "", 0},
		{"what happened around Nov 27", "", "", []string{"happened"}, "2025-11-24", "2025-11-30", "2025-11-27", 0},
		{"what was true during Nov 2025", "", "", []string{"true"}, "2025-11-01", "2025-11-30", "", 0},
		{"Marrakech trip Nov 27–Dec 1, 2025", "", "", []string{"marrakech", "trip"}, "2025-11-27", "2025-12-01", "", 0},
		{"deploys in October or November", "", "", []string{"deploys"}, "2025-10-01", "2025-11-30", "", 0},
		{"last year before June 2024", "", "", nil, "2024-01-01", "2024-05-31", "", 0},
		{"crash", "30d", "", []string{"crash"}, "2025-10-28", "9999-12-31", "", 0},
		{"crash", "2025-11-01", "2025-11-10", []string{"crash"}, "2025-11-01", "2025-11-10", "", 0},
		{"crash in October", "2025-10-15", "", []string{"crash"}, "2025-10-15", "2025-10-31", "", 0},
		{"crash last year", "30d", "", []string{"crash"}, "2025-10-28", "9999-12-31", "", 1},
		{"birthday with June", "", "", []string{"birthday", "june"}, "", "", "", 0}, // June is an entity
		{"Mayday may I ask", "", "", []string{"mayday", "ask"}, "", "", "", 0},
		{"2 weeks ago at the castle", "", "", []string{"castle"}, "2025-11-10", "2025-11-16", "2025-11-13", 0},
	}
	for _, tt := range tests {
		q, err := Parse(tt.text, Options{Now: now, Names: names, Since: tt.since, Until: tt.until})
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.text, err)
			continue
		}
		if !slices.Equal(q.Terms, tt.terms) {
			t.Errorf("Parse(%q).Terms = %q, want %q", tt.text, q.Terms, tt.terms)
		}
		switch {
		case tt.start == "" && q.Window != nil:
			t.Errorf("Parse(%q).Window = %v, want none", tt.text, q)
		case tt.start != "" && (q.Window == nil || !q.Window.Start.Equal(day(tt.start)) || !q.Window.End.Equal(day(tt.end))):
			t.Errorf("Parse(%q) = %v, want window %s..%s", tt.text, q, tt.start, tt.end)
		}
		if (tt.around == "") != (q.Around == nil) || (q.Around != nil && !q.Around.Equal(day(tt.around))) {
			t.Errorf("Parse(%q).Around = %v, want %q", tt.text, q.Around, tt.around)
		}
		if len(q.Notes) != tt.notes {
			t.Errorf("Parse(%q).Notes = %q, want %d", tt.text, q.Notes, tt.notes)
		}
	}
}

func TestOptions(t *testing.T) {
	q, err := Parse("x", Options{Now: now, Kinds: []string{"opinion", "W,b", " o "}, Entities: []string{"@pete", "The-Castle"}, Names: names})
	if err != nil {
		t.Fatal(err)
	}
	if want := []memory.Kind{memory.KindOpinion, memory.KindWorld, memory.KindExperience}; !slices.Equal(q.Kinds, want) {
		t.Errorf("Kinds = %v, want %v", q.Kinds, want)
	}
	if want := []string{"Peter", "The-Castle"}; !slices.Equal(q.Entities, want) {
		t.Errorf("Entities = %v, want %v", q.Entities, want)
	}
	for _, tt := range []struct {
		opts Options
		want string
	}{
		{Options{}, "Now is required"},
		{Options{Now: now, Kinds: []string{"fact"}}, `kind: unknown kind "fact"`},
		{Options{Now: now, Since: "the day after never"}, `since: invalid time bound "the day after never"`},
		{Options{Now: now, Until: "soon"}, `until: invalid time bound`},
		{Options{Now: now, Since: "2025-11-10", Until: "2025-11-01"}, "is after until"},
		{Options{Now: now, Entities: []string{"../etc"}}, "entity: unsafe entity slug"},
	} {
		_, err := Parse("x", tt.opts)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Parse with %+v: error %v, want %q", tt.opts, err, tt.want)
		}
	}
}

func TestNameTable(t *testing.T) {
	tab := NewNameTable(map[string][]string{
		"Peter":      {"Peter", "Pete"}, // "Pete" is claimed twice: it names neither
		"Pete-Smith": {"Pete Smith", "Pete"},
		"bad/slug":   {"Bad"},
	})
	for name, want := range map[string]string{"pete": "", "Pete Smith": "Pete-Smith", "pete-smith": "Pete-Smith", "PETER": "Peter", "bad": ""} {
		if got, _ := tab.Lookup(name); got != want {
			t.Errorf("Lookup(%q) = %q, want %q", name, got, want)
		}
	}
	got := tab.MatchEntities("Pete Smith met pete, and Pete-Smith again")
	want := []EntityMatch{{0, 10, "Pete-Smith"}, {25, 35, "Pete-Smith"}}
	if !slices.Equal(got, want) {
		t.Errorf("MatchEntities = %v, want %v", got, want)
	}
	if err := tab.Add("../x"); err == nil {
		t.Error("Add(../x): no error")
	}
	var nilTab *NameTable
	if nilTab.MatchEntities("Peter") != nil || nilTab.Len() != 0 {
		t.Error("nil table matched")
	}
}

// matcherFunc adapts a function to EntityMatcher, to test a matcher other than NameTable.
type matcherFunc func(string) []EntityMatch

func (f matcherFunc) MatchEntities(s string) []EntityMatch { return f(s) }

func TestCustomMatcher(t *testing.T) {
	m := matcherFunc(func(s string) []EntityMatch {
		// Returns junk too: out of range, overlapping a mention.
		out := []EntityMatch{{-1, 3, "Bad"}, {0, len(s) + 5, "Bad"}}
		if i := strings.Index(s, "boss"); i >= 0 {
			out = append(out, EntityMatch{i, i + 4, "Peter"})
		}
		return out
	})
	q, err := Parse("@boss and the boss", Options{Now: now, Names: m})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(q.Entities, []string{"Peter"}) {
		t.Errorf("Entities = %v", q.Entities)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"what does @Peter prefer since last week", `"unclosed`, `“x” "y"`, "@", "@@Peter", "@Peter.",
		"tell me about the castle around Nov 27", "NEAR(a b) AND c OR -d*", "\xff\xfe@\xff",
		"between Oct 3 and Oct 9 before 2024", "Pete Smith, June 2024",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		q, err := Parse(s, Options{Now: now, Names: names})
		if err != nil {
			t.Fatalf("Parse(%q): %v", s, err)
		}
		seen := map[string]bool{}
		for _, term := range q.Terms {
			if term == "" || seen[term] || IsStopWord(term) || strings.ToLower(term) != term {
				t.Fatalf("bad term %q in %q", term, s)
			}
			seen[term] = true
		}
		for _, e := range q.Entities {
			if memory.ValidateSlug(e) != nil {
				t.Fatalf("bad entity %q in %q", e, s)
			}
		}
		if q.Window != nil && q.Window.Start.After(q.Window.End) {
			t.Fatalf("empty window in %q: %v", s, q)
		}
		if q.Around != nil && (q.Window == nil || !q.Window.Contains(*q.Around)) {
			t.Fatalf("around outside window in %q: %v", s, q)
		}
		_ = datephrase.Find(s, now)
	})
}

func BenchmarkParse(b *testing.B) {
	text := `what did we decide about @Peter's "long replies" at the castle since last week?`
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(text, Options{Now: now, Names: names}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestSpanIndex holds spanIndex.overlaps to the plain definition (some
// span starts before s ends and ends after s starts) on random sets.
func TestSpanIndex(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		var ss spans
		for range r.IntN(12) {
			a := r.IntN(60)
			ss = append(ss, span{start: a, end: a + 1 + r.IntN(10)})
		}
		ix := ss.index()
		for range 50 {
			a := r.IntN(70)
			s := span{start: a, end: a + 1 + r.IntN(8)}
			want := false
			for _, x := range ss {
				want = want || (x.start < s.end && s.start < x.end)
			}
			if got := ix.overlaps(s); got != want {
				t.Fatalf("%v overlaps %v: got %v, want %v", ss, s, got, want)
			}
		}
	}
}

// BenchmarkParseLongQuery parses queries of MaxQueryBytes-like length
// made of what once made parsing quadratic: mentions, dates, quotes.
func BenchmarkParseLongQuery(b *testing.B) {
	for _, unit := range []string{"@Peter ", "Nov 27 ", "\"a ", "27.11.2025 "} {
		q := strings.Repeat(unit, (16<<10)/len(unit))
		b.Run(strings.TrimSpace(unit), func(b *testing.B) {
			for b.Loop() {
				if _, err := Parse(q, Options{Now: now}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
