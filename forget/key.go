package forget

import (
	"crypto/sha256"
	"encoding/hex"
	"memoria/markdown"
	"strings"
	"unicode"
	"unicode/utf8"

	"memoria/lang"
)

// MinWeight is how much a line must say to be recorded: letters and
// digits, a CJK character counting as cjkWeight (it carries about a word).
// "Likes tea." weighs 8; "## Notes", "- yes" and "2025-11-27" weigh less
// or are headings of one word.
const (
	MinWeight = 8
	cjkWeight = 3
)

// Key is the hash of what a line says (Content), as the record keeps it:
// 32 hex digits (128 bits of SHA-256). It reports false for a line that
// says too little to be told apart from ordinary lines (MinWeight; a
// heading needs two words, and a Retain heading is never recorded), for
// a code fence, a tombstone and any other HTML comment line: such a line
// is removed where it was selected, but not recorded (blanking it
// elsewhere would change how the lines around it read).
func Key(line string) (string, bool) {
	// A line of fewer bytes cannot weigh MinWeight (a character weighs
	// at most as many bytes as it has): blank lines, fences and short
	// markup cost nothing (every line of every file an index reads asks,
	// once there is a record).
	if len(line) < MinWeight {
		return "", false
	}
	text, heading := Content(line)
	if !recordable(text, heading) {
		return "", false
	}
	return hashText(text), true
}

func hashText(text string) string {
	sum := sha256.Sum256([]byte(text))
	return hex.EncodeToString(sum[:16])
}

// recordable reports whether a line's content may be recorded.
func recordable(text string, heading bool) bool {
	if strings.HasPrefix(text, "<!--") || strings.HasPrefix(text, "```") || strings.HasPrefix(text, "~~~") || weight(text) < MinWeight {
		return false
	}
	if heading {
		// "## Retain" opens the typed facts of a log: blanking it
		// elsewhere would turn them into passages.
		return len(strings.Fields(text)) >= 2 && !strings.HasPrefix(text, "retain")
	}
	return true
}

// weight counts the letters and digits of s, CJK characters cjkWeight,
// up to MinWeight (enough to know a line may be recorded).
func weight(s string) int {
	n := 0
	for _, r := range s {
		switch {
		case r < utf8.RuneSelf:
			if 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' {
				n++
			}
		case lang.IsCJK(r):
			n += cjkWeight
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			n++
		}
		if n >= MinWeight {
			return n
		}
	}
	return n
}

// Content is what a line says, as its hash is taken: the Markdown around
// the text left out (a blockquote's >, a heading's #s, a list marker and
// a task box, a typed fact's kind letter with its confidence and its
// leading @mentions up to ':', an imported turn's "09:14 **Speaker**:",
// bold around the whole line), invalid UTF-8 and NUL read as the parser
// reads them, white space folded to single spaces, in lower case. heading
// reports a Markdown heading.
func Content(line string) (text string, heading bool) {
	if !utf8.ValidString(line) {
		line = strings.ToValidUTF8(line, "\uFFFD")
	}
	line = strings.ReplaceAll(line, "\x00", "\uFFFD")
	s := strings.TrimSpace(strings.TrimPrefix(line, "\uFEFF"))
	for strings.HasPrefix(s, ">") {
		s = strings.TrimSpace(s[1:])
	}
	if t, ok := headingText(s); ok {
		s, heading = t, true
	} else {
		s = listItem(s)
		s = factPrefix(s)
		s = turnPrefix(s)
	}
	if len(s) > 4 && strings.HasPrefix(s, "**") && strings.HasSuffix(s, "**") {
		s = s[2 : len(s)-2]
	}
	return fold(s), heading
}

