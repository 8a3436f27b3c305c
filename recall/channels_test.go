package recall

import (
	"slices"
	"strings"
	"testing"
	"time"

	"memoria/memory"
	"memoria/query"
)

func day(s string) time.Time {
	d, err := time.Parse("2006-01-02", s)
	if err != nil {
		panic(err)
	}
	return d
}

// people is a small workspace with an entity page, facts that change, and
// opinions of different confidence.
var people = map[string]string{
	"bank/entities/Peter.md": "---\naliases: [Pete]\n---\n# Peter\n\nThe person I work for, a developer in Vienna.\n\n- Early riser.\n",
	"memory/2025-09-15.md": "# 2025-09-15\n\nPete rang from the flat in Neubaugasse about the lease.\n\n## Retain\n" +
		"- W @Peter: Lives in a rented flat at Neubaugasse 12, Vienna.\n" +
		"- W @Peter: Phone number is +43 660 555 0142.\n" +
		"- O(c=0.8) @Peter: Prefers long, detailed replies on Telegram.\n" +
		"- O(c=0.6) @Peter: Likes green tea in the morning.\n",
	"memory/2025-11-03.md": "# 2025-11-03\n\nA quiet day with the new phone.\n\n## Retain\n" +
		"- W @Peter: Since 2025-11-03 his mobile number is +43 676 555 0199.\n" +
		"- W @Peter: Lives at The Castle, Lainzer Straße 88, since the move.\n" +
		"- O(c=0.95) @Peter: Prefers concise replies on WhatsApp.\n",
	"memory/2025-10-20.md": "# 2025-10-20\n\nThe boiler in the office broke again.\n",
}

func TestEntityChannel(t *testing.T) {
	ix := index(t, people)
	tests := []struct {
		name    string
		plan    Plan
		first   string // prefix of the first result's source
		within  []string
		channel string // a channel that ranked the first result
	}{
		{"about lists the page first", Plan{Query: query.Query{Words: []string{"pete"}, Entities: []string{"Peter"}, NameWords: []string{"pete"}, Intent: query.About}},
			"bank/entities/Peter.md#L6", []string{"memory/2025-11-03.md"}, "entity"},
		{"a name alone lists the page too", Plan{Query: query.Query{Entities: []string{"Peter"}, Intent: query.About}},
			"bank/entities/Peter.md#L6", []string{"bank/entities/Peter.md#L8"}, "entity"},
		// The new number never says "phone": it comes in as the successor
		// of the old one, in the update channel (first: "" leaves the
		// order of the two to the fitted ranker).
		{"words rank the entity's facts", Plan{Query: query.Query{Words: []string{"pete", "phone"}, Entities: []string{"Peter"}, NameWords: []string{"pete"}, Now: day("2025-12-01")}},
			"", []string{"memory/2025-11-03.md#L6", "memory/2025-09-15.md#L7"}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.plan.K, tc.plan.Explain = 10, true
			res := run(t, ix, tc.plan)
			if len(res) == 0 || !strings.HasPrefix(res[0].Source, tc.first) {
				t.Fatalf("first %q, want %s: %s", first(res), tc.first, sources(res))
			}
			for _, w := range tc.within {
				if !strings.Contains(sources(res), w) {
					t.Errorf("missing %s: %s", w, sources(res))
				}
			}
			if _, ok := res[0].Explain.Channels[tc.channel]; !ok && tc.channel != "" {
				t.Errorf("explain %+v has no %s rank", res[0].Explain, tc.channel)
			}
		})
	}
}

func first(rs []Result) string {
	if len(rs) == 0 {
		return ""
	}
	return rs[0].Source
}

