package recall

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"memoria/memory"
	"memoria/query"
)

// TestBrowseDaysBeforeEventOnly: browsing a window lists the items written
// in it first; items in it only by their event time (a plan written weeks
// before, a month-long event, a curated line) come after all of them, those
// whose event lies within the window before those whose event is wider.
func TestBrowseDaysBeforeEventOnly(t *testing.T) {
	ix := index(t, map[string]string{
		"memory/2025-10-31.md": "# 2025-10-31\n\nHalloween at the castle.\n\nPumpkins carved in the garden.\n\nSoup for everyone.\n",
		"memory/2025-10-13.md": "# 2025-10-13\n\nPlanning day.\n\n## Retain\n" +
			"- W @Andy: The costume party is on 2025-10-31.\n" +
			"- W @warelay: The October release train runs Oct 1–31, 2025.\n",
		"bank/experience.md": "# Experience\n\n- B @Andy: I helped carve pumpkins on 2025-10-31.\n",
	})
	halloween := memory.TimeRange{Start: day("2025-10-31"), End: day("2025-10-31")}
	tests := []struct {
		name   string
		window memory.TimeRange
		want   []string // the results' sources, in order, by prefix
	}{
		{"a day: its own lines first, then the narrow events, then the wide one", halloween, []string{
			"memory/2025-10-31.md#L3", "memory/2025-10-31.md#L5", "memory/2025-10-31.md#L7",
			"", "", // the two one-day events, in either order
			"memory/2025-10-13.md#L7",
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := run(t, ix, Plan{Query: query.Query{Window: &tc.window, Browse: true, Now: day("2025-12-01")}, K: 10, Lines: 1})
			if len(res) != len(tc.want) {
				t.Fatalf("%d results, want %d: %s", len(res), len(tc.want), sources(res))
			}
			var narrow []string
			for i, w := range tc.want {
				if w == "" {
					narrow = append(narrow, res[i].Source)
					continue
				}
				if res[i].Source != w {
					t.Errorf("result %d is %s, want %s: %s", i+1, res[i].Source, w, sources(res))
				}
			}
			if len(narrow) > 0 && !(strings.Contains(strings.Join(narrow, " "), "bank/experience.md") && strings.Contains(strings.Join(narrow, " "), "memory/2025-10-13.md#L6")) {
				t.Errorf("the one-day events should follow the day's lines: %s", sources(res))
			}
		})
	}
}

