// Package retain validates and places typed facts in the Retain sections
// of daily logs (the grammar is in markdown/doc.go). It does no I/O: callers read a log, call
// Append, and write the result through package safewrite.
//
// Validate checks one fact as a person or an agent types it, in the Retain
// grammar of package markdown ("O(c=0.8) @Peter: Prefers tea."), and
// explains a problem in one line. Append adds bullets under a log's
// Retain section, creating the file's content or the section when missing,
// and keeps every other byte exactly: line endings (CRLF files stay CRLF),
// a missing final newline, odd headings ("## retain", "## Retain (edited)")
// that the parser recognises as Retain sections.
//
// Infer proposes facts from the narrative of logs that have none
// (offline heuristics); the review file format (Proposal, RenderReview,
// ParseReview) carries them to a person, who ticks the ones to keep.
package retain
