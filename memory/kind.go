package memory

import (
	"fmt"
	"strings"
)

// Kind is what a recalled item is: one of the four typed fact kinds of a
// Retain section, or a raw passage of narrative text.
type Kind string

// The kinds. KindWorld, KindExperience, KindOpinion and KindObservation are the typed facts
// of a Retain section (letters W, B, O, S); KindPassage is untyped narrative text.
const (
	KindWorld       Kind = "world"
	KindExperience  Kind = "experience"
	KindOpinion     Kind = "opinion"
	KindObservation Kind = "observation"
	KindPassage     Kind = "passage"
)

// Kinds lists every kind in a stable order.
var Kinds = []Kind{KindWorld, KindExperience, KindOpinion, KindObservation, KindPassage}

// KindFromLetter maps a Retain prefix letter (W, B, O, S) to its kind.
func KindFromLetter(letter byte) (Kind, bool) {
	switch letter {
	case 'W':
		return KindWorld, true
	case 'B':
		return KindExperience, true
	case 'O':
		return KindOpinion, true
	case 'S':
		return KindObservation, true
	}
	return "", false
}

// Letter is the Retain prefix letter of a fact kind, or "" for a passage.
func (k Kind) Letter() string {
	switch k {
	case KindWorld:
		return "W"
	case KindExperience:
		return "B"
	case KindOpinion:
		return "O"
	case KindObservation:
		return "S"
	}
	return ""
}

// IsFact reports whether k is one of the four typed fact kinds.
func (k Kind) IsFact() bool { return k.Letter() != "" }

// ParseKind reads a kind as a user types it on the command line: the full
// name ("world"), its letter ("W", "b"), or a common synonym ("fact" is not
// one: it is ambiguous).
func ParseKind(s string) (Kind, error) {
	v := strings.ToLower(strings.TrimSpace(s))
	switch v {
	case "world", "w":
		return KindWorld, nil
	case "experience", "b", "biographical":
		return KindExperience, nil
	case "opinion", "o", "belief":
		return KindOpinion, nil
	case "observation", "s", "summary":
		return KindObservation, nil
	case "passage", "p", "text":
		return KindPassage, nil
	}
	return "", fmt.Errorf("unknown kind %q (want world, experience, opinion, observation or passage)", s)
}