// TestUpdateBoostsOnlyForNow: the versions of a fact compete (the outdated
// one demoted, the current one lifted, a missing current one brought in)
// only when the question asks about now: it says so, or one of its best
// candidates was replaced. A question that merely finds a fact with a
// history is ranked by its words.
func TestUpdateBoostsOnlyForNow(t *testing.T) {
	log := "# 2025-10-01\n\n"
	for i := range 8 {
		log += fmt.Sprintf("Pruned the auth state volume again, run %d, after the cron job found the auth state volume full.\n\n", i+1)
	}
	ix := index(t, map[string]string{
		"memory/2025-09-15.md": "# 2025-09-15\n\nSetup.\n\n## Retain\n" +
			"- W @warelay: Deployed on Fly.io in region fra with a volume for the auth state.\n",
		"memory/2025-10-24.md": "# 2025-10-24\n\nMigration.\n\n## Retain\n" +
			"- W @warelay: Since 2025-10-24 deployed on Hetzner as a systemd unit.\n",
		"memory/2025-10-01.md": log,
		"memory/2025-10-02.md": "# 2025-10-02\n\nA quiet day.\n\nNothing else.\n\nTea.\n",
		"memory/2025-10-03.md": "# 2025-10-03\n\nAnother quiet day.\n\nCoffee.\n\nRain.\n",
	})
	now := day("2025-12-01")
	tests := []struct {
		name     string
		plan     Plan
		first    string
		boosted  bool // some result carries a "current" or "superseded" boost
		injected bool // the update channel voted: brought a version in, or lifted one the question's attribute names
	}{
		{"a question about now lifts the current version",
			Plan{Query: query.Query{Words: []string{"where", "is", "warelay", "deployed", "now"}, Entities: []string{"warelay"}, NameWords: []string{"warelay"}, Intent: query.Current, Now: now}},
			"memory/2025-10-24.md", true, true},
		// The current version says none of the question's words: it is
		// brought in (the order of the two is the fitted ranker's).
		{"a question about now brings in the current version",
			Plan{Query: query.Query{Words: []string{"which", "fly", "region", "now"}, Intent: query.Current, Now: now}},
			"", true, true},
		{"a question that finds an outdated fact far down is ranked by its words",
			Plan{Query: query.Query{Words: []string{"auth", "state", "volume", "pruned", "cron", "job", "full"}, Now: now}},
			"memory/2025-10-01.md", false, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.plan.K, tc.plan.Explain = 20, true
			res := run(t, ix, tc.plan)
			if len(res) == 0 || !strings.HasPrefix(res[0].Source, tc.first) {
				t.Fatalf("first %s, want %s: %s", first(res), tc.first, sources(res))
			}
			if tc.injected && !strings.Contains(sources(res), "memory/2025-10-24.md") {
				t.Errorf("the current version should be a result: %s", sources(res))
			}
			boosted, injected := false, false
			for _, r := range res {
				_, cur := r.Explain.Features["current"]
				_, sup := r.Explain.Features["superseded"]
				boosted = boosted || cur || sup
				_, upd := r.Explain.Channels["update"]
				injected = injected || upd
			}
			if boosted != tc.boosted || injected != tc.injected {
				t.Errorf("boosted %v injected %v, want %v %v: %s", boosted, injected, tc.boosted, tc.injected, sources(res))
			}
			if !strings.Contains(sources(res), "memory/2025-09-15.md") {
				t.Errorf("the outdated fact should be a result: %s", sources(res))
			}
		})
	}
}

// TestEntityVoteNeedsTopicWords: the entity channel votes only for items
// that say one of the query's content words (or another word for the same
// attribute); an item that matches only stop words ("when", "after") gets
// no vote.
func TestEntityVoteNeedsTopicWords(t *testing.T) {
	tests := []struct {
		topic []string
		text  string
		want  bool
	}{
		{[]string{"who", "looks", "after", "the", "pup", "when", "travels"}, "Wants short answers when on the phone.", false},
		{[]string{"who", "looks", "after", "the", "pup", "when", "travels"}, "Stays with Ingrid when Peter travels.", true},
		{[]string{"where", "was", "hosted", "back"}, "Deployed on Fly.io as app warelay-prod.", true}, // same attribute: hosting
		{[]string{"reply", "length"}, "Prefers concise replies.", true},                               // stem
		{[]string{"deploy"}, "The deployment failed.", true},                                          // prefix
		{[]string{"who", "is"}, "Anything at all.", true},                                             // only stop words: no gate
	}
	for _, tc := range tests {
		if got := newTopicWords(tc.topic).said(tc.text); got != tc.want {
			t.Errorf("%v said %q = %v, want %v", tc.topic, tc.text, got, tc.want)
		}
	}
}

