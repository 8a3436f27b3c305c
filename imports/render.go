package imports

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"memoria/markdown"
)

// Section headings: each imported session is one level-2 section whose
// heading ends with its key in brackets.
const (
	conversationHeading = "## Conversation: "
	notesHeading        = "## Imported notes: "
)

// Bounds on what a heading and a speaker name keep of an export's text.
const (
	maxTitleRunes   = 200
	maxSpeakerRunes = 40
)

// ErrNotInert is wrapped when a rendered session would change how the log
// reads around it (a heading, a section or a code block that does not
// end). Render's escaping prevents it; the check is the parser's word on
// it, so that no gap in the escaping can write facts.
var ErrNotInert = errors.New("would change how the log reads")

// Render writes a session as a daily log's section: a heading that names
// it and carries its key (which makes importing it again a no-op), then
// one bullet per turn with its time and speaker ("- 09:14 **User**: …"),
// further lines of a long turn indented under it. Memory files keep their
// lines, their headings made bold lines so that the section stays one.
//
// The export's text is untrusted: every line break in it (of any kind)
// starts an indented continuation line, control characters become
// U+FFFD, and a line that would open a code block is escaped. The result
// is checked with the parser: appended to a log, the section adds exactly
// one heading, its own, and leaves what follows it as it was read; a
// section that would not is refused (ErrNotInert).
func Render(s Session) (string, error) {
	var b strings.Builder
	title := oneLine(s.Title, maxTitleRunes)
	if title == "" {
		title = "untitled"
	}
	if s.Format == MemoryFile {
		text := renderNotes(title, s.Key(), s.Notes, false)
		if inert(text) {
			return text, nil
		}
		// A code block that does not end in the file would run on over
		// the rest of the log: its fences are escaped, the text kept.
		text = renderNotes(title, s.Key(), s.Notes, true)
		if inert(text) {
			return text, nil
		}
		return "", fmt.Errorf("%s: %w", s.Key(), ErrNotInert)
	}
	fmt.Fprintf(&b, "%s%s [%s]\n\n", conversationHeading, title, s.Key())
	for _, t := range s.Turns {
		b.WriteString("- ")
		if !t.Time.IsZero() {
			b.WriteString(t.Time.UTC().Format("15:04") + " ")
		}
		speaker := oneLine(t.Speaker, maxSpeakerRunes)
		if speaker == "" {
			speaker = "Unknown"
		}
		fmt.Fprintf(&b, "**%s**:", strings.ReplaceAll(speaker, "*", ""))
		for i, l := range textLines(t.Text, true) {
			if i == 0 {
				b.WriteString(" " + strings.TrimSpace(l))
				continue
			}
			// Four spaces: the line continues the bullet, so "# x" or
			// "## Retain" in a turn stays text.
			b.WriteString("\n    " + escapeFence(l))
		}
		b.WriteByte('\n')
	}
	text := b.String()
	if !inert(text) {
		return "", fmt.Errorf("%s: %w", s.Key(), ErrNotInert)
	}
	return text, nil
}

// renderNotes writes a memory file's section; escape escapes its fences.
func renderNotes(title, key, notes string, escape bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s%s [%s]\n\n", notesHeading, title, key)
	for _, l := range textLines(notes, false) {
		switch t := strings.TrimSpace(l); {
		case strings.HasPrefix(t, "#"):
			l = "**" + strings.TrimSpace(strings.TrimLeft(t, "#")) + "**"
		case escape:
			l = escapeFence(l)
		}
		b.WriteString(l + "\n")
	}
	return b.String()
}

// inertProbe is what inert appends after a section.
const inertProbe = "\n## inert probe\n"

// inert reports whether section, read by the parser with a heading after
// it, has exactly two headings: its own on its first line and that one on
// the last line. Then nothing in it opens a section, and nothing in it
// runs on over what follows (a code block that does not end would hide
// the heading).
func inert(section string) bool {
	data := []byte(section + inertProbe)
	hs, err := markdown.Headings(data)
	return err == nil && len(hs) == 2 && hs[0].Line == 1 && !hs[0].Retain &&
		hs[1].Line == bytes.Count(data, []byte("\n")) && hs[1].Text == "inert probe"
}

// Append returns the daily log old (of day, empty when it does not exist)
// with the sections appended whose key it does not hold yet, in order, and
// how many were appended and how many it held already. A new log gets its
// "# DAY" title; an existing one keeps every byte. sections are Render's.
func Append(old []byte, day string, sections []string) (out []byte, added, skipped int) {
	have := Keys(old)
	var add bytes.Buffer
	for _, s := range sections {
		key := sectionKey(s)
		if have[key] {
			skipped++
			continue
		}
		have[key] = true
		add.WriteString("\n" + s)
		added++
	}
	if added == 0 {
		return old, 0, skipped
	}
	switch {
	case len(old) == 0:
		out = []byte("# " + day + "\n")
	case old[len(old)-1] != '\n':
		out = append(old, '\n')
	default:
		out = old
	}
	return append(out, add.Bytes()...), added, skipped
}

// Keys returns the keys of the sessions a daily log holds: those in the
// brackets that end its imported sections' headings. Only heading lines
// count, so a key quoted in a turn's text marks nothing as imported.
func Keys(log []byte) map[string]bool {
	keys := map[string]bool{}
	for line := range bytes.Lines(log) {
		l := string(bytes.TrimRight(line, " \t\r\n"))
		if strings.HasPrefix(l, conversationHeading) || strings.HasPrefix(l, notesHeading) {
			if k := sectionKey(l); k != "" {
				keys[k] = true
			}
		}
	}
	return keys
}

// sectionKey is the key in the brackets that end a section's heading (its
// first line).
func sectionKey(section string) string {
	head, _, _ := strings.Cut(section, "\n")
	i := strings.LastIndexByte(head, '[')
	if i < 0 || !strings.HasSuffix(head, "]") {
		return ""
	}
	return head[i+1 : len(head)-1]
}
