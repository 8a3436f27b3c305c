// Package forget holds what `memoria forget` leaves in a workspace and
// what every reader of the Markdown honours afterwards (docs/forget.md).
//
// Forgetting removes lines from the Markdown, which is the truth: an
// index, a rebuild or a team's shared index derived from it afterwards
// holds them no more. Two things stay:
//
//   - a tombstone where the lines were, unless the caller asks for no
//     trace: one HTML comment line, "<!-- forgotten 2026-12-02: reason -->"
//     (Tombstone), which no index reads;
//   - an entry in the workspace's record of forgotten text, RecordFile
//     ("forgotten.md" at the top of the workspace, beside memory.md, which
//     is not a memory file and is never indexed): the day, where the line
//     was, and a hash of its text (Key), never the text itself.
//
// The record lives in the workspace, not in the derived .memory/ folder,
// so that deleting .memory/ or rebuilding the index loses nothing: every
// index of the workspace reads the record when it reads the Markdown
// (package ingest blanks any line whose hash it lists, and every
// tombstone, before parsing: Mask), and an import leaves out the lines
// it lists (package imports' Filter), so that text brought back from a
// restored backup, an old copy or a second export of the same
// conversation is never recalled again. Deleting an entry lets that text
// be remembered again.
//
// A line's hash is taken of what it says, not of the Markdown around it
// (Content): list markers, a heading's #s, a typed fact's kind letter,
// confidence and leading @mentions, and an imported turn's time and
// speaker are left out, white space is folded and case ignored, so that
// "- W @Peter: Moved to Berlin." and an imported "- 09:14 **User**: moved
// to Berlin." are the same text. Lines too short to be told apart from
// ordinary ones ("## Notes", "- yes", a fence) are removed where they were
// selected but not recorded (Key reports false): recording them would
// blank every other such line of the workspace.
package forget