func TestTemporalChannel(t *testing.T) {
	ix := index(t, map[string]string{
		"memory/2025-10-10.md": "# 2025-10-10\n\nThe tram strike started.\n\nMore about the tram.\n",
		"memory/2025-10-13.md": "# 2025-10-13\n\nThe tram strike went on.\n",
		"memory/2025-10-14.md": "# 2025-10-14\n\nThe tram strike ended.\n\n## Retain\n- W: The tram strike ended on 2025-10-14.\n",
		"memory/2025-10-30.md": "# 2025-10-30\n\nTram tram tram strike strike.\n",
		"memory/2025-09-01.md": "# 2025-09-01\n\nTwo complaints about the noise.\n",
	})
	around := day("2025-10-14")
	win := memory.TimeRange{Start: day("2025-10-11"), End: day("2025-10-17")}
	tests := []struct {
		name  string
		plan  Plan
		first string   // the first result's file
		cover []string // files the first len(cover) results come from, in any order
	}{
		{"around ranks by proximity", Plan{Query: query.Query{Words: []string{"tram", "strike"}, Window: &win, Around: &around}},
			"memory/2025-10-14.md", []string{"memory/2025-10-14.md", "memory/2025-10-14.md", "memory/2025-10-13.md"}},
		{"browse lists the window, one day at a time", Plan{Query: query.Query{Words: []string{"happened"}, Window: &win, Around: &around, Browse: true}},
			"memory/2025-10-14.md", []string{"memory/2025-10-14.md", "memory/2025-10-14.md", "memory/2025-10-13.md"}},
		// Nothing in the window says "complaints": the question asks what
		// happened then in other words, and the window is listed (the
		// window channel; the line outside it that says "complaints" is a
		// candidate too, and the fitted ranker orders them).
		{"browse without an anchor covers every day first", Plan{Query: query.Query{Window: &memory.TimeRange{Start: day("2025-10-01"), End: day("2025-10-31")}, Browse: true}},
			"", []string{"memory/2025-10-30.md", "memory/2025-10-14.md", "memory/2025-10-13.md", "memory/2025-10-10.md", "memory/2025-10-14.md"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.plan.K, tc.plan.Lines = 10, 1
			res := run(t, ix, tc.plan)
			if len(res) < len(tc.cover) {
				t.Fatalf("%d results: %s", len(res), sources(res))
			}
			if tc.first != "" && !strings.HasPrefix(res[0].Source, tc.first+"#") {
				t.Errorf("first %s, want %s", res[0].Source, tc.first)
			}
			var got []string
			for _, r := range res[:len(tc.cover)] {
				got = append(got, r.Cite().Path)
			}
			slices.Sort(got)
			want := slices.Sorted(slices.Values(tc.cover))
			if !slices.Equal(got, want) {
				t.Errorf("first results from %v, want %v: %s", got, want, sources(res))
			}
			for _, r := range res {
				if !tc.plan.Browse {
					break // searching: results outside the window are demoted, not dropped
				}
				if r.Timestamp == "" || !tc.plan.Window.Contains(day(r.Timestamp)) {
					t.Errorf("%s is outside the window", r.Source)
				}
			}
		})
	}
	// Nothing in the window says "complaints": the question asks what
	// happened then in other words, and the window is listed, every day
	// of it, by the window channel; the line outside it that says
	// "complaints" is a candidate too, and the fitted ranker orders them.
	res := run(t, ix, Plan{Query: query.Query{Words: []string{"complaints"}, Window: &win, Around: &around}, K: 10, Lines: 1, Explain: true})
	listed := map[string]bool{}
	for _, r := range res {
		if _, ok := r.Explain.Channels["window"]; ok {
			listed[r.Cite().Path] = true
		}
	}
	if !listed["memory/2025-10-13.md"] || !listed["memory/2025-10-14.md"] {
		t.Errorf("the window's days listed: %v: %s", listed, sources(res))
	}
}

func TestOpinionChannel(t *testing.T) {
	ix := index(t, people)
	res := run(t, ix, Plan{Query: query.Query{Words: []string{"what", "does", "pete", "prefer"}, Entities: []string{"Peter"}, NameWords: []string{"pete"}, Intent: query.Opinion, Now: day("2025-12-01")}, K: 5, Explain: true})
	if len(res) == 0 || res[0].Kind != memory.KindOpinion || !strings.Contains(res[0].Content, "concise") {
		t.Fatalf("first should be the current, confident opinion: %s", sources(res))
	}
	if res[0].Explain.Channels["opinion"] == 0 || res[0].Explain.Features["confidence"] == 0 {
		t.Errorf("explain %+v", res[0].Explain)
	}
	if len(res[0].Supersedes) != 1 || !strings.HasPrefix(res[0].Supersedes[0].Source, "memory/2025-09-15.md") {
		t.Errorf("supersedes %+v", res[0].Supersedes)
	}
	// The tea opinion matches no words but is Peter's: it is listed, after.
	if !strings.Contains(sources(res), "memory/2025-09-15.md#L9") {
		t.Errorf("the entity's other opinions should follow: %s", sources(res))
	}
}