// TestSpeaker: in chat transcripts, a question in the first person about
// the asker lifts the lines the user said; questions about what the
// assistant said, and lines without a speaker, get no lift.
func TestSpeaker(t *testing.T) {
	lines := []struct {
		content string
		want    query.Speaker
	}{
		{"- 04:49 **User**: For my sister's birthday, I got her a yellow dress.", query.UserSpeaker},
		{"- **Assistant**: Congratulations on Comet!", query.AssistantSpeaker},
		{"- 10:20 **User:** the colon inside the bold", query.UserSpeaker},
		{"  * Gift(s): ____ (what did you get her?)", query.AnySpeaker},
		{"- 10:20 **Peter**: a named speaker", query.AnySpeaker},
		{"**Sister's Birthday**", query.AnySpeaker},
		{"- 9:20 User: not a transcript line", query.AnySpeaker},
	}
	for _, tc := range lines {
		if got := lineSpeaker(tc.content); got != tc.want {
			t.Errorf("lineSpeaker(%q) = %v, want %v", tc.content, got, tc.want)
		}
	}

	ix := index(t, map[string]string{"memory/2025-11-27.md": `# 2025-11-27

## Session 1

- 03:10 **User**: What is the capital of Peru?
- 03:10 **Assistant**: Lima.
- 03:11 **User**: And of Chile?
- 03:11 **Assistant**: Santiago.
- 03:12 **User**: Which harness fits a greyhound?
- 03:12 **Assistant**: A martingale collar.
- 03:13 **User**: Thanks, that helps.

## Session 2

- 04:49 **User**: Here is a start: I bought gifts for my sister's birthday and my mom.
- 04:49 **Assistant**: Let's list each gift.
  **Sister's birthday gift**
  * Gift for my sister's birthday: ____ (what did you buy her?)
- 04:50 **User**: For her birthday I got her a yellow dress.
- 04:50 **Assistant**: A yellow dress is a lovely birthday gift for a sister.
`})
	plan := Plan{Query: query.Query{Words: []string{"what", "did", "i", "buy", "for", "my", "sister", "s", "birthday", "gift"}, Now: day("2025-11-30")}, K: 10, Lines: 1, Explain: true}
	res := run(t, ix, plan)
	var user, other []int
	for i, r := range res {
		_, lifted := r.Explain.Features["speaker"]
		switch {
		case lifted && lineSpeaker(r.Content) != query.UserSpeaker:
			t.Errorf("%s lifted but not the user's line", r.Source)
		case !lifted && lineSpeaker(r.Content) == query.UserSpeaker:
			t.Errorf("%s is the user's line and not lifted", r.Source)
		case lifted:
			user = append(user, i)
		default:
			other = append(other, i)
		}
	}
	// The two lines where the user speaks of the gifts have it.
	if !slices.Contains(user, slices.IndexFunc(res, func(r Result) bool { return r.Source == "memory/2025-11-27.md#L15" })) ||
		!slices.Contains(user, slices.IndexFunc(res, func(r Result) bool { return r.Source == "memory/2025-11-27.md#L19" })) {
		t.Fatalf("user lines at %v, others at %v: %s", user, other, sources(res))
	}

	// Asking what the assistant said lifts nothing.
	plan.Words = []string{"what", "gift", "did", "you", "suggest", "for", "my", "sister"}
	if query.AskedSpeaker(plan.Words) != query.AssistantSpeaker {
		t.Fatalf("%v: want the assistant", plan.Words)
	}
	for _, r := range run(t, ix, plan) {
		if _, lifted := r.Explain.Features["speaker"]; lifted {
			t.Errorf("%s lifted for a question about the assistant's words", r.Source)
		}
	}
}

// TestCuratedForAbout: "who is X" lifts curated items (bank/, memory.md),
// which hold the maintained profile, over episodes in the daily logs;
// other questions do not.
func TestCuratedForAbout(t *testing.T) {
	ix := index(t, map[string]string{
		"bank/world.md": "# World\n\n- W: Family: mother Ingrid lives on the ground floor, a sister in Graz.\n",
		"memory/2025-10-13.md": "# 2025-10-13\n\nBusy.\n\n## Retain\n" +
			"- W: The dog stays with Ingrid while Peter is in Lisbon (Oct 13–16, 2025).\n" +
			"- W: Ingrid made soup; Ingrid likes soup.\n",
		"memory/2025-10-14.md": "# 2025-10-14\n\nRain all day.\n\nThe tram was late.\n",
	})
	tests := []struct {
		intent query.Intent
		first  string
	}{
		{query.About, "bank/world.md#L3"},
		{query.Search, "memory/2025-10-13.md"},
	}
	for _, tc := range tests {
		res := run(t, ix, Plan{Query: query.Query{Words: []string{"ingrid"}, Intent: tc.intent, Now: day("2025-12-01")}, K: 5, Explain: true})
		if !strings.Contains(sources(res), tc.first) {
			t.Errorf("%v: no %s: %s", tc.intent, tc.first, sources(res))
		}
		for _, r := range res {
			if _, ok := r.Explain.Features["curated"]; ok != (tc.intent == query.About && strings.HasPrefix(r.Source, "bank/")) {
				t.Errorf("%v: %s boosts %v", tc.intent, r.Source, r.Explain.Features)
			}
		}
	}
}

