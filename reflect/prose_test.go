package reflect

import (
	"strings"
	"testing"

	"memoria/internal/testworkspace"
)

// TestProseChanges: changes a daily log says only in its narrative mark
// the curated lines they outdate, and prose that changes nothing (a plan,
// a passing exception, another entity's business, what stays as it was)
// marks none.
func TestProseChanges(t *testing.T) {
	tests := []struct {
		name  string
		files [][2]string // the curated files (name, content), the first checked
		log   string      // the narrative of memory/2026-05-10.md
		want  []string    // in the checked file (or review/core-proposals.md for memory.md); none: no mark anywhere
	}{
		{"a field whose label the sentence names",
			[][2]string{{"bank/entities/Flat.md", "# Flat\n\n- Plumber: Dario Fenn, of Fenn & Sons.\n"}},
			"Our plumber is now Ilse Varga from Leak Stop; Dario retired in April.",
			[]string{"- ~~Plumber: Dario Fenn, of Fenn & Sons.~~ (now: Our plumber is now Ilse Varga from Leak Stop; Dario retired in April. — memory/2026-05-10.md#L3, 2026-05-10;"}},
		{"a person by first name, with a cue of the same attribute",
			[][2]string{{"bank/entities/Ottilie-Brandt.md", "# Ottilie Brandt\n\n- Lives in Harrowgate, near the station.\n"}},
			"Ottilie moved to Penrith over the weekend, boxes everywhere.",
			[]string{"~~Lives in Harrowgate, near the station.~~ (now: Ottilie moved to Penrith"}},
		{"a sentence that opens with a pronoun is about whom the one before names",
			[][2]string{{"bank/entities/Ottilie-Brandt.md", "# Ottilie Brandt\n\n- Lives in Harrowgate, near the station.\n"}},
			"Coffee with Ottilie at the market. She has moved to Penrith for the new job.",
			[]string{"~~Lives in Harrowgate, near the station.~~ (now: She has moved to Penrith"}},
		{"values the sentence says are over",
			[][2]string{{"bank/entities/Bram-Oyelaran.md", "# Bram Oyelaran\n\n- Coaches the under-12s at Westfield Rovers.\n"}},
			"Bram rang: he starts at Carlton Albion next month, so he has finished at Westfield Rovers.",
			[]string{"~~Coaches the under-12s at Westfield Rovers.~~ (now: Bram rang"}},
		{"the words of a statement without entities",
			[][2]string{{"bank/world.md", "# World\n\n- Recycling goes out every second Tuesday.\n"}},
			"From next week recycling goes out every second Thursday instead.",
			[]string{"- ~~Recycling goes out every second Tuesday.~~ (now: From next week recycling goes out every second Thursday instead."}},
		{"an amount of money in core memory",
			[][2]string{{"memory.md", "# Core\n\n- Gym membership: €45 a month.\n"}},
			"The gym membership went up to €52 a month from 1 March.",
			[]string{`Stale: memory.md#L3 says "Gym membership: €45 a month."`}},
		{"one sentence changes one thing",
			[][2]string{{"memory.md", "# Core\n\n- Dogs: Pip and Rolo, both terriers.\n- Vet for the dogs: Dr Anand at Millbank Vets.\n"}},
			"We've moved the dogs to Riverside Vets in Kelso.",
			[]string{`memory.md#L4 says "Vet for the dogs`, "!memory.md#L3"}},
		{"a change of another entity's", // the feed shop's page is not the farm's
			[][2]string{{"bank/entities/Harbour-Feeds.md", "# Harbour Feeds\n\n- Feed shop on Quay Road, Arbroath.\n"},
				{"bank/entities/Greyfield-Farm.md", "# Greyfield Farm\n\n- Feed: Harbour Feeds, Quay Road.\n"}},
			"Switched Greyfield Farm's feed account to Millbrook Agri today.",
			[]string{"!~~"}},
		{"the same change, on the page it changes",
			[][2]string{{"bank/entities/Greyfield-Farm.md", "# Greyfield Farm\n\n- Feed: Harbour Feeds, Quay Road.\n"},
				{"bank/entities/Harbour-Feeds.md", "# Harbour Feeds\n\n- Feed shop on Quay Road, Arbroath.\n"}},
			"Switched Greyfield Farm's feed account to Millbrook Agri today.",
			[]string{"- ~~Feed: Harbour Feeds, Quay Road.~~ (now: Switched Greyfield Farm's feed account to Millbrook Agri today."}},
		{"a typed fact that says who holds a role now",
			[][2]string{{"bank/entities/Rowing-Club.md", "# Rowing Club\n\n- Secretary: Imogen Pryce.\n"},
				{"bank/entities/Imogen-Pryce.md", "# Imogen Pryce\n\nMember since 2019.\n"}},
			"## Retain\n- W @Rowing-Club: Tomasz Wiśniewski is the new secretary, voted in at the spring meeting.",
			[]string{"- ~~Secretary: Imogen Pryce.~~ (now: Tomasz Wiśniewski is the new secretary"}},
		{"a value named right before its kind",
			[][2]string{{"bank/entities/Cafe.md", "# Cafe\n\n- Grinder: Mazzer Mini, bought used in 2021.\n"}},
			"The new Eureka Atom grinder arrived on Tuesday and is now on the counter where the Mazzer used to be.",
			[]string{"- ~~Grinder: Mazzer Mini, bought used in 2021.~~ (now: The new Eureka Atom grinder"}},
		{"from one time to another",
			[][2]string{{"bank/world.md", "# World\n\n- Choir practice: Wednesdays at 19:30.\n"}},
			"## Retain\n- W: Choir practice moves from 19:30 to 20:00 after Easter.",
			[]string{"- ~~Choir practice: Wednesdays at 19:30.~~ (now: Choir practice moves from 19:30 to 20:00"}},
		{"a deadline renewed",
			[][2]string{{"bank/entities/Van.md", "# Van\n\n- Roadworthy certificate valid until 30 June 2026.\n"}},
			"## Retain\n- W @Van: Roadworthy certificate renewed at the test centre; now valid until 30 June 2027.",
			[]string{"- ~~Roadworthy certificate valid until 30 June 2026.~~ (now: Roadworthy certificate renewed"}},
		{"a role that ended",
			[][2]string{{"bank/entities/Imogen-Pryce.md", "# Imogen Pryce\n\n- Club secretary since 2019.\n- Lives in Henley.\n"}},
			"Imogen stepped down as secretary at the spring meeting; she'll still coach the novices.",
			[]string{"- ~~Club secretary since 2019.~~ (now: Imogen stepped down as secretary", "- Lives in Henley.\n"}},
		{"a field whose value opens it",
			[][2]string{{"bank/entities/Cafe.md", "# Cafe\n\n- Closed: Monday.\n"}},
			"## Retain\n- W: Closed day moves from Monday to Wednesday, starting 4 May.",
			[]string{"- ~~Closed: Monday.~~ (now: Closed day moves from Monday to Wednesday"}},
		{"someone who took over a role from someone",
			[][2]string{{"bank/world.md", "# World\n\n- Rob Tanner leads the bass section.\n"}},
			"Femi Adeyemi has taken over from Rob as bass section leader, starting Thursday.",
			[]string{"- ~~Rob Tanner leads the bass section.~~ (now: Femi Adeyemi has taken over from Rob"}},
		{"one thing swapped for another",
			[][2]string{{"bank/world.md", "# World\n\n- The house broadband is with Skylark Fibre.\n"}},
			"Yesterday we swapped Skylark Fibre for Nettle Broadband: cheaper, and no contract.",
			[]string{"- ~~The house broadband is with Skylark Fibre.~~ (now: Yesterday we swapped Skylark Fibre for Nettle Broadband"}},
		{"an arrow in a list",
			[][2]string{{"memory.md", "# Core\n\n- The dentist is Dr Okoro at Bridge Street Dental.\n"}},
			"Changes this month:\n\n- dentist: Bridge Street Dental → Lakeside Dental (closer to school)",
			[]string{`Stale: memory.md#L3 says "The dentist is Dr Okoro at Bridge Street Dental."`}},
		{"a field whose value is a plain word the sentence ends",
			[][2]string{{"bank/entities/Tutor.md", "# Tutor\n\n- Paid by: cheque on the first of the month\n"}},
			"No more cheques for the tutor: it's BACS transfer from here on.",
			[]string{"- ~~Paid by: cheque on the first of the month~~ (now: No more cheques for the tutor"}},
		{"who moved is no value that ended", [][2]string{{"bank/entities/Bellcote-Mill.md", "# Bellcote Mill\n\nA stone mill. Their rep is Joanna Marsh.\n"}},
			"Joanna Marsh moved from Ridgeway to Bellcote in April, so she is our rep either way.", nil},
		{"history told in a change", [][2]string{{"bank/world.md", "# World\n\n- The soprano section leader is Ines Pardo.\n"}},
			"Someone asked why Mo always sits in the first row of the sopranos; Mo explained that he used to be the soprano section leader, until Ines took over in 2022.", nil},
		{"two words of the statement in two clauses of the sentence", [][2]string{{"bank/world.md", "# World\n\n- The business account is with Dale Bank, Headrow branch.\n"}},
			"Our business manager is Tom Beck now; Priya Shah moved to the Harrogate branch.", nil},
		{"a head word far from the new value", [][2]string{{"bank/entities/Survey.md", "# Survey\n\n- Site 3: a beck on Ralph Ashby's farm.\n"},
			{"bank/entities/Ralph-Ashby.md", "# Ralph Ashby\n\nFarmer.\n"}},
			"I have switched the model: random effects for site and campaign now, a negative binomial family and REML.", nil},
		{"a day that is no change", [][2]string{{"bank/world.md", "# World\n\n- Release notes go out on Fridays.\n"}},
			"Release notes scope agreed from Monday's draft: media, voice notes and the allowlist.", nil},
		{"a plan", [][2]string{{"bank/world.md", "# World\n\n- Recycling goes out every second Tuesday.\n"}},
			"The council might move recycling to every second Thursday from next month.", nil},
		{"an exception for a while", [][2]string{{"bank/world.md", "# World\n\n- Recycling goes out every second Tuesday.\n"}},
			"Just for the bank holiday week, recycling goes out on Thursday instead.", nil},
		{"what stays as it was", [][2]string{{"bank/entities/Greyfield-Farm.md", "# Greyfield Farm\n\n- Feed: Harbour Feeds, Quay Road.\n"}},
			"We'll keep buying feed from Harbour Feeds, but no longer on credit.", nil},
		{"the same value said again", [][2]string{{"memory.md", "# Core\n\n- Gym membership: €45 a month.\n"}},
			"Gym membership is now €45 a month for everyone, after the autumn offer ended.", nil},
		{"another kind of value", [][2]string{{"memory.md", "# Core\n\n- Prices: sourdough £4.20, rye £4.80.\n"}},
			"A letter from the mill: new prices from 1 April, up 12% across the board.", nil},
		{"a change that names no value", [][2]string{{"bank/entities/Flat.md", "# Flat\n\n- Plumber: Dario Fenn, of Fenn & Sons.\n"}},
			"We've switched plumbers, finally.", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			first := tt.files[0][0]
			for _, f := range tt.files {
				writeFile(t, dir, f[0], f[1])
			}
			writeFile(t, dir, "memory/2026-05-10.md", "# 2026-05-10\n\n"+tt.log+"\n")
			p := run(t, dir, Options{})
			if tt.want == nil {
				if len(p.Report.Stale) > 0 {
					t.Errorf("marked %+v", p.Report.Stale)
				}
				return
			}
			files := testworkspace.Files(t, dir)
			got := files[first]
			if first == "memory.md" {
				got = files["review/core-proposals.md"]
			}
			for _, w := range tt.want {
				if not, ok := strings.CutPrefix(w, "!"); ok {
					if strings.Contains(got, not) {
						t.Errorf("%s holds %q:\n%s", first, not, got)
					}
				} else if !strings.Contains(got, w) {
					t.Errorf("%s lacks %q:\n%s", first, w, got)
				}
			}
		})
	}
}
