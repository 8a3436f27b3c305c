package memory

import (
	"path"
	"strings"
	"time"
)

// MaxFileSize is the largest memory file Memoria reads, indexes or writes:
// one limit, so that nothing is written that the index would then skip.
// A day's log of 16 MB is far past anything written by hand or an agent.
const MaxFileSize = 16 << 20

// FileKind says what role a workspace file plays.
type FileKind string

// The file kinds.
const (
	FileLog      FileKind = "log"      // memory/YYYY-MM-DD.md
	FileCore     FileKind = "core"     // memory.md or MEMORY.md
	FileBank     FileKind = "bank"     // bank/world.md, bank/experience.md, other bank/*.md
	FileOpinions FileKind = "opinions" // bank/opinions.md
	FileEntity   FileKind = "entity"   // bank/entities/<Slug>.md
	FileOther    FileKind = "other"    // any other .md file under memory/ or bank/

	// OpenClaw's layout (docs/openclaw.md, "The layout"). A daily note
	// with a slug, memory/YYYY-MM-DD-<slug>.md, is a FileLog of its day.
	FileUser   FileKind = "user"   // USER.md: OpenClaw's user model, directives with observed/status marks
	FileDreams FileKind = "dreams" // DREAMS.md (or dreams.md), memory/dreaming/**: OpenClaw's dreaming summaries
	FileImport FileKind = "import" // memory/imports/<source>/**: memory OpenClaw imported from Codex, Claude Code, Hermes
)

// RootFiles are the memory files of the workspace folder itself, in the
// order a listing looks for them; the rest live under memory/ and bank/.
var RootFiles = []string{"memory.md", "MEMORY.md", "USER.md", "DREAMS.md", "dreams.md"}

// TextOnly reports whether a file of this kind is read as text only:
// passages, with no typed facts, no Retain sections and no headings. Its
// text was written by another program (OpenClaw's user model, its
// dreaming sweep, another assistant's memory): Memoria reads it, cites
// it, and lets none of it become a fact or a heading.
func (k FileKind) TextOnly() bool {
	return k == FileUser || k == FileDreams || k == FileImport
}

// LowerTrust reports whether a file of this kind is not the workspace's
// own record: a machine's summary (dreaming) or memory copied from
// another assistant. Recall finds and cites its lines but never counts
// them as curated memory.
func (k FileKind) LowerTrust() bool { return k == FileDreams || k == FileImport }

// ImportSource is the assistant a file under memory/imports/ was imported
// from: the folder below memory/imports/ ("codex", "claude-code",
// "hermes"), or "" for any other path, and for a file right in
// memory/imports/ (which results and status call "unknown").
func ImportSource(rel string) string {
	rest, ok := strings.CutPrefix(rel, importsDir)
	if !ok {
		return ""
	}
	src, _, ok := strings.Cut(rest, "/")
	if !ok {
		return ""
	}
	return src
}

const (
	importsDir  = "memory/imports/"
	dreamingDir = "memory/dreaming/"
)

// Document is everything the parser read from one file.
type Document struct {
	Path     string   // workspace-relative, slash-separated
	Kind     FileKind // its role
	Date     time.Time
	Facts    []Fact
	Passages []Passage
	Entity   *EntityPage // for FileEntity only
	Warnings []Warning   // lines skipped or entities rejected; never fatal
}

// Warning is a problem in a file that was skipped, not fatal.
type Warning struct {
	Line    int
	Message string
}

// ClassifyPath tells the role of a workspace-relative path and, for daily
// logs, their day. It reports false for files Memoria does not index.
func ClassifyPath(rel string) (FileKind, time.Time, bool) {
	// The common case first, without cleaning: the freshness check
	// classifies every daily log before every recall.
	if len(rel) == 20 && rel[:7] == "memory/" && rel[17:] == ".md" {
		if d, ok := parseDay(rel[7:17]); ok {
			return FileLog, d, true
		}
	}
	rel = path.Clean(strings.ReplaceAll(rel, "\\", "/"))
	if !strings.HasSuffix(strings.ToLower(rel), ".md") {
		return "", time.Time{}, false
	}
	dir, file := path.Split(rel)
	switch {
	case dir == "" && (file == "memory.md" || file == "MEMORY.md"):
		return FileCore, time.Time{}, true
	case dir == "" && file == "USER.md":
		return FileUser, time.Time{}, true
	case dir == "" && (file == "DREAMS.md" || file == "dreams.md"):
		return FileDreams, time.Time{}, true
	case dir == "memory/":
		if d, ok := logDay(file); ok {
			return FileLog, d, true
		}
		return FileOther, time.Time{}, true
	case strings.HasPrefix(rel, importsDir):
		return FileImport, time.Time{}, true
	case strings.HasPrefix(rel, dreamingDir):
		// OpenClaw's phase reports, memory/dreaming/<phase>/YYYY-MM-DD.md.
		d, _ := parseDay(strings.TrimSuffix(file, ".md"))
		return FileDreams, d, true
	case rel == "bank/opinions.md":
		return FileOpinions, time.Time{}, true
	case dir == "bank/entities/":
		return FileEntity, time.Time{}, true
	case dir == "bank/":
		return FileBank, time.Time{}, true
	case strings.HasPrefix(rel, "memory/") || strings.HasPrefix(rel, "bank/"):
		return FileOther, time.Time{}, true
	}
	return "", time.Time{}, false
}

// logDay reads the day of a daily log's file name: YYYY-MM-DD.md, or
// YYYY-MM-DD-<slug>.md with a slug of at least one character (OpenClaw's
// session-memory hook and memory flush write "2026-07-27-1430.md",
// "2026-07-27-vendor-pitch.md", "2026-07-27-vendor-pitch-2.md"). A name
// whose date is not a day of the calendar is no log.
func logDay(file string) (time.Time, bool) {
	name, ok := strings.CutSuffix(file, ".md")
	if !ok || len(name) < 10 || len(name) == 11 || len(name) > 10 && name[10] != '-' {
		return time.Time{}, false
	}
	return parseDay(name[:10])
}

// parseDay reads YYYY-MM-DD without time.Parse: the freshness check
// classifies every daily log before every recall.
func parseDay(s string) (time.Time, bool) {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return time.Time{}, false
	}
	num := func(s string) (int, bool) {
		n := 0
		for i := 0; i < len(s); i++ {
			if s[i] < '0' || s[i] > '9' {
				return 0, false
			}
			n = n*10 + int(s[i]-'0')
		}
		return n, true
	}
	y, ok1 := num(s[:4])
	m, ok2 := num(s[5:7])
	d, ok3 := num(s[8:])
	if !ok1 || !ok2 || !ok3 || m < 1 || m > 12 || d < 1 || d > 31 {
		return time.Time{}, false
	}
	t := time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC)
	if t.Day() != d { // 2025-02-30 and the like
		return time.Time{}, false
	}
	return t, true
}
