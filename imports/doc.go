// Package imports reads conversations and memories kept elsewhere, so that
// `memoria import` can bring them into a workspace as Markdown: ChatGPT's
// data export (conversations.json), Claude's data export
// (conversations.json), OpenClaw session transcripts (sessions/*.jsonl),
// and the memory files of coding agents (Claude Code's CLAUDE.md, Codex's
// AGENTS.md). Readers stream: an export is decoded one conversation at a
// time, so memory stays bounded by the largest conversation, not the
// file. What a reader yields is a Session: an ID that stays the same when
// the export is read again (what makes re-importing change nothing), a
// title, and the turns with their time and speaker. Render writes a
// session as the Markdown section a daily log gets, and Append adds the
// sections a log does not hold yet.
//
// An export is untrusted input: no field of it can start a line of the
// log (a heading, a Retain section, a typed fact), whatever line
// separators it holds, and the parser checks every section Render writes
// (untrusted.go). Readers hold one conversation at a time and refuse one
// over MaxSessionBytes having read no more of it.
package imports
