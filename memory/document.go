package memory

import (
	"path"
	"strings"
	"time"
)

// FileKind says what role a workspace file plays (DESIGN §1).
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
	rel = path.Clean(strings.ReplaceAll(rel, "\\", "/"))
	if !strings.HasSuffix(strings.ToLower(rel), ".md") {
		return "", time.Time{}, false
	}
	dir, file := path.Split(rel)
	switch {
	case dir == "" && (file == "memory.md" || file == "MEMORY.md"):
		return FileCore, time.Time{}, true
	case dir == "memory/":
		if d, err := time.Parse("2006-01-02", strings.TrimSuffix(file, ".md")); err == nil {
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
