package reflect

import (
	"strings"
	"testing"

	"memoria/internal/testworkspace"
)

// TestStaleLines: a curated statement a later log fact contradicts (another
// value of the same attribute, another version) is marked where it stands,
// struck through with the current value and its citation; statements no
// later fact contradicts, history, preferences and statements about
// someone else are kept byte for byte; memory.md is never rewritten, its
// stale statement becomes a proposal; a second run changes nothing; a
// marked line a person edited is left as the person wrote it.
func TestStaleLines(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "memory.md", "# Core\n\n- Mara lives in Porto, near the river.\n")
	writeFile(t, dir, "bank/entities/Mara.md", "# Mara\n\n"+
		"- Lives in Porto, in a flat above a bakery.\n"+
		"- Plays the cello in an amateur orchestra.\n"+
		"- Before that: a room in Braga.\n"+
		"- Likes quiet cafés with big tables.\n"+
		"- Sister Inês lives in Lisbon.\n"+
		"- Her laptop runs Fedora 39.\n")
	writeFile(t, dir, "bank/world.md", "# World\n\n- W @Mara: Mara's laptop runs Fedora 39.\n- W @Mara: Mara plays the cello.\n")
	writeFile(t, dir, "memory/2026-01-10.md", "# 2026-01-10\n\n## Retain\n- W @Mara: Mara plays the cello on Thursdays now.\n")
	writeFile(t, dir, "memory/2026-02-03.md", "# 2026-02-03\n\n## Retain\n- W @Mara: Mara moved to Coimbra last week; the Porto flat is handed back.\n")
	writeFile(t, dir, "memory/2026-02-20.md", "# 2026-02-20\n\n## Retain\n- W @Mara: Mara upgraded her laptop to Fedora 41.\n")
	p := run(t, dir, Options{})
	files := testworkspace.Files(t, dir)
	page := files["bank/entities/Mara.md"]
	for _, want := range []string{
		"- ~~Lives in Porto, in a flat above a bakery.~~ (now: Mara moved to Coimbra last week; the Porto flat is handed back. — memory/2026-02-03.md#L4, 2026-02-03; " + StaleTag + ")",
		"~~Her laptop runs Fedora 39.~~ (now: Mara upgraded her laptop to Fedora 41.",
		"- Plays the cello in an amateur orchestra.\n",
		"- Before that: a room in Braga.\n",
		"- Likes quiet cafés with big tables.\n",
		"- Sister Inês lives in Lisbon.\n",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("Mara.md lacks %q:\n%s", want, page)
		}
	}
	world := files["bank/world.md"]
	if !strings.Contains(world, "- ~~W @Mara: Mara's laptop runs Fedora 39.~~ (now: Mara upgraded her laptop to Fedora 41.") || !strings.Contains(world, "- W @Mara: Mara plays the cello.\n") {
		t.Errorf("bank/world.md:\n%s", world)
	}
	if files["memory.md"] != "# Core\n\n- Mara lives in Porto, near the river.\n" {
		t.Errorf("memory.md was rewritten:\n%s", files["memory.md"])
	}
	if prop := files["review/core-proposals.md"]; !strings.Contains(prop, `- [ ] Stale: memory.md#L3 says "Mara lives in Porto, near the river."; since 2026-02-03, memory/2026-02-03.md#L4 says: Mara moved to Coimbra`) {
		t.Errorf("no proposal for the stale core line:\n%s", prop)
	}
	if len(p.Report.Stale) != 4 {
		t.Errorf("%d stale marks, want 4: %+v", len(p.Report.Stale), p.Report.Stale)
	}
	if again := run(t, dir, Options{}); len(again.Changes) != 0 {
		t.Errorf("second run changes %v", again.Report.Changed)
	}
	// A person un-strikes a marked line, keeping the note: left alone.
	edited := strings.Replace(page, "- ~~Lives in Porto, in a flat above a bakery.~~", "- Lives in Porto, in a flat above a bakery.", 1)
	writeFile(t, dir, "bank/entities/Mara.md", edited)
	run(t, dir, Options{})
	if got := testworkspace.Files(t, dir)["bank/entities/Mara.md"]; got != edited {
		t.Errorf("a hand-edited marked line was changed:\n%s", got)
	}
}

