package reflect

import (
	"fmt"
	"strconv"
	"strings"
)

// The confidence update rule (docs/reflect.md). The file is the state:
// every step starts from the confidence written in bank/opinions.md
// (rounded to two decimals), so a person's edit of c is respected.
const (
	// DefaultConfidence is the confidence of a new opinion whose O fact
	// gives none, and the prior of an opinion written without one.
	DefaultConfidence = 0.6
	// DefaultStrength is the weight of evidence whose fact gives no c.
	DefaultStrength = 0.6
	// Ceiling is what support approaches and never reaches.
	Ceiling = 0.99
	// Floor is the lowest confidence contradiction leaves.
	Floor = 0.01
	// SupportRate is the share of the remaining distance to Ceiling that
	// support of strength 1 closes.
	SupportRate = 0.15
	// YoungRate is SupportRate for a young opinion, one citing fewer than
	// YoungEvidence pieces of evidence: while little is known, each
	// consistent fact says more (three consistent facts at c=0.7–0.8 take
	// a new opinion past 0.8, where the steady rate left it at 0.76).
	YoungRate     = 0.3
	YoungEvidence = 3
	// ContradictStep is what one contradiction of strength 1 takes away;
	// the k-th strong contradiction in a row takes k times as much.
	ContradictStep = 0.08
	// StrongAt is the strength from which a contradiction is strong (a
	// change marker such as "no longer" makes it strong at any strength).
	StrongAt = 0.8
	// FlipBelow and FlipAfter: an opinion flips when a strong
	// contradiction leaves it below FlipBelow after at least FlipAfter
	// strong contradictions in a row.
	FlipBelow = 0.5
	FlipAfter = 2
	// DoubtBelow: an O fact that states an opinion's own view at a
	// confidence below it counts against the opinion, with strength 1 − c
	// (Step.Doubted).
	DoubtBelow = 0.5
)

// Step is one piece of evidence as the rule sees it.
type Step struct {
	Supports bool    // supports (true) or contradicts the opinion
	Strength float64 // the fact's c, or DefaultStrength
	Strong   bool    // a strong contradiction (ignored for support)
	Young    bool    // the opinion cites fewer than YoungEvidence pieces of evidence
	// Doubted: the fact states the opinion itself at a confidence below
	// one half. It counts against it but cannot replace it: its
	// statement is the same.
	Doubted bool
}

// Outcome is what one step did.
type Outcome struct {
	Before, After float64 // confidence, rounded to two decimals
	Streak        int     // strong contradictions in a row, this one included
	Flipped       bool    // the opinion was replaced by the contradicting statement
	NewConfidence float64 // of the new statement, when Flipped
}

// Note is the explanation written next to the evidence:
// "c 0.8->0.83", "strong; c 0.72->0.58", "strong; c 0.52->0.38; flipped, new c=0.62".
func (o Outcome) Note(s Step) string {
	n := fmt.Sprintf("c %s->%s", FormatConfidence(o.Before), FormatConfidence(o.After))
	if !s.Supports && s.Strong {
		n = "strong; " + n
	}
	if o.Flipped {
		n += "; flipped, new c=" + FormatConfidence(o.NewConfidence)
	}
	return n
}

// NoteChange is what a note says of the confidence: the change of one
// step (Note: "c 0.8->0.83"), and a confidence stated outright, of a new
// opinion ("new opinion, c=0.7") or of the statement that replaced it
// ("flipped, new c=0.62").
type NoteChange struct {
	Before, After float64
	HasChange     bool
	New           float64
	HasNew        bool
	Flipped       bool
}

var (
	noteChangeRE = lazyRegexp(`c (\d(?:\.\d+)?)\s*->\s*(\d(?:\.\d+)?)`)
	noteNewRE    = lazyRegexp(`new (?:opinion, )?c=(\d(?:\.\d+)?)`)
)

// ParseNote reads what Note (and reflect's note of a new opinion) wrote.
func ParseNote(note string) NoteChange {
	var c NoteChange
	if m := noteChangeRE().FindStringSubmatch(note); m != nil {
		b, err1 := strconv.ParseFloat(m[1], 64)
		a, err2 := strconv.ParseFloat(m[2], 64)
		c.Before, c.After, c.HasChange = b, a, err1 == nil && err2 == nil
	}
	if m := noteNewRE().FindStringSubmatch(note); m != nil {
		n, err := strconv.ParseFloat(m[1], 64)
		c.New, c.HasNew = n, err == nil
		c.Flipped = strings.Contains(note, "flipped")
	}
	return c
}

// Apply is the update rule. c is the current confidence, streak the number
// of strong contradictions since the last support.
//
//   - support: c += SupportRate × strength × (Ceiling − c), YoungRate for
//     an opinion citing fewer than YoungEvidence pieces of evidence; the
//     streak ends.
//   - contradiction: c −= ContradictStep × strength × k, where k is 1 for
//     a weak contradiction and the streak length for a strong one; never
//     below Floor.
//   - flip: a strong contradiction that leaves c below FlipBelow with a
//     streak of at least FlipAfter replaces the statement by the
//     contradicting one, with confidence 1 − c; not a doubt (the same
//     statement at a low confidence), which has no other statement.
func Apply(c float64, streak int, s Step) Outcome {
	c = round2(c)
	out := Outcome{Before: c}
	st := min(max(s.Strength, 0), 1)
	switch {
	case s.Supports:
		rate := SupportRate
		if s.Young {
			rate = YoungRate
		}
		out.After = round2(c + rate*st*max(Ceiling-c, 0))
		out.Streak = 0
	case s.Strong:
		out.Streak = streak + 1
		out.After = round2(max(c-ContradictStep*st*float64(out.Streak), Floor))
	default:
		out.Streak = streak
		out.After = round2(max(c-ContradictStep*st, Floor))
	}
	if !s.Supports && s.Strong && !s.Doubted && out.Streak >= FlipAfter && out.After < FlipBelow {
		out.Flipped = true
		out.NewConfidence = round2(1 - out.After)
	}
	return out
}

// streakOf counts the strong contradictions after the opinion's last
// support.
func streakOf(o *Opinion) int {
	ev, sup := o.Evidence()
	n := 0
	for i := len(ev) - 1; i >= 0; i-- {
		if sup[i] {
			break
		}
		if ev[i].Strong() {
			n++
		}
	}
	return n
}
