package core

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"memoria/markdown"
)

// DefaultLimit is the default bound on the whole core memory file, in
// bytes: small enough to include in every prompt.
const DefaultLimit = 8 << 10

// DefaultTitle heads a core memory file created from nothing.
const DefaultTitle = "Core memory"

// Errors wrapped by the edits, for callers that tell them apart.
var (
	ErrInvalid  = errors.New("invalid core memory edit")
	ErrNoBlock  = errors.New("no such block")
	ErrNotFound = errors.New("text not found")
	ErrTooLarge = errors.New("core memory too large")
)

// Options tune an edit. The zero value is ready to use.
type Options struct {
	// Limit bounds the file's size after an edit that grows it: 0 means
	// DefaultLimit, a negative value no limit.
	Limit int
}

func (o Options) limit() int {
	if o.Limit == 0 {
		return DefaultLimit
	}
	return o.Limit
}

// Block is one "##" section of core memory.
type Block struct {
	Name  string // the heading's text
	Line  int    // 1-based line of the heading
	Lines int    // lines of the body, trailing blank lines not counted
	Text  string // heading and body, trailing blank lines removed, "\n" line endings
}

// doc is a file split into raw lines (each with its ending) and blocks.
type doc struct {
	data   []byte
	lines  [][]byte
	eol    string
	blocks []span
}

// span locates a block: heading line index h, body lines [h+1, end).
type span struct {
	name   string
	h, end int
}

func load(data []byte) (*doc, error) {
	heads, err := markdown.Headings(data)
	if err != nil {
		return nil, fmt.Errorf("core memory: %w", err)
	}
	d := &doc{data: data, lines: markdown.RawLines(data), eol: markdown.LineEnding(data)}
	for i, h := range heads {
		if h.Level != 2 {
			continue
		}
		s := span{name: h.Text, h: h.Line - 1, end: len(d.lines)}
		for _, n := range heads[i+1:] {
			if n.Level <= 2 {
				s.end = n.Line - 1
				break
			}
		}
		d.blocks = append(d.blocks, s)
	}
	return d, nil
}

// find returns the block named name (case and surrounding space ignored).
func (d *doc) find(name string) (span, bool) {
	for _, b := range d.blocks {
		if strings.EqualFold(strings.TrimSpace(b.name), strings.TrimSpace(name)) {
			return b, true
		}
	}
	return span{}, false
}

// lastNonBlank is the index of the block's last non-blank line (the
// heading when the body is blank).
func (d *doc) lastNonBlank(b span) int {
	last := b.end - 1
	for last > b.h && len(bytes.TrimSpace(d.lines[last])) == 0 {
		last--
	}
	return last
}

// offset is the byte offset of line index i (len(data) past the end).
func (d *doc) offset(i int) int {
	off := 0
	for _, l := range d.lines[:min(i, len(d.lines))] {
		off += len(l)
	}
	return off
}

func (d *doc) names() []string {
	var ns []string
	for _, b := range d.blocks {
		ns = append(ns, b.name)
	}
	return ns
}

func (d *doc) noBlock(name string) error {
	if len(d.blocks) == 0 {
		return fmt.Errorf("%w %q: core memory has no blocks yet (create one with `memoria core append %s TEXT`)", ErrNoBlock, name, quoteArg(name))
	}
	return fmt.Errorf("%w %q: the blocks are %s", ErrNoBlock, name, strings.Join(quoteAll(d.names()), ", "))
}

// Blocks lists the blocks of a core memory file.
func Blocks(data []byte) ([]Block, error) {
	d, err := load(data)
	if err != nil {
		return nil, err
	}
	out := make([]Block, 0, len(d.blocks))
	for _, b := range d.blocks {
		last := d.lastNonBlank(b)
		var text strings.Builder
		for i := b.h; i <= last; i++ {
			text.WriteString(strings.TrimRight(string(d.lines[i]), "\r\n"))
			if i < last {
				text.WriteByte('\n')
			}
		}
		out = append(out, Block{Name: b.name, Line: b.h + 1, Lines: last - b.h, Text: text.String()})
	}
	return out, nil
}

