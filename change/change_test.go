package change

import (
	"testing"

	"memoria/memory"
)

// TestChangeSaying: of the clauses that hold, those that say the change.
func TestChangeSaying(t *testing.T) {
	c := Read("He talks to me from a riad roof now, and the long answers live in files.", nil)
	if c == nil {
		t.Fatal("no change read")
	}
	if want := "He talks to me from a riad roof now"; c.Saying() != want {
		t.Errorf("Saying = %q, want %q", c.Saying(), want)
	}
}

// TestVersionsDiffer: two facts name different versions of one thing: a
// number after the same word, with a letter after it too ("Unit 4B" and
// "Unit 4C").
func TestVersionsDiffer(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"Runs Debian 12 on the NAS.", "The NAS runs Debian 13 now.", true},
		{"The garage is Unit 4B, Sheepscar Trade Park.", "The garage moved next door to Unit 4C, Sheepscar Trade Park.", true},
		{"The garage is Unit 4B, Sheepscar Trade Park.", "Unit 4B has a new roller door.", false},
		{"Lives in flat 3a.", "Lives in flat 3A since May.", false},
	} {
		a := NewSig(memory.Item{Kind: memory.KindWorld, Content: c.a, Entities: []string{"x"}})
		b := NewSig(memory.Item{Kind: memory.KindWorld, Content: c.b, Entities: []string{"x"}})
		if got := b.VersionsDiffer(a); got != c.want {
			t.Errorf("VersionsDiffer(%q, %q) = %v, want %v", c.b, c.a, got, c.want)
		}
	}
}

// TestLabelled: a field, or a role said to be a name or a number, names
// an attribute (its label) and its value; a predicate in lower case, a
// name or a pronoun as the subject do not.
func TestLabelled(t *testing.T) {
	for _, c := range []struct {
		text, label, value string
	}{
		{"Vet: Dr Anand, Millbank Vets.", "Vet", "Dr Anand, Millbank Vets."},
		{"Our harbourmaster is Aoife Brennan.", "harbourmaster", "Aoife Brennan."},
		{"Main fuel supplier is Corrib Oil (account 7731).", "Main fuel supplier", "Corrib Oil (account 7731)."},
		{"Practice nights are Thursdays.", "Practice nights", "Thursdays."},
		{"The slipway fee is 40 euro a launch.", "slipway fee", "40 euro a launch."},
		{"Chandlery orders are placed with Murphy Marine.", "", ""},
		{"Aoife Brennan is our harbourmaster.", "", ""},
		{"It is Tuesday again.", "", ""},
		{"The van is a white Transit.", "", ""},
		{"The boat is The Gannet.", "", ""},
	} {
		label, value, ok := Labelled(c.text)
		if label != c.label || value != c.value || ok != (c.label != "") {
			t.Errorf("Labelled(%q) = %q, %q, %v; want %q, %q", c.text, label, value, ok, c.label, c.value)
		}
	}
}

// TestOutdatedByAnArrow: "old → new" ends the old value, however the old
// value is spelled (a name ending in s, "& Co"), and an aside that names
// it again does not make it current.
//
// A field whose label the sentence says ties to it by the value it ends.
func TestOutdatedByAnArrow(t *testing.T) {
	for _, c := range []struct {
		statement, sentence string
		want                bool
	}{
		{"Our farrier is Dobbs & Sons of Ruthin.", "farrier: Dobbs & Sons → Wyn Pritchard (Dobbs wanted £90 a horse)", true},
		{"Our farrier is Dobbs & Sons of Ruthin.", "farrier: Wyn Pritchard → Dobbs & Sons (Wyn's van broke down)", false},
		{"Feed merchant: Harris Agri, Corwen.", "feed merchant: Harris Agri → Lloyds Feeds (Harris doubled the delivery charge)", true},
		// A field's label in the new value's name ties a change that names
		// the old value as over.
		// One value of two ended, the other kept; a reason after
		// "because" is no part of the change.
		{"Clinic time: 08:30 to 12:00", "Start time: 08:30 → 09:00, because the nurse keeps arriving late; we still close at 12:00.", true},
		{"Clinic time: 08:30–12:00", "Start time: 08:30 → 09:00 from May.", true},
		{"Clinic time: 08:30 to 12:00", "Closing time: 12:00 → 12:00, nothing else moves.", false},
		{"Towing firm: Kirk Towing, 24-hour, out of Lockerbie.", "Moffat Towing have taken over from Kirk for our breakdowns.", true},
		{"Towing firm: Kirk Towing, 24-hour, out of Lockerbie.", "Moffat Haulage have taken over from Kirk for the school run.", false},
	} {
		ch := Read(c.sentence, nil)
		if ch == nil {
			t.Fatalf("%q reads as no change", c.sentence)
		}
		st := NewStatement(c.statement, nil)
		tie, head, value := st.Tie(ch, nil, nil)
		if got := tie != Untied && st.Outdated(ch, head, value, nil); got != c.want {
			t.Errorf("%q outdated by %q = %v (tie %v), want %v", c.statement, c.sentence, got, tie, c.want)
		}
	}
}