// fold is s with every run of white space made one space, in lower case
// (strings.ToLower of strings.Fields joined by spaces, in one pass).
func fold(s string) string {
	b := make([]byte, 0, len(s))
	space := false
	for _, r := range s {
		if r < utf8.RuneSelf {
			c := byte(r)
			switch {
			case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f':
				space = true
				continue
			case 'A' <= c && c <= 'Z':
				c += 'a' - 'A'
			}
			if space && len(b) > 0 {
				b = append(b, ' ')
			}
			space = false
			b = append(b, c)
			continue
		}
		if unicode.IsSpace(r) {
			space = true
			continue
		}
		if space && len(b) > 0 {
			b = append(b, ' ')
		}
		space = false
		b = utf8.AppendRune(b, unicode.ToLower(r))
	}
	return string(b)
}

// headingText is the text of an ATX heading (as package markdown reads
// one: up to three spaces, one to six #s, then a space or the end; a
// closing run of #s after a space dropped).
func headingText(s string) (string, bool) {
	n := 0
	for n < len(s) && s[n] == '#' {
		n++
	}
	if n == 0 || n > 6 || n < len(s) && s[n] != ' ' && s[n] != '\t' {
		return "", false
	}
	text := strings.TrimSpace(s[n:])
	switch end := strings.TrimRight(text, "#"); {
	case end == "":
		text = ""
	case len(end) < len(text) && (end[len(end)-1] == ' ' || end[len(end)-1] == '\t'):
		text = strings.TrimSpace(end)
	}
	return text, true
}

// listItem drops a list marker ("- ", "* ", "+ ", "1. ", "2) ") and a task
// box ("[ ] ", "[x] ") after it.
func listItem(s string) string {
	// A marker at the end of the line, with no space after it, is read
	// as text here (markdown.ListMarker reads it as an empty item).
	n, _, ok := markdown.ListMarker(s)
	if !ok || (s[n-1] != ' ' && s[n-1] != '\t') {
		return s
	}
	rest := strings.TrimSpace(s[n:])
	if len(rest) >= 4 && rest[0] == '[' && rest[2] == ']' && strings.ContainsRune(" xX", rune(rest[1])) && rest[3] == ' ' {
		rest = strings.TrimSpace(rest[4:])
	}
	return rest
}

// factPrefix drops a typed fact's head: its kind letter (W, B, O, S), an
// optional confidence "(c=0.9)", then a space or ':'; and a run of
// @mentions ended by ':' at the start of what follows.
func factPrefix(s string) string {
	if len(s) >= 2 && strings.ContainsRune("WBOS", rune(s[0])) {
		rest := s[1:]
		if strings.HasPrefix(strings.TrimLeft(rest, " \t"), "(") {
			t := strings.TrimLeft(rest, " \t")
			if end := strings.IndexByte(t, ')'); end > 0 && end < 32 && strings.Contains(t[:end], "=") {
				rest = t[end+1:]
			}
		}
		if rest == "" || rest[0] == ' ' || rest[0] == '\t' || rest[0] == ':' {
			s = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(rest), ":"))
		}
	}
	return mentionsHead(s)
}

// mentionsHead drops "@A @B:" at the start of s.
func mentionsHead(s string) string {
	t := s
	seen := false
	for strings.HasPrefix(t, "@") {
		end := strings.IndexFunc(t, func(r rune) bool { return r == ':' || unicode.IsSpace(r) })
		if end < 0 {
			return s
		}
		t = strings.TrimLeft(t[end:], " \t")
		seen = true
	}
	if seen && strings.HasPrefix(t, ":") {
		return strings.TrimSpace(t[1:])
	}
	return s
}

// turnPrefix drops an imported turn's time and speaker ("09:14 **User**:").
func turnPrefix(s string) string {
	if len(s) >= 5 {
		if i := strings.IndexByte(s, ' '); i >= 4 && i <= 5 && isClock(s[:i]) {
			s = strings.TrimSpace(s[i+1:])
		}
	}
	if strings.HasPrefix(s, "**") {
		if end := strings.Index(s[2:], "**:"); end >= 0 && end <= 64 {
			s = strings.TrimSpace(s[2+end+3:])
		}
	}
	return s
}

// isClock reports H:MM or HH:MM.
func isClock(s string) bool {
	h, m, ok := strings.Cut(s, ":")
	if !ok || len(h) < 1 || len(h) > 2 || len(m) != 2 {
		return false
	}
	for _, c := range h + m {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
