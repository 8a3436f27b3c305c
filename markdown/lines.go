package markdown

import (
	"bytes"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Lines returns the lines of a Markdown file as the parser reads them and
// passages quote them: invalid UTF-8 replaced (one U+FFFD for each bad
// run), NUL bytes too, a byte-order mark dropped, and each line (see
// splitLines) without its trailing white space. `memoria get` reads cited lines through it, so
// that a passage's text is what its citation reads back.
func Lines(data []byte) []string {
	if !utf8.Valid(data) {
		data = bytes.ToValidUTF8(data, []byte("\uFFFD"))
	}
	if bytes.IndexByte(data, 0) >= 0 {
		data = bytes.ReplaceAll(data, []byte{0}, []byte("\uFFFD"))
	}
	return splitLines(strings.TrimPrefix(string(data), "\uFEFF"))
}

// splitLines splits src into lines at "\n", "\r\n" or a lone "\r" (as
// old Mac files end them). A final line ending does not start another line.
// Each line has its trailing white space removed, which is the form
// passages quote.
func splitLines(src string) []string {
	if src == "" {
		return nil
	}
	lines := make([]string, 0, strings.Count(src, "\n")+1)
	lone := loneCR(src)
	for len(src) > 0 {
		i := strings.IndexByte(src, '\n')
		if lone {
			i = strings.IndexAny(src, "\r\n")
		}
		if i < 0 {
			lines = append(lines, trimRight(src))
			break
		}
		next := i + 1
		if src[i] == '\r' && next < len(src) && src[next] == '\n' {
			next++
		}
		lines = append(lines, trimRight(src[:i]))
		src = src[next:]
	}
	return lines
}

// loneCR reports whether src has a '\r' that is not followed by '\n':
// only then are lines cut at '\r' too (the slower scan).
func loneCR(src string) bool {
	for i := strings.IndexByte(src, '\r'); i >= 0; {
		if i+1 >= len(src) || src[i+1] != '\n' {
			return i+1 < len(src) // a '\r' ending the file ends its last line anyway
		}
		j := strings.IndexByte(src[i+1:], '\r')
		if j < 0 {
			return false
		}
		i += 1 + j
	}
	return false
}

// trimRight removes trailing white space (as unicode.IsSpace defines it),
// with a fast path for ASCII.
func trimRight(s string) string {
	for len(s) > 0 {
		c := s[len(s)-1]
		if c < utf8.RuneSelf {
			if c != ' ' && c != '\t' && c != '\r' && c != '\v' && c != '\f' {
				return s
			}
			s = s[:len(s)-1]
			continue
		}
		r, size := utf8.DecodeLastRuneInString(s)
		if !unicode.IsSpace(r) {
			return s
		}
		s = s[:len(s)-size]
	}
	return s
}

// IndentWidth is the width of s's leading spaces and tabs, a tab advancing
// to the next multiple of four columns, and the byte offset of the first
// other character.
func IndentWidth(s string) (width, offset int) {
	for offset < len(s) {
		switch s[offset] {
		case ' ':
			width++
		case '\t':
			width += 4 - width%4
		default:
			return width, offset
		}
		offset++
	}
	return width, offset
}

// isIndented reports whether s is a continuation line: indented by at
// least two columns (two spaces or a tab).
func isIndented(s string) bool {
	w, off := IndentWidth(s)
	return w >= 2 && off < len(s)
}

// ListMarker reports whether t (a line with its indentation removed) starts
// with a list marker: '-', '*' or '+', or 1–9 digits followed by '.' or
// ')', then a space, a tab or the end of the line. It returns the byte
// offset of the item's text and whether the marker is a bullet (unordered).
func ListMarker(t string) (content int, bullet, ok bool) {
	if t == "" {
		return 0, false, false
	}
	n := 0
	switch c := t[0]; {
	case c == '-' || c == '*' || c == '+':
		n, bullet = 1, true
	case c >= '0' && c <= '9':
		for n < len(t) && n < 10 && t[n] >= '0' && t[n] <= '9' {
			n++
		}
		if n > 9 || n >= len(t) || (t[n] != '.' && t[n] != ')') {
			return 0, false, false
		}
		n++
	default:
		return 0, false, false
	}
	if n == len(t) {
		return n, bullet, true
	}
	if t[n] != ' ' && t[n] != '\t' {
		return 0, false, false
	}
	for n < len(t) && (t[n] == ' ' || t[n] == '\t') {
		n++
	}
	return n, bullet, true
}

// heading parses an ATX heading: up to three spaces, one to six '#', then a
// space, a tab or the end of the line. The text has an optional closing
// run of '#' removed.
func heading(s string) (level int, text string, ok bool) {
	w, off := IndentWidth(s)
	if w > 3 || off >= len(s) || s[off] != '#' {
		return 0, "", false
	}
	t := s[off:]
	for level < len(t) && t[level] == '#' {
		level++
	}
	if level > 6 || (level < len(t) && t[level] != ' ' && t[level] != '\t') {
		return 0, "", false
	}
	text = strings.TrimSpace(t[level:])
	if end := strings.TrimRight(text, "#"); end == "" {
		text = ""
	} else if len(end) < len(text) && (end[len(end)-1] == ' ' || end[len(end)-1] == '\t') {
		text = strings.TrimSpace(end)
	}
	return level, text, true
}

// thematicBreak reports whether s is a thematic break: up to three spaces,
// then three or more of the same character among '-', '*' and '_', with
// optional spaces or tabs between them and nothing else.
func thematicBreak(s string) bool {
	w, off := IndentWidth(s)
	if w > 3 || off >= len(s) {
		return false
	}
	c := s[off]
	if c != '-' && c != '*' && c != '_' {
		return false
	}
	n := 0
	for i := off; i < len(s); i++ {
		switch s[i] {
		case c:
			n++
		case ' ', '\t':
		default:
			return false
		}
	}
	return n >= 3
}

// fence describes an open fenced code block.
type fence struct {
	char byte // '`' or '~'
	n    int  // length of the opening run
}

// openFence reports whether t (a line with its indentation removed) opens
// a fenced code block: three or more backticks or tildes. A backtick fence's
// info string may not contain a backtick.
func openFence(t string) (fence, bool) {
	if len(t) < 3 || (t[0] != '`' && t[0] != '~') {
		return fence{}, false
	}
	c := t[0]
	n := 0
	for n < len(t) && t[n] == c {
		n++
	}
	if n < 3 || (c == '`' && strings.IndexByte(t[n:], '`') >= 0) {
		return fence{}, false
	}
	return fence{char: c, n: n}, true
}

// closes reports whether t (a line with its indentation removed and its
// trailing white space trimmed) closes the fence f.
func (f fence) closes(t string) bool {
	if len(t) < f.n {
		return false
	}
	for i := 0; i < len(t); i++ {
		if t[i] != f.char {
			return false
		}
	}
	return true
}

// isTableRow reports whether s looks like a row of a pipe table.
func isTableRow(s string) bool {
	w, off := IndentWidth(s)
	return w <= 3 && off < len(s) && s[off] == '|'
}