// TestProseOnPagesReplacedByLaterLogs: a line of an entity's page (prose,
// not a typed fact) yields to a later log line that names the entity and
// says the same attribute changed, for a question about that attribute;
// for a question about another attribute the change is no current version
// of what it asks (it ranked second, lifted as current, until the lift
// asked for the question's topic).
func TestProseOnPagesReplacedByLaterLogs(t *testing.T) {
	files := map[string]string{
		"bank/entities/Marta.md": "# Marta\n\nMarta Kovač is my neighbour from across the hall.\n\n" +
			"- Phone: +43 660 111 2222\n- Lives in Graz, Annenstraße 12.\n- Drives a blue Fiat Panda.\n",
		"memory/2026-02-10.md": "# 2026-02-10\n\nMarta called from her new number, +43 676 999 8888; she lost her phone on the tram.\n",
		"memory/2026-03-05.md": "# 2026-03-05\n\nHelped Marta carry boxes all afternoon. She has moved to Linz (Hauptplatz 3).\n",
		"memory/2026-03-20.md": "# 2026-03-20\n\nMarta sold the Panda and now drives a used Skoda Octavia.\n",
		// An unchanged mention: no change said, nothing replaced.
		"memory/2026-03-25.md": "# 2026-03-25\n\nHad coffee with Marta; she still has her phone case from Graz.\n",
	}
	// Enough other days that the entity's name is a rare word.
	for d := 1; d <= 30; d++ {
		files[fmt.Sprintf("memory/2026-01-%02d.md", d)] = fmt.Sprintf("# 2026-01-%02d\n\nOrdered seeds for the garden, batch %d.\n\nThe plumber fixed the boiler.\n", d, d)
	}
	ix := index(t, files)
	now := day("2026-04-01")
	for _, tc := range []struct {
		terms []string
		first string
		not   string // a change about another attribute that must not lead
	}{
		{[]string{"where", "does", "marta", "live", "now"}, "memory/2026-03-05.md", "memory/2026-03-20.md"},
		{[]string{"where", "does", "marta", "live"}, "memory/2026-03-05.md", "memory/2026-02-10.md"},
		{[]string{"what", "car", "does", "marta", "drive"}, "memory/2026-03-20.md", "memory/2026-03-05.md"},
		{[]string{"marta", "phone", "number"}, "memory/2026-02-10.md", "memory/2026-03-20.md"},
	} {
		t.Run(strings.Join(tc.terms, " "), func(t *testing.T) {
			plan := Plan{Query: query.Query{Words: tc.terms, Entities: []string{"Marta"}, NameWords: []string{"marta"}, Now: now}, K: 5, Explain: true}
			res := run(t, ix, plan)
			// The change is among the first two, the current version of
			// what is asked: the page line it replaces may match the
			// question's words better, and the fitted ranker weighs the two.
			at := slices.IndexFunc(res, func(r Result) bool { return strings.HasPrefix(r.Source, tc.first) })
			if at < 0 || at > 1 {
				t.Fatalf("%s at %d, want among the first two: %s", tc.first, at, sources(res))
			}
			for _, r := range res {
				if _, ok := r.Explain.Features["current"]; ok && strings.HasPrefix(r.Source, tc.not) {
					t.Errorf("another attribute's change is lifted as current: %s", sources(res))
				}
			}
		})
	}
	// The unchanged mention replaces nothing.
	res := run(t, ix, Plan{Query: query.Query{Words: []string{"marta", "phone", "case"}, Entities: []string{"Marta"}, NameWords: []string{"marta"}, Now: now}, K: 10, Explain: true})
	for _, r := range res {
		if strings.HasPrefix(r.Source, "memory/2026-03-25.md") && len(r.Supersedes) > 0 {
			t.Errorf("a mention without a change supersedes %v", r.Supersedes)
		}
	}
}

