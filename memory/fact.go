package memory

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strings"
	"time"
	"unicode"
)

// Fact is one typed, self-contained statement from a Retain bullet (or a
// bullet in bank/), with the entities it mentions and the lines it came from.
type Fact struct {
	ID            string    // content-addressed, see FactID
	Kind          Kind      // KindWorld, KindExperience, KindOpinion or KindObservation
	Confidence    float64   // meaningful only when HasConfidence
	HasConfidence bool      // O(c=…) was given; absent means unknown, not 1.0
	Entities      []string  // entity slugs in order of first mention, deduplicated
	Text          string    // the statement, continuation lines joined by "\n"
	Source        Source    // the bullet's lines
	Written       time.Time // the day the log was written (UTC midnight); zero outside daily logs
	Event         *TimeRange
}

// Passage is narrative text that is not a typed fact: a list item with its
// indented lines, a paragraph, or a window of a long block. Its Text is
// exactly the lines its Source cites.
type Passage struct {
	Source   Source
	Text     string
	Section  string    // the nearest heading above, for context; not part of Text
	Written  time.Time // the log's day; zero outside daily logs
	Entities []string  // explicit @mentions
	// Event and Status are what the mark of a USER.md entry says of it
	// ("<!-- observed: 2026-07-27 | status: active -->"): the day it was
	// observed, and whether it is active or superseded. Nil and "" elsewhere.
	Event  *TimeRange  `json:",omitempty"`
	Status EntryStatus `json:",omitempty"`
}

// EntryStatus is how OpenClaw's user model (USER.md) marks an entry:
// active, or superseded by the entry that replaced it ("" when unmarked).
type EntryStatus string

// The statuses of a USER.md entry.
const (
	StatusActive     EntryStatus = "active"
	StatusSuperseded EntryStatus = "superseded"
)

// TimeRange is an inclusive range of days, each at UTC midnight.
type TimeRange struct {
	Start time.Time
	End   time.Time
}

// Contains reports whether day t (any time of that day) falls in the range.
func (r TimeRange) Contains(t time.Time) bool {
	d := Day(t)
	return !d.Before(r.Start) && !d.After(r.End)
}

// Overlaps reports whether two day ranges share a day.
func (r TimeRange) Overlaps(o TimeRange) bool {
	return !r.Start.After(o.End) && !o.Start.After(r.End)
}

// Day truncates t to midnight UTC of its calendar day.
func Day(t time.Time) time.Time {
	y, m, d := t.Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// FactID is the content address of a fact: a hash of its kind, its
// normalised text (case and white space folded) and its sorted entities.
// Editing other lines of the file, or moving the bullet, keeps the ID, so
// evidence links survive; two identical bullets are one fact.
func FactID(kind Kind, text string, entities []string) string {
	ents := make([]string, len(entities))
	for i, e := range entities {
		ents[i] = strings.ToLower(e)
	}
	slices.Sort(ents)
	ents = slices.Compact(ents)
	h := sha256.New()
	h.Write([]byte(kind))
	h.Write([]byte{0})
	h.Write([]byte(NormalizeText(text)))
	h.Write([]byte{0})
	h.Write([]byte(strings.Join(ents, ",")))
	return "f_" + hex.EncodeToString(h.Sum(nil)[:6])
}

// NormalizeText folds case and collapses runs of white space, for hashing
// and duplicate detection.
func NormalizeText(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range strings.TrimSpace(s) {
		if unicode.IsSpace(r) {
			space = true
			continue
		}
		if space && b.Len() > 0 {
			b.WriteByte(' ')
		}
		space = false
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}
