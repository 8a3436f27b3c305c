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
// session as the Markdown section a daily log gets.
package imports