func TestValuesJoinNumbersWrittenApart(t *testing.T) {
	for _, c := range []struct {
		text string
		want []string
	}{
		{"Phone: +43 660 111 2222", []string{"436601112222"}},
		{"Lives in Graz, Annenstraße 12.", []string{"graz", "annenstraße", "12"}},
		{"Runs Debian 12 since the weekend", []string{"debian", "12"}},
	} {
		got := slices.Sorted(maps.Keys(Values(c.text, nil)))
		if want := slices.Sorted(slices.Values(c.want)); !slices.Equal(got, want) {
			t.Errorf("Values(%q) = %v, want %v", c.text, got, want)
		}
	}
	if ShareValue("Phone: +43 660 111 2222", "her new number, +43 676 999 8888", nil) {
		t.Error("two phone numbers of one country share a value")
	}
}

// TestChangesSaidInProse: a curated line yields to a later log line that
// names no entity but says its value changed, tied by the line's own
// words (change.go), for a question about now; a question about the past
// and a log line that changes another thing leave it first.
func TestChangesSaidInProse(t *testing.T) {
	files := map[string]string{
		"bank/entities/Pip.md": "# Pip\n\nOur terrier.\n\n- Vet: Dr Anand, Millbank Vets.\n- Food: Orijen Small Breed, one scoop a day.\n",
		"memory/2026-02-10.md": "# 2026-02-10\n\nWe've moved the dogs to Riverside Vets in Kelso, closer to the school.\n",
		"memory/2026-02-20.md": "# 2026-02-20\n\nRiverside Vets sent the reminder for the booster.\n",
		// Another thing changed, in words the vet line shares.
		"memory/2026-03-01.md": "# 2026-03-01\n\nThe vets' car park at the school is now pay and display, £2 an hour.\n",
	}
	for d := 1; d <= 30; d++ {
		files[fmt.Sprintf("memory/2026-01-%02d.md", d)] = fmt.Sprintf("# 2026-01-%02d\n\nOrdered seeds for the garden, batch %d.\n\nThe plumber fixed the boiler.\n", d, d)
	}
	ix := index(t, files)
	now := day("2026-04-01")
	res := run(t, ix, Plan{Query: query.Query{Words: []string{"vet", "now"}, Intent: query.Current, Now: now}, K: 5, Explain: true})
	change := slices.IndexFunc(res, func(r Result) bool { return strings.HasPrefix(r.Source, "memory/2026-02-10.md") })
	page := slices.IndexFunc(res, func(r Result) bool { return strings.HasPrefix(r.Source, "bank/entities/Pip.md#L5") })
	if change < 0 || page >= 0 && page < change {
		t.Fatalf("the change at %d, the page's vet line at %d: %s", change, page, sources(res))
	}
	if _, ok := res[change].Explain.Features["current"]; !ok {
		t.Errorf("the change is not the current version: %v", res[change].Explain.Features)
	}
	res = res[change:]
	if !slices.ContainsFunc(res[0].Supersedes, func(l Link) bool { return strings.HasPrefix(l.Source, "bank/entities/Pip.md") }) {
		t.Errorf("the change supersedes %v, want the page's vet line", res[0].Supersedes)
	}
	// Two copies of the line, on the page and in bank/world.md, are
	// replaced together: the change shares as many words with each.
	files["bank/world.md"] = "# World\n\n- Our vet is Dr Anand at Millbank Vets.\n"
	ix2 := index(t, files)
	res = run(t, ix2, Plan{Query: query.Query{Words: []string{"vet", "now"}, Intent: query.Current, Now: now}, K: 5, Explain: true})
	change = slices.IndexFunc(res, func(r Result) bool { return strings.HasPrefix(r.Source, "memory/2026-02-10.md") })
	for i, r := range res {
		if (strings.HasPrefix(r.Source, "bank/world.md") || strings.HasPrefix(r.Source, "bank/entities/Pip.md#L5")) && (change < 0 || i < change) {
			t.Fatalf("with two copies, %s at %d before the change at %d: %s", r.Source, i, change, sources(res))
		}
	}
	// Without a word of now, a change said only in prose does not make
	// the question one about now.
	res = run(t, ix, Plan{Query: query.Query{Words: []string{"vet"}, Now: now}, K: 5, Explain: true})
	for _, r := range res {
		if r.Explain != nil && r.Explain.Features["superseded"] != 0 {
			t.Errorf("%s demoted for a question without now: %s", r.Source, sources(res))
		}
	}
}