// Show returns one block's text (heading included), or the whole file
// when block is "".
func Show(data []byte, block string) (string, error) {
	if block == "" {
		return string(data), nil
	}
	bs, err := Blocks(data)
	if err != nil {
		return "", err
	}
	for _, b := range bs {
		if strings.EqualFold(strings.TrimSpace(b.Name), strings.TrimSpace(block)) {
			return b.Text, nil
		}
	}
	d, _ := load(data)
	return "", d.noBlock(block)
}

// Append adds text at the end of the block (after its last non-blank
// line), creating the block at the end of the file when it is missing, and
// the file's title too when data is empty.
func Append(data []byte, block, text string, o Options) ([]byte, error) {
	if err := checkName(block); err != nil {
		return nil, err
	}
	if err := checkBody(text); err != nil {
		return nil, err
	}
	d, err := load(data)
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	lines := textLines(text, d.eol)
	if b, ok := d.find(block); ok {
		at := d.offset(d.lastNonBlank(b) + 1)
		out.Write(data[:at])
		if !markdown.EndsWithNewline(data[:at]) {
			out.WriteString(d.eol)
		}
		out.WriteString(lines)
		out.Write(data[at:])
	} else {
		switch {
		case len(bytes.TrimSpace(data)) == 0:
			out.WriteString("# " + DefaultTitle + d.eol + d.eol)
		default:
			out.Write(data)
			if !markdown.EndsWithNewline(data) {
				out.WriteString(d.eol)
			}
			if len(bytes.TrimSpace(d.lines[len(d.lines)-1])) > 0 {
				out.WriteString(d.eol)
			}
		}
		out.WriteString("## " + strings.TrimSpace(block) + d.eol)
		out.WriteString(lines)
	}
	return finish(d, out.Bytes(), o)
}

// Replace replaces old, which must occur exactly once in the block's body,
// with new (which may be empty, deleting old).
func Replace(data []byte, block, old, new string, o Options) ([]byte, error) {
	if old == "" {
		return nil, fmt.Errorf("%w: the text to replace is empty", ErrInvalid)
	}
	if err := checkText(old, true); err != nil {
		return nil, err
	}
	if err := checkText(new, true); err != nil {
		return nil, err
	}
	d, err := load(data)
	if err != nil {
		return nil, err
	}
	b, ok := d.find(block)
	if !ok {
		return nil, d.noBlock(block)
	}
	start, end := d.offset(b.h+1), d.offset(b.end)
	body := data[start:end]
	if d.eol == "\r\n" {
		old = strings.ReplaceAll(strings.ReplaceAll(old, "\r\n", "\n"), "\n", "\r\n")
		new = strings.ReplaceAll(strings.ReplaceAll(new, "\r\n", "\n"), "\n", "\r\n")
	}
	switch n := bytes.Count(body, []byte(old)); n {
	case 0:
		return nil, fmt.Errorf("%w: %q is not in block %q (it must match exactly, case and spaces included; see `memoria core show %s`)", ErrNotFound, short(old), b.name, quoteArg(b.name))
	case 1:
	default:
		return nil, fmt.Errorf("%w: %q occurs %d times in block %q; give more of the text so that it occurs once", ErrInvalid, short(old), n, b.name)
	}
	i := bytes.Index(body, []byte(old))
	var out bytes.Buffer
	out.Write(data[:start+i])
	out.WriteString(new)
	out.Write(data[start+i+len(old):])
	return finish(d, out.Bytes(), o)
}

// Insert puts text after line n of the block's body (1-based, counting
// from the line after the heading; 0 puts it right after the heading).
func Insert(data []byte, block string, n int, text string, o Options) ([]byte, error) {
	if err := checkBody(text); err != nil {
		return nil, err
	}
	d, err := load(data)
	if err != nil {
		return nil, err
	}
	b, ok := d.find(block)
	if !ok {
		return nil, d.noBlock(block)
	}
	lines := d.lastNonBlank(b) - b.h
	if n < 0 || n > lines {
		return nil, fmt.Errorf("%w: line %d is outside block %q, which has %d lines (insert after 0 to %d)", ErrInvalid, n, b.name, lines, lines)
	}
	at := d.offset(b.h + 1 + n)
	var out bytes.Buffer
	out.Write(data[:at])
	if !markdown.EndsWithNewline(data[:at]) {
		out.WriteString(d.eol)
	}
	out.WriteString(textLines(text, d.eol))
	out.Write(data[at:])
	return finish(d, out.Bytes(), o)
}

