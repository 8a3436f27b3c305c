package retain

import (
	"bytes"
	"fmt"
	"strings"

	"memoria/markdown"
)

// Appended is what Append did.
type Appended struct {
	Data    []byte   // the log's new content
	Lines   []int    // 1-based line of each bullet added, in order
	Added   []string // the bullets added ("- W …")
	Skipped []string // bullets already present in the Retain section, not added again
}

// Append adds the facts as bullets at the end of the last Retain section of
// a daily log's content (as package markdown recognises Retain sections:
// "## Retain", "## retain", "## Retain (edited)"), after its last
// non-blank line. Without a Retain section, one is added at the end of the
// file; without content, the file becomes "# TITLE", a blank line and the
// section. A fact whose bullet is already in that section is skipped, so a
// retried retain does not duplicate. Every other byte is kept: the file's
// line ending (CRLF or LF) is used for the new lines, and a final newline
// is added only after a last line that lacked one.
func Append(data []byte, title string, facts []Fact) (Appended, error) {
	res := Appended{}
	if len(facts) == 0 {
		res.Data = data
		return res, nil
	}
	eol := markdown.LineEnding(data)
	lines := markdown.RawLines(data)
	heads, err := markdown.Headings(data)
	if err != nil {
		return res, fmt.Errorf("retain: %w", err)
	}
	// The last Retain section: [start, end) in 0-based line indexes.
	start, end := -1, len(lines)
	for i, h := range heads {
		if !h.Retain {
			continue
		}
		start, end = h.Line-1, len(lines)
		for _, n := range heads[i+1:] {
			if n.Level <= 2 {
				end = n.Line - 1
				break
			}
		}
	}
	present := map[string]bool{}
	if start >= 0 {
		for _, l := range lines[start+1 : end] {
			present[strings.TrimSpace(string(l))] = true
		}
	}
	var add []string
	for _, f := range facts {
		b := f.Bullet()
		if present[b] {
			res.Skipped = append(res.Skipped, b)
			continue
		}
		present[b] = true
		add = append(add, b)
	}
	res.Added = add
	if len(add) == 0 {
		res.Data = data
		return res, nil
	}

	var out bytes.Buffer
	out.Grow(len(data) + 64*len(add) + len(title) + 32)
	var at int // 0-based index of the first added line
	switch {
	case len(bytes.TrimSpace(data)) == 0 && start < 0:
		// A new (or blank) file: the blank content is replaced.
		if title != "" {
			out.WriteString("# " + title + eol + eol)
			at = 2
		}
		out.WriteString("## Retain" + eol)
		at++
		writeLines(&out, add, eol)
	case start < 0:
		// No Retain section: add one at the end of the file.
		out.Write(data)
		at = len(lines)
		if !markdown.EndsWithNewline(data) {
			out.WriteString(eol)
		}
		if len(lines) > 0 && len(bytes.TrimSpace(lines[len(lines)-1])) > 0 {
			out.WriteString(eol)
			at++
		}
		out.WriteString("## Retain" + eol)
		at++
		writeLines(&out, add, eol)
	default:
		// After the last non-blank line of the section.
		last := end - 1
		for last > start && len(bytes.TrimSpace(lines[last])) == 0 {
			last--
		}
		off := 0
		for _, l := range lines[:last+1] {
			off += len(l)
		}
		head := data[:off]
		out.Write(head)
		if !markdown.EndsWithNewline(head) {
			out.WriteString(eol)
		}
		writeLines(&out, add, eol)
		out.Write(data[off:])
		at = last + 1
	}
	res.Data = out.Bytes()
	for i := range add {
		res.Lines = append(res.Lines, at+i+1)
	}
	if err := check(res.Data, res.Lines); err != nil {
		return Appended{}, err
	}
	return res, nil
}

// check makes sure that every added line reads back as a fact where it
// was put (it would not, for one, after an unclosed code fence).
func check(data []byte, lines []int) error {
	doc, err := markdown.Parse("memory/2000-01-01.md", data)
	if err != nil {
		return fmt.Errorf("retain: %w", err)
	}
	at := map[int]bool{}
	for _, f := range doc.Facts {
		at[f.Source.Start] = true
	}
	for _, l := range lines {
		if !at[l] {
			return fmt.Errorf("retain: the new bullet on line %d would not read as a fact (is a code block left open in the Retain section?); fix the log and retry", l)
		}
	}
	return nil
}

func writeLines(b *bytes.Buffer, lines []string, eol string) {
	for _, l := range lines {
		b.WriteString(l)
		b.WriteString(eol)
	}
}