// TestStaleLinesOfTheExample: the example workspace's curated pages are
// up to date, and reflect marks none of their lines (the guard against
// marking a line that says the current value in other words: "Lives at
// Lainzer Straße 88" against "Registered his new address at Lainzer Straße
// 88 … the Neubaugasse flat is no longer his address").
func TestStaleLinesOfTheExample(t *testing.T) {
	dir := testworkspace.CopyExample(t)
	p := run(t, dir, Options{})
	if len(p.Report.Stale) != 0 {
		for _, m := range p.Report.Stale {
			t.Errorf("marked %s#L%d %q (by %s: %q)", m.Path, m.Line, m.Old, m.By, m.Current)
		}
	}
}

// TestStaleLineClasses: kinds of curated statement a later fact outdates
// though they share few words with it, and kinds no fact outdates.
func TestStaleLineClasses(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string // besides the log below
		log   string            // a fact of memory/2026-05-10.md
		want  string            // in the file named first (want == "": unchanged), or in review/core-proposals.md for memory.md
	}{
		{"a count in words opens it",
			map[string]string{"bank/entities/Ridge.md": "# Ridge\n\n- Two frost fans, serviced each August by Frostguard Otago.\n"},
			"W @Ridge: frost fans now serviced by Alpine Fan Services.",
			"~~Two frost fans, serviced each August by Frostguard Otago.~~ (now: frost fans now serviced by Alpine Fan Services."},
		{"where someone works",
			map[string]string{"bank/world.md": "# World\n\n- W @Mere: works after school at the Four Square, Tuesdays.\n"},
			"W @Mere: works at Crumb & Co bakery on Ngaio St, Saturday mornings.",
			"~~W @Mere: works after school at the Four Square, Tuesdays.~~ (now: works at Crumb & Co bakery"},
		{"another amount of the same thing",
			map[string]string{"bank/entities/Tui.md": "# Tui\n\n- Arthritis in both hips: Metacam, 1.5 mL with dinner.\n"},
			"W @Tui: Metacam dose is 1 mL with dinner (Dr Tipene).",
			"~~Arthritis in both hips: Metacam, 1.5 mL with dinner.~~ (now: Metacam dose is 1 mL with dinner"},
		{"an entity named by the heading",
			map[string]string{"memory.md": "# Core\n\n## Ridge House (B&B)\n- Room rate is $240 a night, breakfast included.\n",
				"bank/entities/Ridge-House.md": "# Ridge House\n\nThe B&B.\n"},
			"W @Ridge-House: room rate is $285 a night including breakfast.",
			`Stale: memory.md#L4 says "Room rate is $240 a night, breakfast included."`},
		{"a rule for the agent",
			map[string]string{"memory.md": "# Core\n\n- Never write Ralph Ashby's phone number or the gate code into these notes.\n",
				"bank/entities/Ralph-Ashby.md": "---\naliases: [Ralph]\n---\n# Ralph Ashby\n\nFarmer.\n"},
			"W @Ralph-Ashby: Farms Hollin Farm; wants a phone call on the morning of every visit.",
			""},
		{"a fact that names no entity, by the word it opens with",
			map[string]string{"bank/world.md": "# World\n\n- W: the ute is a white 2011 Toyota Hilux double cab (Callum's, but everyone drives it).\n",
				"bank/entities/Callum.md": "# Callum\n\nWinemaker.\n"},
			"W: the ute is now a grey 2020 Ford Ranger double cab.",
			"- ~~W: the ute is a white 2011 Toyota Hilux double cab (Callum's, but everyone drives it).~~ (now: the ute is now a grey 2020 Ford Ranger"},
		{"a name that is no entity's",
			map[string]string{"memory.md": "# Core\n\n- Priscilla Wong does the books and comes in on Wednesdays.\n"},
			"W: Priscilla Wong comes in on Mondays from 2026-05-17.",
			`Stale: memory.md#L3 says "Priscilla Wong does the books and comes in on Wednesdays."`},
		{"the same value from a day on",
			map[string]string{"bank/world.md": "# World\n\n- W: Priscilla Wong is the bookkeeper; she comes in on Mondays.\n"},
			"W: Priscilla Wong comes in on Mondays from 2026-05-17.",
			""},
		{"another amount, with a qualifier the two share",
			map[string]string{"bank/entities/Shop.md": "# Shop\n\n- Mooring fee: €640 a year incl. VAT, paid each January.\n"},
			"W @Shop: the mooring fee is €705 a year incl. VAT from 2027.",
			"- ~~Mooring fee: €640 a year incl. VAT, paid each January.~~ (now: the mooring fee is €705 a year incl. VAT from 2027."},
		{"a role said to be a name",
			map[string]string{"memory.md": "# Core\n\n- Our harbourmaster is Aoife Brennan (pier office).\n"},
			"Aoife handed over on Friday; Dara Quinn is our new harbourmaster, starting next week.",
			`Stale: memory.md#L3 says "Our harbourmaster is Aoife Brennan (pier office)."`},
		{"someone started in a role",
			map[string]string{"bank/world.md": "# World\n\n- The relief lock-keeper is Tomasz Wrona (weekends from Easter).\n"},
			"W: Bea Okonjo started as the relief lock-keeper on 2026-05-09.",
			"- ~~The relief lock-keeper is Tomasz Wrona (weekends from Easter).~~ (now: Bea Okonjo started as the relief lock-keeper"},
		{"a role the statement names no one for",
			map[string]string{"bank/world.md": "# World\n\n- Crew: Ines, Marek and a relief lock-keeper.\n"},
			"W: Bea Okonjo started as the relief lock-keeper on 2026-05-09.",
			""},
		{"a label whose head noun names the kind of its value",
			map[string]string{"bank/entities/Shop.md": "# Shop\n\n- Collection day: Thursday\n"},
			"Bin collection is on Mondays from now on, the council says.",
			"- ~~Collection day: Thursday~~ (now: Bin collection is on Mondays from now on"},
		{"the other word of such a label, with no value of its kind",
			map[string]string{"bank/entities/Shop.md": "# Shop\n\n- Collection day: Thursday\n"},
			"The collection lorry is a new electric one from now on.",
			""},
		{"a month in common is no topic",
			map[string]string{"memory.md": "# Core\n\n- Boat: 1998 Westerly Konsort, lift-out due end of March.\n"},
			"Kerr Marine does our engine service from now on (first one due March 2027).",
			""},
		{"a label that is someone's name",
			map[string]string{"bank/world.md": "# World\n\n- Ines: fiddle lessons, Thursdays 5.00, Scout Hut.\n",
				"bank/entities/Ines.md": "# Ines\n\nOur youngest.\n"},
			"Ines can play \"Mairi's Wedding\" on the fiddle now, to the dog's dismay.",
			""},
		{"a field whose value is a handle, not a mention",
			map[string]string{"bank/entities/Shop.md": "# Shop\n\n- UPI ID: shop@okaxis\n"},
			"W @Shop: UPI ID is now shop@oksbi (the business account).",
			"- ~~UPI ID: shop@okaxis~~ (now: UPI ID is now shop@oksbi"},
		{"a field whose value is a name",
			map[string]string{"bank/entities/Tui.md": "# Tui\n\n- Vet: Dr Fiona McLeod, Te Arawhiti Vet Clinic.\n"},
			"W @Tui: vet is now Dr Sam Tipene at Clutha Vets.",
			"- ~~Vet: Dr Fiona McLeod, Te Arawhiti Vet Clinic.~~ (now: vet is now Dr Sam Tipene"},
		{"an entity's name of several words is no value",
			map[string]string{"bank/entities/Loft.md": "# Loft\n\n- Studio: Millyard Pottery, behind the bakery.\n",
				"bank/entities/Millyard-Pottery.md": "# Millyard Pottery\n\nThe pottery.\n"},
			"W @Loft: the studio is in the old stables behind the bakery.",
			""},
		{"another thing that keeps its value",
			map[string]string{"bank/world.md": "# World\n\n- W @Cafe: Iced mocha, large: £4.20.\n"},
			"W @Cafe: Iced tea, large, stays at £3.10.",
			""},
		{"a new value of another kind",
			map[string]string{"bank/world.md": "# World\n\n- W @Cafe: Iced coffee drinks, made with oat milk, ordered mostly through Deliveroo.\n"},
			"W @Cafe: Iced coffee is now £4.50 a glass.",
			""},
		{"a telephone number is no new address",
			map[string]string{"bank/world.md": "# World\n\n- Garage: Unit 4B, Sheepscar Trade Park, Leeds LS7.\n- Garage phone: 0113 496 0235 (the landline).\n"},
			"Got rid of the landline. Customers ring the garage mobile now: 07700 900 350.",
			"- ~~Garage phone: 0113 496 0235 (the landline).~~ (now: Customers ring the garage mobile now"},
		{"a sentence that names no one, after one about someone else",
			map[string]string{"bank/entities/Tui.md": "# Tui\n\n- Mobile: 07700 900 118\n",
				"bank/entities/Dean.md": "# Dean\n\nThe owner.\n"},
			"Dean told the phone company where to put it. Customers ring the garage mobile now: 07700 900 350.",
			""},
		{"a page's value named by the sentence",
			map[string]string{"bank/entities/Shop.md": "# Shop\n\n- Treasurer: Raymond Thibodeau\n",
				"bank/entities/Raymond-Thibodeau.md": "# Raymond Thibodeau\n\nAlto.\n"},
			"Then the election: the new treasurer is Louise Caron, and Raymond is staying on the committee.",
			"- ~~Treasurer: Raymond Thibodeau~~ (now: Then the election: the new treasurer is Louise Caron"},
		{"someone named outside the clause that says the change",
			map[string]string{"bank/entities/Shop.md": "# Shop\n\n- Membership fee: $120 a year\n",
				"bank/entities/Raymond-Thibodeau.md": "# Raymond Thibodeau\n\nAlto.\n"},
			"Raymond had the numbers ready as promised, so it was decided: the fee is going up to $140 a year.",
			"- ~~Membership fee: $120 a year~~ (now: Raymond had the numbers ready"},
		{"someone named outside the clause, and one word in common",
			map[string]string{"bank/entities/Shop.md": "# Shop\n\n- Fee: $180 per lesson\n",
				"bank/entities/Raymond-Thibodeau.md": "# Raymond Thibodeau\n\nAlto.\n"},
			"Raymond had the numbers ready as promised, so it was decided: the fee is going up to $140 a year.",
			""},
		{"a sentence dated by its item",
			map[string]string{"bank/entities/Loft.md": "# Loft\n\n- Kitchen refitted in spring 2026 with a new canopy. The old Falcon range is gone.\n"},
			"W @Loft: The old Falcon range's thermostat failed during service.",
			""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			var first string
			for _, name := range []string{"memory.md", "bank/world.md", "bank/entities/Ridge.md", "bank/entities/Tui.md", "bank/entities/Loft.md", "bank/entities/Shop.md"} {
				if _, ok := tt.files[name]; ok && first == "" {
					first = name
				}
			}
			for name, data := range tt.files {
				writeFile(t, dir, name, data)
			}
			writeFile(t, dir, "memory/2026-05-10.md", "# 2026-05-10\n\n## Retain\n- "+tt.log+"\n")
			p := run(t, dir, Options{})
			files := testworkspace.Files(t, dir)
			got := files[first]
			if first == "memory.md" {
				got = files["review/core-proposals.md"]
			}
			switch {
			case tt.want == "" && len(p.Report.Stale) > 0:
				t.Errorf("marked %+v", p.Report.Stale)
			case tt.want != "" && !strings.Contains(got, tt.want):
				t.Errorf("%s lacks %q:\n%s", first, tt.want, got)
			}
		})
	}
}
