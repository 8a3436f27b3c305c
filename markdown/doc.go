// Package markdown parses Memoria's workspace Markdown files into typed
// facts, passages and entity pages (package memory), each citing the exact
// lines it came from.
//
// The parser is a hand-written, line-based scanner: it needs no Markdown
// library, does no I/O and never panics. Parse fails only for binary content
// (NUL bytes in the first 8 KiB: IsBinary, ErrBinary); every other problem becomes a
// memory.Warning on the Document (at most MaxWarnings of them, then one
// that counts the rest) and the parser carries on.
//
// # Lines
//
// Lines end at '\n', "\r\n" or a lone '\r'; trailing white space is
// removed, and a missing final newline is accepted. A NUL byte is read as
// U+FFFD, with a warning. A leading
// UTF-8 byte order mark is dropped. Invalid UTF-8 is replaced by U+FFFD,
// with one warning for the file. Line numbers are 1-based.
//
// # Blocks
//
// A leading front matter block ("---", YAML-ish lines, "---" or "...") is
// read for name, title and aliases, the latter written as a flow list
// (aliases: [Pete, "P. Steinberger"]), a block list ("aliases:" followed
// by indented "- Pete" lines) or a single scalar. A block that is never closed, or
// holds a line that is not "key: value", a comment, an indented or a "- "
// line, is ordinary Markdown instead.
//
// ATX headings ("#" to "######", up to three spaces of indentation) set the
// section of the passages below them. Setext headings are not recognised.
// A level-2 heading whose text starts with "retain", in any case ("##
// Retain", "## retain", "## Retain (edited)"), opens a Retain section that
// lasts until the next heading of level 1 or 2.
//
// Fenced code blocks (``` or ~~~, closed by a like fence at least as long,
// or else by the end of the file) are opaque: no headings, facts or
// @mentions are read inside them, but their lines (the fences excluded)
// are passages, so that commands and error messages can be found.
//
// Thematic breaks ("---", "***", "___") and blank lines separate blocks
// and are never part of a passage or fact.
//
// # Typed facts
//
// A typed fact is an unindented bullet ("- ", "* " or "+ ") whose text
// starts with a kind letter, W (world), B (experience), O (opinion) or S
// (observation), optionally followed by a confidence "(c=0.95)" (spaces
// allowed: "( c = 0.9 )"), then a space, a tab or ':':
//
//   - W @Peter: Currently in Marrakech (Nov 27–Dec 1, 2025) for Andy's birthday.
//   - O(c=0.95) @Peter: Prefers concise replies.
//   - W: plain fact
//
// A run of @mentions at the start of the text followed by ':' is removed
// from the fact's text and names its entities; @mentions elsewhere stay in
// the text as written and are entities too, deduplicated (ignoring case) in
// order of first mention. The lines that follow the bullet indented by two
// or more columns, up to a blank line, a list item or a code fence, continue
// it: the text is the bullet's text and the trimmed continuation lines
// joined by "\n", and the fact cites the bullet through its last
// continuation line. Indented sub-items (the evidence of bank/opinions.md)
// end the fact and become passages. A confidence that is not a number from
// 0 to 1 is dropped with a warning; the fact is kept. A letter followed by
// no text at all is not a fact (warning).
//
// Typed facts are recognised inside Retain sections of every file, and
// anywhere in memory.md, bank/*.md, bank/opinions.md and entity pages.
// In daily logs and other files they count only inside Retain sections,
// where a list item that is not a typed fact is a passage, with a warning.
// In bank/world.md and bank/experience.md an unindented bullet without a
// kind letter is a world or experience fact respectively.
//
// # Mentions
//
// An @mention is an '@' at the start of a line or after a character that
// cannot be part of a slug (so a@b.com is not one) and outside inline code,
// followed by slug characters (memory.IsSlugRune), with trailing '.', '-'
// and '_' removed. A '/' or '\' in the run is kept, so that "@../../etc" is
// seen whole: a slug that memory.ValidateSlug rejects is not an entity and
// yields a warning naming its line; it is never followed.
//
// # Passages
//
// Everything else that is not blank is indexed as passages, in units: a
// list item with its indented lines (nested items and blank lines followed
// by more indented lines included), a paragraph (consecutive non-blank
// lines starting no other block), the content of a fenced code block, or a
// table (consecutive lines starting with '|'). A unit longer than
// Options.MaxPassageLines (default 3) is cut into consecutive windows of at
// most that many lines; no window starts or ends with a blank line. A
// passage's Text is exactly its cited lines joined by "\n", trailing white
// space removed from each. No two passages share a line, and no passage
// shares a line with a fact.
//
// Text that is not evidence is not indexed (generated.go): the block
// `memoria reflect` manages in an entity page (from a line starting
// "<!-- memoria:begin" to one starting "<!-- memoria:end"; a block with no
// end is indexed), the bookkeeping sub-items reflect keeps under a typed
// fact ("- supports: …", "- contradicts: …", "- last_updated: …",
// "- superseded: …"), and the template lines `memoria init` writes.
//
// Every fact and passage carries the daily log's date as Written (zero
// elsewhere). Passages carry the text of the nearest heading above as
// Section and their @mentions as Entities.
//
// # OpenClaw's files
//
// A daily note with a slug, memory/YYYY-MM-DD-<slug>.md (OpenClaw's
// session-memory hook and its memory flush write them), is a daily log of
// its day like memory/YYYY-MM-DD.md; a name whose date is not a day of
// the calendar is an other file, undated (memory.ClassifyPath).
//
// USER.md (OpenClaw's user model), DREAMS.md or dreams.md and
// memory/dreaming/ (its dreaming sweep's summaries), and memory/imports/
// (memory imported from Codex, Claude Code or Hermes) are read as text
// only (memory.FileKind.TextOnly): every line is a passage, headings and
// front matter included; no line is a typed fact, no heading opens a
// Retain section or sets a Section, and Memoria's managed-block markers
// hide nothing. Their text was written by another program, and none of
// it can become a fact or a heading. @mentions still name entities.
//
// In USER.md, a line that is nothing but a mark, "<!-- observed:
// 2026-07-27 | status: active -->" (keys observed and status, any case,
// separated by "|"), is metadata: not a passage, it gives the lines below
// it, up to the next mark, heading or thematic break, the observed day
// as their Event and the status (active or superseded) as their Status
// (usermodel.go). A day that is not YYYY-MM-DD or a status of another
// name is dropped with a warning; any other comment is text.
//
// # Entity pages
//
// For bank/entities/<Slug>.md, Document.Entity holds the slug (the file
// name without .md), a name (front matter name, else title, else the first
// "# " heading, else memory.EntityName of the slug) and the front matter
// aliases. Every fact and passage of the page lists the slug among its
// entities. A file name that is not a safe slug yields no EntityPage and a
// warning.
package markdown