// finish checks the edited file: the block structure is unchanged (but for
// one block added) and the size is within the limit.
func finish(before *doc, data []byte, o Options) ([]byte, error) {
	after, err := load(data)
	if err != nil {
		return nil, err
	}
	bn, an := before.names(), after.names()
	if !slices.Equal(bn, an) && !(len(an) == len(bn)+1 && slices.Equal(an[:len(bn)], bn)) {
		return nil, fmt.Errorf("%w: the edit would change the blocks of core memory (from %s to %s): remove headings or code fences from the text", ErrInvalid, strings.Join(quoteAll(bn), ", "), strings.Join(quoteAll(an), ", "))
	}
	if lim := o.limit(); lim > 0 && len(data) > lim && len(data) > len(before.data) {
		return nil, fmt.Errorf("%w: it would be %d bytes, over the %d-byte limit: shorten a block with `memoria core replace`, or raise the limit", ErrTooLarge, len(data), lim)
	}
	return data, nil
}

// checkName validates a block name for creation.
func checkName(name string) error {
	n := strings.TrimSpace(name)
	switch {
	case n == "":
		return fmt.Errorf("%w: the block name is empty", ErrInvalid)
	case len(n) > 100:
		return fmt.Errorf("%w: the block name is %d bytes, over 100", ErrInvalid, len(n))
	case strings.ContainsAny(n, "\r\n"):
		return fmt.Errorf("%w: the block name must be one line", ErrInvalid)
	case strings.HasSuffix(n, "#"):
		return fmt.Errorf("%w: the block name may not end with '#'", ErrInvalid)
	}
	return checkText(n, false)
}

// checkText validates text to write: valid UTF-8, no control characters
// but tab and newline, and (unless empty is allowed) not blank.
func checkText(text string, emptyOK bool) error {
	if !utf8.ValidString(text) {
		return fmt.Errorf("%w: the text is not valid UTF-8", ErrInvalid)
	}
	if !emptyOK && strings.TrimSpace(text) == "" {
		return fmt.Errorf("%w: the text is empty", ErrInvalid)
	}
	for _, r := range text {
		if r != '\n' && r != '\r' && r != '\t' && (unicode.IsControl(r) || r == '\uFEFF') {
			return fmt.Errorf("%w: the text contains the control character %U", ErrInvalid, r)
		}
	}
	return nil
}

// checkBody validates text to add to a block: checkText, and it must
// neither hold a "#" or "##" heading nor leave a code fence open, either of
// which would swallow or split blocks.
func checkBody(text string) error {
	if err := checkText(text, false); err != nil {
		return err
	}
	heads, err := markdown.Headings([]byte(text + "\n\n## probe\n"))
	if err != nil {
		return fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	if len(heads) == 0 || heads[len(heads)-1].Text != "probe" {
		return fmt.Errorf("%w: the text leaves a code fence open", ErrInvalid)
	}
	for _, h := range heads[:len(heads)-1] {
		if h.Level <= 2 {
			return fmt.Errorf("%w: the text holds a level-%d heading %q, which would start a new block (use ### inside a block)", ErrInvalid, h.Level, h.Text)
		}
	}
	return nil
}

// textLines is text as whole lines with the file's line ending, trailing
// white space of the text removed.
func textLines(text, eol string) string {
	text = strings.TrimRight(strings.ReplaceAll(text, "\r\n", "\n"), " \t\r\n")
	text = strings.TrimLeft(text, "\r\n")
	return strings.ReplaceAll(text, "\n", eol) + eol
}

func short(s string) string {
	if len(s) <= 60 {
		return s
	}
	cut := 57
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "..."
}

func quoteAll(ns []string) []string {
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = fmt.Sprintf("%q", n)
	}
	return out
}

func quoteArg(s string) string {
	if strings.ContainsAny(s, " \t'\"") {
		return fmt.Sprintf("%q", s)
	}
	return s
}
