package imports

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Everything an export holds is untrusted: a conversation's ID, title,
// speaker and text are written by whoever made the file. What Render
// writes of them can never start a line of its own (so never a heading, a
// "## Retain" section or a typed fact), whatever line separators they hold.
// These functions are the only way such text reaches the Markdown.

// isLineBreak reports whether r ends a line for some reader of the text:
// the parser cuts lines at '\n' and a lone '\r'; editors, browsers and
// other Markdown readers also at the vertical tab, the form feed, NEL and
// Unicode's line and paragraph separators.
func isLineBreak(r rune) bool {
	switch r {
	case '\n', '\r', '\v', '\f', '\u0085', '\u2028', '\u2029':
		return true
	}
	return false
}

// isUnsafe reports whether r is a character no line of a log should hold:
// control characters other than the tab (NUL makes a file binary, ESC
// drives a terminal that prints a citation), and invalid UTF-8.
func isUnsafe(r rune) bool {
	return r == utf8.RuneError || (r != '\t' && unicode.IsControl(r))
}

// oneLine folds untrusted text into one line of at most max runes: line
// breaks, control characters and runs of white space become one space.
func oneLine(s string, max int) string {
	var b strings.Builder
	space := false
	n := 0
	for _, r := range s {
		if unicode.IsSpace(r) || isLineBreak(r) || isUnsafe(r) {
			space = b.Len() > 0
			continue
		}
		if n == max {
			break
		}
		if space {
			b.WriteByte(' ')
			space = false
			n++
		}
		b.WriteRune(r)
		n++
	}
	return b.String()
}

// textLines splits untrusted text at every line break, replaces control
// characters with U+FFFD (as the parser reads a NUL) and trims trailing
// white space. Blank lines are dropped when dropBlank is set.
func textLines(s string, dropBlank bool) []string {
	var lines []string
	var b strings.Builder
	end := func() {
		l := strings.TrimRightFunc(b.String(), unicode.IsSpace)
		if l != "" || !dropBlank {
			lines = append(lines, l)
		}
		b.Reset()
	}
	for i, r := range s {
		switch {
		case r == '\n' && i > 0 && s[i-1] == '\r':
			// "\r\n" is one break; the '\r' ended the line
		case isLineBreak(r):
			end()
		case isUnsafe(r):
			b.WriteRune('\uFFFD')
		default:
			b.WriteRune(r)
		}
	}
	if b.Len() > 0 {
		end()
	}
	return lines
}

// escapeFence keeps a line of a turn from opening a fenced code block,
// which would run on past the turn and hide what the log holds after the
// import (a later "## Retain" section included): a leading run of
// backticks or tildes gets a backslash, which Markdown shows as the run.
func escapeFence(l string) string {
	t := strings.TrimLeft(l, " \t")
	if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
		return l[:len(l)-len(t)] + `\` + t
	}
	return l
}

// maxIDLen bounds an ID kept as the export gives it.
const maxIDLen = 128

// safeID is an export's ID as a session key may hold it: itself when it is
// made of letters, digits and ".", "_", ":", "-" only (UUIDs, OpenClaw's
// session IDs), else a hash of it, so that no ID can split the heading
// that carries the key, nor look like another session's key.
func safeID(id string) string {
	ok := id != "" && len(id) <= maxIDLen
	for i := 0; ok && i < len(id); i++ {
		c := id[i]
		ok = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == ':' || c == '-'
	}
	if ok {
		return id
	}
	sum := sha256.Sum256([]byte(id))
	return "id-" + hex.EncodeToString(sum[:8])
}
