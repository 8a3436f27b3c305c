// Package change reads what a sentence states — its subject, attribute
// and value — and whether it says that a value changed ("Now based in
// Berlin; moved from Hamburg last week", "Switched the club's chandlery
// account to Albatross Marine").
//
// Two packages use it. recall links the versions of a fact among a
// question's candidates (a later fact about the same entity and attribute
// supersedes an earlier one: Sig), and takes a log line that says a
// curated statement changed for its successor (Read, Statement). reflect
// strikes the curated lines a later log outdates.
//
// The analysis is offline and deterministic: word lists and patterns,
// no model.
package change
