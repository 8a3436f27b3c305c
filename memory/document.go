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
	case dir == "memory/":
		if d, ok := parseDay(strings.TrimSuffix(file, ".md")); ok {
			return FileLog, d, true
		}
		return FileOther, time.Time{}, true
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