func fact(kind memory.Kind, written string, content string, ents ...string) memory.Item {
	it := memory.Item{Kind: kind, Content: content, Entities: ents, FactID: "f_" + content, Source: memory.Source{Path: "memory/" + written + ".md", Start: 5, End: 5}}
	if written != "" {
		it.Written = day(written)
	} else {
		it.Source.Path = "bank/world.md"
	}
	return it
}

func TestSameAttribute(t *testing.T) {
	W, O, B := memory.KindWorld, memory.KindOpinion, memory.KindExperience
	tests := []struct {
		name string
		a, b memory.Item
		want bool
	}{
		{"residence cue", fact(W, "2025-09-15", "Lives in a rented flat at Neubaugasse 12.", "Peter"), fact(W, "2025-11-03", "Moved to The Castle on Saturday.", "Peter"), true},
		{"phone cue", fact(W, "2025-09-15", "Phone number is +43 660 555 0142.", "Peter"), fact(W, "2025-11-03", "His mobile is now +43 676 555 0199.", "Peter"), true},
		{"head word and one more", fact(O, "2025-09-15", "Prefers long, detailed replies.", "Peter"), fact(O, "2025-11-03", "Prefers concise replies on WhatsApp.", "Peter"), true},
		{"word overlap", fact(W, "2025-09-15", "The weekly sync with Clara is on Thursdays at 16:00.", "Peter"), fact(W, "2025-11-30", "From December the weekly sync with Clara moves to Tuesdays at 16:00.", "Peter"), true},
		{"other entity", fact(W, "2025-09-15", "Lives in Vienna.", "Peter"), fact(W, "2025-11-03", "Lives in Lisbon.", "Clara"), false},
		{"other attribute", fact(W, "2025-09-15", "Lives in Vienna.", "Peter"), fact(W, "2025-11-03", "Owns a beagle called Biscuit.", "Peter"), false},
		{"events never supersede", fact(B, "2025-09-15", "I fixed the crash on the phone build.", "Peter"), fact(B, "2025-11-03", "I fixed the phone pairing.", "Peter"), false},
		{"opinion and world fact", fact(O, "2025-09-15", "Prefers Vienna.", "Peter"), fact(W, "2025-11-03", "Prefers Vienna's trams.", "Peter"), false},
		{"a restatement is one version", fact(W, "2025-11-03", "Mobile number +43 676 555 0199 since 2025-11-03.", "Peter"), fact(W, "", "Since 2025-11-03 his mobile number is +43 676 555 0199 (eSIM).", "Peter"), false},
		{"cue too late in the sentence", fact(W, "2025-09-15", "Biscuit stays with Ingrid while Peter is away, in the flat downstairs.", "Peter"), fact(W, "2025-11-03", "Moved to The Castle.", "Peter"), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := signature(tc.a).sig.SameAttribute(signature(tc.b).sig); got != tc.want {
				t.Errorf("sameAttribute = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestSupersessionOrder(t *testing.T) {
	W := memory.KindWorld
	old := fact(W, "2025-09-15", "Lives in a rented flat at Neubaugasse 12.", "Peter")
	newer := fact(W, "2025-11-03", "Lives at The Castle since the move.", "Peter")
	curated := fact(W, "", "Lives on the top floor of The Castle, Lainzer Straße 88.", "Peter")
	old.RowID, newer.RowID, curated.RowID = 1, 2, 3
	rs := Versions([]memory.Item{old, newer, curated})
	if len(rs[0].SupersededBy) != 2 {
		t.Errorf("the oldest fact should be superseded by both others: %+v", rs[0].SupersededBy)
	}
	if len(rs[1].SupersededBy) != 1 || rs[1].SupersededBy[0].Source != "bank/world.md#L5" {
		t.Errorf("an undated curated fact is the current state: %+v", rs[1].SupersededBy)
	}
	if len(rs[2].SupersededBy) != 0 || len(rs[2].Supersedes) != 2 {
		t.Errorf("curated facts are never superseded: %+v", rs[2])
	}
}

func TestUpdateAwareness(t *testing.T) {
	ix := index(t, people)
	sept := memory.TimeRange{Start: day("2025-09-01"), End: day("2025-09-30")}
	tests := []struct {
		name            string
		plan            Plan
		current, staled string // the version that must rank first, and the other
	}{
		{"now: the current fact first", Plan{Query: query.Query{Words: []string{"where", "does", "pete", "live"}, Now: day("2025-12-01")}},
			"memory/2025-11-03.md#L7", "memory/2025-09-15.md#L6"},
		{"now, explicit entity", Plan{Query: query.Query{Words: []string{"pete", "phone", "number"}, Entities: []string{"Peter"}, NameWords: []string{"pete"}, Now: day("2025-12-01"), Intent: query.Current}},
			"memory/2025-11-03.md#L6", "memory/2025-09-15.md#L7"},
		{"past window: what was true then", Plan{Query: query.Query{Words: []string{"pete", "phone", "number"}, Entities: []string{"Peter"}, NameWords: []string{"pete"}, Now: day("2025-12-01"), Window: &sept}},
			"memory/2025-09-15.md#L7", "memory/2025-11-03.md#L6"},
		{"past window after the change: still the old number in October", Plan{Query: query.Query{Words: []string{"pete", "phone", "number"}, Entities: []string{"Peter"}, NameWords: []string{"pete"}, Now: day("2025-12-01"), Window: &memory.TimeRange{Start: day("2025-10-01"), End: day("2025-10-31")}}},
			"memory/2025-09-15.md#L7", "memory/2025-11-03.md#L6"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.plan.K, tc.plan.Lines, tc.plan.Explain = 10, 1, true
			res := run(t, ix, tc.plan)
			ci, si := index0(res, tc.current), index0(res, tc.staled)
			if ci < 0 || (si >= 0 && si < ci) {
				t.Fatalf("%s (at %d) should rank above %s (at %d): %s", tc.current, ci, tc.staled, si, sources(res))
			}
			if si >= 0 && res[si].Explain.Features["superseded"] == 0 {
				t.Errorf("%s should be demoted: %+v", tc.staled, res[si].Explain)
			}
			r := res[ci]
			if len(r.Supersedes)+len(r.SupersededBy) == 0 {
				t.Errorf("%s carries no link to its other version", r.Source)
			}
		})
	}
}

func index0(rs []Result, src string) int {
	for i, r := range rs {
		if r.Source == src {
			return i
		}
	}
	return -1
}

func TestPackMergesTouchingPassages(t *testing.T) {
	ix := index(t, map[string]string{"memory/2025-11-27.md": chat})
	// Lines 5 and 6 both match; widened to 3 lines each they would
	// overlap. They come back as one result, never as overlapping ones.
	res := run(t, ix, Plan{Query: query.Query{Words: []string{"comet"}}, K: 5, Lines: 3})
	for i := range res {
		for j := range i {
			if res[i].Cite().Touches(res[j].Cite()) && res[i].Kind == memory.KindPassage && res[j].Kind == memory.KindPassage &&
				max(res[i].Cite().End, res[j].Cite().End)-min(res[i].Cite().Start, res[j].Cite().Start)+1 <= 3 {
				t.Errorf("%s and %s touch and fit in 3 lines: not merged", res[i].Source, res[j].Source)
			}
			if res[i].Cite().Overlaps(res[j].Cite()) {
				t.Errorf("%s overlaps %s", res[i].Source, res[j].Source)
			}
		}
	}
	if len(res) == 0 || !strings.Contains(res[0].Content, "Comet last spring") || !strings.Contains(res[0].Content, "Congratulations on Comet") {
		t.Errorf("the two Comet lines should be one result: %+v", res)
	}
}

// TestStartsMidSentence: a passage whose first line continues a sentence
// of the line before is widened backwards first; one that starts a list
// item, a heading or a table row, or follows a finished sentence, is not.
func TestStartsMidSentence(t *testing.T) {
	for _, c := range []struct {
		before, text string
		want         bool
	}{
		{"Result: the paw is fine,", "full movement, no pain on flexing.", true},
		{"the salmon kibble per day", "split into two meals.", true},
		{"He can go back to normal walks.", "Weight: 13.1 kg.", false},
		{"cleared 2025-11-24", "- Weight: 13.2 kg in September", false},
		{"a line without an end", "1. first step", false},
		{"a line without an end", "## Afternoon", false},
		{"a line without an end", "| a | b |", false},
		{"She said \"slowly, but the right direction.\"", "Then we left.", false},
		{"## Morning", "Biscuit's check-up", false},
		{"今天很好。", "明天见", false},
	} {
		if got := startsMidSentence(c.before, c.text); got != c.want {
			t.Errorf("startsMidSentence(%q, %q) = %v, want %v", c.before, c.text, got, c.want)
		}
	}
}

// TestCuratedDatedByItsLog: a curated fact that says what a log's fact
// of the same attribute says is as old as that log, not newer than every
// log: an older log with another value does not replace it, a later one
// does.
func TestCuratedDatedByItsLog(t *testing.T) {
	W := memory.KindWorld
	curated := fact(W, "", "Drives a grey Ford Ranger.", "Callum")
	older := fact(W, "2026-08-02", "Drives a white Toyota Hilux.", "Callum")
	same := fact(W, "2026-09-08", "Drives a grey Ford Ranger, the Hilux traded in.", "Callum")
	later := fact(W, "2026-10-20", "Drives a blue Mazda BT-50.", "Callum")
	for _, tc := range []struct {
		name     string
		items    []memory.Item
		replaced bool // the curated fact is superseded
	}{
		{"an older value", []memory.Item{curated, older, same}, false},
		{"a later value", []memory.Item{curated, older, same, later}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for i := range tc.items {
				tc.items[i].RowID = int64(i + 1)
			}
			rs := Versions(tc.items)
			if got := len(rs[0].SupersededBy) > 0; got != tc.replaced {
				t.Errorf("curated superseded by %v, want superseded: %v", rs[0].SupersededBy, tc.replaced)
			}
		})
	}
}

// TestCuratedReplacedByLaterChange: a curated world fact (no day written)
// is the current state, newer than every log, unless a log written after
// the latest day it names, and after the latest log that says what it
// says, gives another value: another version, a typed world fact with
// none of its values, or prose that says a change in which none of its
// values is current. A curated page written once used to outrank every
// later move, upgrade and release.
func TestCuratedReplacedByLaterChange(t *testing.T) {
	W := memory.KindWorld
	for _, tc := range []struct {
		name          string
		curated, log  memory.Item
		logSupersedes bool
	}{
		{"moved", fact(W, "", "Lives in Rotterdam, near Blijdorp.", "Noor"), fact(W, "2026-02-02", "Noor moved to Utrecht at the end of January.", "Noor"), true},
		{"another version", fact(W, "", "kiln-server runs Debian 12.", "kiln-server"), fact(W, "2026-03-14", "kiln-server runs Debian 13 since the weekend.", "kiln-server"), true},
		{"the same value in other words", fact(W, "", "Lives on the top floor of The Castle, Lainzer Straße 88.", "Peter"),
			fact(W, "2025-10-28", "Registered his new address at Lainzer Straße 88; the Neubaugasse flat is no longer his address.", "Peter"), false},
		{"written before the day the curated fact names", fact(W, "", "Lives in Utrecht since 2026-03-01.", "Noor"), fact(W, "2026-02-02", "Noor moved to Rotterdam.", "Noor"), false},
		{"a typed fact with another value", fact(W, "", "Drives a white Toyota Hilux.", "Callum"), fact(W, "2026-09-08", "Drives a grey Ford Ranger.", "Callum"), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.curated.RowID, tc.log.RowID = 1, 2
			rs := Versions([]memory.Item{tc.curated, tc.log})
			replaced := len(rs[0].SupersededBy) == 1
			if replaced != tc.logSupersedes || (!replaced && len(rs[1].SupersededBy) != 1) {
				t.Errorf("curated superseded by %v, log superseded by %v; want the log to supersede: %v", rs[0].SupersededBy, rs[1].SupersededBy, tc.logSupersedes)
			}
		})
	}
}

// TestEntitylessFactsLink: world facts that name no entity are compared
// by the thing they open with: "the ute is now a Ranger" supersedes "the
// ute is a Hilux", while a fact opening with something else, or with its
// subject far from the start, links to neither.
func TestEntitylessFactsLink(t *testing.T) {
	ix := index(t, map[string]string{
		"bank/world.md":        "# World\n\n- W: the ute is a white 2011 Toyota Hilux double cab.\n- W: the shed roof is a green double skin.\n",
		"memory/2026-09-08.md": "# 2026-09-08\n\n## Retain\n- W: the ute is now a grey 2020 Ford Ranger double cab.\n- W: yesterday after a long day the ute got a wash.\n",
	})
	res := run(t, ix, Plan{Query: query.Query{Words: []string{"ute", "double", "cab"}, Now: day("2026-10-01"), Intent: query.Current}, K: 10, Lines: 1, Explain: true})
	ranger, hilux := index0(res, "memory/2026-09-08.md#L4"), index0(res, "bank/world.md#L3")
	if ranger < 0 || hilux < 0 || hilux < ranger {
		t.Fatalf("the Ranger (at %d) should rank above the Hilux (at %d): %s", ranger, hilux, sources(res))
	}
	if len(res[ranger].Supersedes) != 1 || res[ranger].Supersedes[0].Source != "bank/world.md#L3" {
		t.Errorf("the Ranger supersedes %+v, want the Hilux", res[ranger].Supersedes)
	}
	for _, r := range res {
		if r.Source != "memory/2026-09-08.md#L4" && r.Source != "bank/world.md#L3" && len(r.Supersedes)+len(r.SupersededBy) > 0 {
			t.Errorf("%s is linked: %+v %+v", r.Source, r.Supersedes, r.SupersededBy)
		}
	}
}

// TestVersionOrderWhateverTheWeights: the version that holds at the time
// asked about comes before the versions it is linked to, even under
// weights that favour the other (here, only the lexical score counts:
// the old number says "phone number", the new one only "phone"); a
// question about a reason keeps the weights' order.
func TestVersionOrderWhateverTheWeights(t *testing.T) {
	ix := index(t, people)
	lexicalOnly := &Ranker{Name: "test", Features: featureNames, Weights: make([]float64, len(featureNames))}
	lexicalOnly.Weights[featureIndex["lexical.bm25"]] = 1
	sept := memory.TimeRange{Start: day("2025-09-01"), End: day("2025-09-30")}
	const old, current = "memory/2025-09-15.md#L7", "memory/2025-11-03.md#L6"
	for _, tc := range []struct {
		name   string
		q      query.Query
		first  string
		second string
	}{
		{"now", query.Query{Words: []string{"pete", "phone", "number", "now"}, Entities: []string{"Peter"}, NameWords: []string{"pete"}, Now: day("2025-12-01"), Intent: query.Current}, current, old},
		{"about Pete", query.Query{Words: []string{"pete", "phone", "number"}, Entities: []string{"Peter"}, NameWords: []string{"pete"}, Now: day("2025-12-01"), Intent: query.About}, current, old},
		{"in September", query.Query{Words: []string{"pete", "phone", "number"}, Entities: []string{"Peter"}, NameWords: []string{"pete"}, Now: day("2025-12-01"), Window: &sept}, old, current},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := run(t, ix, Plan{Query: tc.q, Ranker: lexicalOnly, K: 10, Lines: 1})
			fi, si := index0(res, tc.first), index0(res, tc.second)
			if fi < 0 || si >= 0 && si < fi {
				t.Fatalf("%s (at %d) should come before %s (at %d): %s", tc.first, fi, tc.second, si, sources(res))
			}
		})
	}
}
