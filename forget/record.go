package forget

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"regexp"
	"strings"
	"unicode"

	"memoria/markdown"
	"memoria/memory"
	"memoria/workspace"
)

// RecordFile is the workspace-relative path of the record of forgotten
// text. It is at the top of the workspace, beside memory.md, and is not a
// memory file: nothing indexes it, and it holds no forgotten text.
const RecordFile = "forgotten.md"

// RecordHeader opens a new record.
const RecordHeader = `# Forgotten

What ` + "`memoria forget`" + ` removed from this workspace's memory: one entry per
line, with the day, where the line was and a hash of its text, never the
text. Memoria leaves any line with one of these hashes out of its index,
its vectors and its imports, so that nothing brings it back (docs/forget.md).
Delete an entry to let that text be remembered again.
`

// maxRecordBytes bounds what is read of the record.
const maxRecordBytes = memory.MaxFileSize

// Set is the hashes (Key) of forgotten text. The zero value is empty.
type Set map[string]struct{}

// Has reports whether line says forgotten text.
func (s Set) Has(line string) bool {
	if len(s) == 0 {
		return false
	}
	k, ok := Key(line)
	if !ok {
		return false
	}
	_, has := s[k]
	return has
}

// entryRE is a record entry: "- DAY KEY …" (the rest is for people).
var entryRE = regexp.MustCompile(`^\s*[-*] (\d{4}-\d{2}-\d{2}) ([0-9a-f]{32})(?:\s|$)`)

// ParseRecord reads the hashes of a record's entries; other lines (the
// header, a person's notes) are ignored.
func ParseRecord(data []byte) Set {
	s := Set{}
	for line := range bytes.Lines(data) {
		if m := entryRE.FindSubmatch(line); m != nil {
			s[string(m[2])] = struct{}{}
		}
	}
	return s
}

// Load reads the record of the workspace in root: an empty Set when there
// is none. A record that is not a regular file inside the workspace (a
// symlink, a folder) is an error, so that no index is built as if
// nothing were forgotten.
func Load(root string) (Set, error) {
	p, err := workspace.Path(root, RecordFile)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", RecordFile, err)
	}
	fi, err := os.Lstat(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return Set{}, nil
	case err != nil:
		return nil, fmt.Errorf("%s: %w", RecordFile, err)
	case !fi.Mode().IsRegular():
		return nil, fmt.Errorf("%s: not a regular file (a symlink or a folder); the record of forgotten text must be a file of the workspace", RecordFile)
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", RecordFile, err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxRecordBytes+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", RecordFile, err)
	}
	if len(data) > maxRecordBytes {
		return nil, fmt.Errorf("%s: over %d MB", RecordFile, maxRecordBytes>>20)
	}
	return ParseRecord(data), nil
}

// Entry is one forgotten line as the record keeps it.
type Entry struct {
	Day    string        // YYYY-MM-DD, when it was forgotten
	Key    string        // Key of its text
	Source memory.Source // where it was
	Reason string        // why, as given (Sanitize makes it one safe line)
}

// line is the entry as written.
func (e Entry) line() string {
	s := fmt.Sprintf("- %s %s %s", e.Day, e.Key, Sanitize(e.Source.String()))
	if r := Sanitize(e.Reason); r != "" {
		s += " (" + r + ")"
	}
	return s
}

// AppendRecord returns the record old (empty when there is none yet) with
// the entries whose key it does not hold yet appended, and how many were.
// Every byte of old is kept.
func AppendRecord(old []byte, entries []Entry) ([]byte, int) {
	have := ParseRecord(old)
	eol := markdown.LineEnding(old)
	var b bytes.Buffer
	b.Write(old)
	if len(bytes.TrimSpace(old)) == 0 {
		b.Reset()
		b.WriteString(strings.ReplaceAll(RecordHeader, "\n", eol))
	}
	added := 0
	for _, e := range entries {
		if _, ok := have[e.Key]; ok {
			continue
		}
		have[e.Key] = struct{}{}
		if added == 0 {
			if !markdown.EndsWithNewline(b.Bytes()) {
				b.WriteString(eol)
			}
			b.WriteString(eol)
		}
		b.WriteString(e.line() + eol)
		added++
	}
	if added == 0 {
		return old, 0
	}
	return b.Bytes(), added
}

// MaxReasonRunes bounds the reason a tombstone and an entry keep.
const MaxReasonRunes = 200

// Sanitize makes untrusted text (a reason, a path) one line that can
// neither end nor nest an HTML comment nor start a Markdown block: line
// breaks of every kind, control and format characters (bidirectional
// overrides among them) become spaces, white space is folded, '<' and '>'
// become '‹' and '›', a run of '-' becomes one, and it is cut to
// MaxReasonRunes.
func Sanitize(s string) string {
	var b strings.Builder
	n := 0
	prevDash := false
	for _, r := range strings.ToValidUTF8(s, "\uFFFD") {
		switch {
		case unicode.IsSpace(r) || unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == '\u2028' || r == '\u2029':
			r = ' '
		case r == '<':
			r = '‹'
		case r == '>':
			r = '›'
		}
		if r == '-' && prevDash {
			continue
		}
		prevDash = r == '-'
		if n >= MaxReasonRunes {
			break
		}
		b.WriteRune(r)
		n++
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

// TombstonePrefix starts every tombstone line.
const TombstonePrefix = "<!-- forgotten "

// Tombstone is the line left where forgotten lines were, without its
// line ending: "<!-- forgotten 2026-12-02: reason -->", or without ": reason"
// when there is none. The reason is sanitized (Sanitize): it cannot end
// the comment, and the line, starting "<!--", is never a heading, a list
// item or a fact.
func Tombstone(day, reason string) string {
	if r := Sanitize(reason); r != "" {
		return TombstonePrefix + day + ": " + r + " -->"
	}
	return TombstonePrefix + day + " -->"
}

// IsTombstone reports whether line is a tombstone.
func IsTombstone(line string) bool {
	t := strings.TrimSpace(line)
	return strings.HasPrefix(t, TombstonePrefix) && strings.HasSuffix(t, "-->")
}
