package markdown

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"
	"unicode/utf8"

	"memoria/memory"
)

// ErrBinary is returned, wrapped with the file's path, for content that is
// not text (IsBinary).
var ErrBinary = errors.New("binary content")

// BinarySniffLen is how many leading bytes are searched for NUL bytes to
// tell binary content from text.
const BinarySniffLen = 8 << 10

// IsBinary reports whether data is binary content rather than text: its
// first BinarySniffLen bytes hold at least 8 NUL bytes, or NULs make 1 %
// of them. Binary formats are full of NULs from their first bytes on; a
// stray NUL in a log (a paste, a bad editor) is text with a flaw, read with
// the NUL replaced, not a reason to drop the whole file.
func IsBinary(data []byte) bool {
	head := data[:min(len(data), BinarySniffLen)]
	n := bytes.Count(head, []byte{0})
	return n >= 8 || (n > 0 && n*100 >= len(head))
}

// DefaultMaxPassageLines is the default bound on the lines of one passage.
const DefaultMaxPassageLines = 3

// Options tunes the parser. The zero value is ready to use.
type Options struct {
	// MaxPassageLines bounds the lines of a passage: a longer unit (list
	// item, paragraph, code block or table) is split into consecutive
	// windows of at most this many lines. Zero or less means
	// DefaultMaxPassageLines.
	MaxPassageLines int

	// headings, when set, collects the headings the parser reads (see
	// Headings).
	headings *[]Heading
}

// Parse reads the Markdown file at the workspace-relative, slash-separated
// path rel with default Options. See the package documentation for the
// grammar.
func Parse(rel string, data []byte) (*memory.Document, error) {
	return ParseWith(rel, data, Options{})
}

// ParseWith reads the Markdown file at the workspace-relative,
// slash-separated path rel. It fails only for binary content (ErrBinary);
// every other problem is reported as a Warning in the Document. The path
// decides the file's role (memory.ClassifyPath): a path Memoria would not
// index is parsed as memory.FileOther.
func ParseWith(rel string, data []byte, opts Options) (*memory.Document, error) {
	if IsBinary(data) {
		return nil, fmt.Errorf("markdown: parse %s: %w", rel, ErrBinary)
	}
	rel = path.Clean(strings.ReplaceAll(rel, "\\", "/"))
	kind, date, ok := memory.ClassifyPath(rel)
	if !ok {
		kind = memory.FileOther
	}
	p := &parser{
		doc: &memory.Document{Path: rel, Kind: kind, Date: date},
		max: opts.MaxPassageLines,

		headings: opts.headings,
	}
	if p.max <= 0 {
		p.max = DefaultMaxPassageLines
	}
	if !utf8.Valid(data) {
		p.warn(1+bytes.Count(data[:firstInvalid(data)], []byte{'\n'}),
			"invalid UTF-8 replaced by U+FFFD")
	}
	if i := bytes.IndexByte(data, 0); i >= 0 {
		p.warn(1+bytes.Count(data[:i], []byte{'\n'}), "NUL bytes replaced by U+FFFD")
	}
	p.lines = Lines(data)
	p.code = make([]bool, len(p.lines))

	switch kind {
	case memory.FileCore, memory.FileBank, memory.FileOpinions, memory.FileEntity:
		p.typedAnywhere = true
	}
	p.textOnly = kind.TextOnly()
	switch rel {
	case "bank/world.md":
		p.defaultKind = memory.KindWorld
	case "bank/experience.md":
		p.defaultKind = memory.KindExperience
	}

	fm := parseFrontMatter(p.lines)
	if kind == memory.FileEntity {
		base := path.Base(rel)
		slug := memory.NormalizeSlug(base[:len(base)-len(path.Ext(base))])
		if err := memory.ValidateSlug(slug); err != nil {
			p.warn(0, "no entity page: "+err.Error())
		} else {
			p.page = slug
		}
	}
	p.doc.Passages = make([]memory.Passage, 0, len(p.lines)/3+1)
	if p.textOnly {
		// Front matter is the file's own text too (Claude Code's memory
		// files describe themselves in it).
		fm.end = 0
	}
	p.run(fm.end)
	if p.suppressed > 0 {
		w := &p.doc.Warnings[MaxWarnings]
		w.Message = fmt.Sprintf("%d more warnings from this line on not shown", p.suppressed)
	}
	if p.page != "" {
		// Clone what front matter yields, so that the Document does not
		// keep the whole file's text alive.
		name := cmp.Or(strings.Clone(fm.name), strings.Clone(fm.title), p.h1, memory.EntityName(p.page))
		for i, a := range fm.aliases {
			fm.aliases[i] = strings.Clone(a)
		}
		for _, a := range proseAliases(p.lines, fm.end) {
			fm.aliases = appendAliases(fm.aliases, strings.Clone(a))
		}
		p.doc.Entity = &memory.EntityPage{Slug: p.page, Name: name, Aliases: fm.aliases, Path: p.doc.Path}
	}
	slices.SortStableFunc(p.doc.Warnings, func(a, b memory.Warning) int { return cmp.Compare(a.Line, b.Line) })
	return p.doc, nil
}

// firstInvalid returns the offset of the first byte of data that is not
// part of valid UTF-8.
func firstInvalid(data []byte) int {
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size <= 1 {
			return i
		}
		i += size
	}
	return len(data)
}

// parser holds the state of one Parse call.
type parser struct {
	doc   *memory.Document
	max   int      // MaxPassageLines
	lines []string // the file's lines, trailing white space removed
	code  []bool   // lines inside a fenced code block, fences included

	typedAnywhere bool        // typed facts are recognised outside Retain sections
	textOnly      bool        // memory.FileKind.TextOnly: no facts, Retain sections or headings
	entry         entryMark   // the USER.md mark of the lines being read
	defaultKind   memory.Kind // the kind of an untyped top-level bullet, if any
	page          string      // the entity page's slug; "" if none
	headings      *[]Heading  // collects headings when set

	section string // the text of the nearest heading above
	retain  bool   // inside a Retain section
	h1      string // the text of the first level-1 heading

	suppressed int // warnings past MaxWarnings
}

// MaxWarnings bounds the warnings kept for one file; past it, a last
// warning says how many more there were.
const MaxWarnings = 100

// warn records a non-fatal problem at a 1-based line (0 for the whole file).
func (p *parser) warn(line int, msg string) {
	switch n := len(p.doc.Warnings); {
	case n < MaxWarnings:
		p.doc.Warnings = append(p.doc.Warnings, memory.Warning{Line: line, Message: msg})
	case n == MaxWarnings:
		p.doc.Warnings = append(p.doc.Warnings, memory.Warning{Line: line})
		fallthrough
	default:
		p.suppressed++
	}
}

// source cites the 0-based lines first through last, inclusive.
func (p *parser) source(first, last int) memory.Source {
	return memory.Source{Path: p.doc.Path, Start: first + 1, End: last + 1}
}

// run parses the lines from start (just after any front matter) to the end.
func (p *parser) run(start int) {
	lines := p.lines
	for i := start; i < len(lines); {
		s := lines[i]
		if s == "" {
			i++
			continue
		}
		w, off := IndentWidth(s)
		t := s[off:]
		if w <= 3 && !p.textOnly && strings.HasPrefix(t, ManagedBegin) {
			if j := p.managedEnd(i); j > 0 {
				i = j
				continue
			}
		}
		if w <= 3 && p.readMark(i, t) {
			i++
			continue
		}
		if w <= 3 {
			if f, ok := openFence(t); ok {
				i = p.codeBlock(i, f)
				continue
			}
			if level, text, ok := heading(s); ok {
				p.heading(i, level, text)
				i++
				continue
			}
			if thematicBreak(s) {
				p.entry = entryMark{}
				i++
				continue
			}
		}
		if _, _, ok := ListMarker(t); ok {
			end := p.itemEnd(i)
			p.item(i, end, w == 0)
			i = end
			continue
		}
		j := i + 1
		if w <= 3 && t[0] == '|' {
			for j < len(lines) && isTableRow(lines[j]) {
				j++
			}
		} else {
			for j < len(lines) && continuesParagraph(lines[j]) && !p.isMark(lines[j]) {
				j++
			}
		}
		if j == i+1 && isTemplateLine(s) {
			i = j
			continue
		}
		p.passages(i, j)
		i = j
	}
}

// continuesParagraph reports whether s, following a paragraph line, belongs
// to the same paragraph: it is not blank and starts no other block.
func continuesParagraph(s string) bool {
	if s == "" {
		return false
	}
	w, off := IndentWidth(s)
	t := s[off:]
	if _, _, ok := ListMarker(t); ok {
		return false
	}
	if w > 3 {
		return true
	}
	if _, ok := openFence(t); ok {
		return false
	}
	if _, _, ok := heading(s); ok {
		return false
	}
	return !thematicBreak(s) && t[0] != '|'
}

// heading reads the heading on line i: it becomes the current section and
// opens or closes a Retain section (a level-2 heading whose text starts
// with "retain", in any case, lasting until the next heading of level 2 or
// less). In a file read as text only it is a passage instead, and ends
// the USER.md entry above it.
func (p *parser) heading(i, level int, text string) {
	if p.textOnly {
		p.entry = entryMark{}
		p.passages(i, i+1)
		return
	}
	p.setSection(level, text)
	if p.headings != nil {
		*p.headings = append(*p.headings, Heading{Line: i + 1, Level: level, Text: p.section, Retain: level == 2 && p.retain})
	}
}

// setSection makes a heading the current section and opens or closes a
// Retain section.
func (p *parser) setSection(level int, text string) {
	text = strings.Clone(text)
	p.section = text
	if level <= 2 {
		p.retain = level == 2 && len(text) >= 6 && strings.EqualFold(text[:6], "retain")
	}
	if level == 1 && p.h1 == "" {
		p.h1 = text
	}
}

// codeBlock indexes the fenced code block opened on line i as passages
// (the fence lines themselves excluded) and returns the line after its
// closing fence. A block never closed runs to the end of the file.
func (p *parser) codeBlock(i int, f fence) int {
	j := i + 1
	for ; j < len(p.lines); j++ {
		w, off := IndentWidth(p.lines[j])
		if w <= 3 && f.closes(p.lines[j][off:]) {
			break
		}
	}
	for k := i; k <= j && k < len(p.lines); k++ {
		p.code[k] = true
	}
	p.passages(i+1, j)
	return min(j+1, len(p.lines))
}

// itemEnd returns the line after the list item starting on line i: the
// item runs on over indented lines (nested items included), over blank
// lines followed by an indented line, and over fenced code opened inside
// it until that code's closing fence.
func (p *parser) itemEnd(i int) int {
	lines := p.lines
	var f fence
	inFence := false
	j := i + 1
	for j < len(lines) {
		s := lines[j]
		if inFence {
			p.code[j] = true
			_, off := IndentWidth(s)
			inFence = !f.closes(s[off:])
			j++
			continue
		}
		if s == "" {
			k := j + 1
			for k < len(lines) && lines[k] == "" {
				k++
			}
			if k < len(lines) && isIndented(lines[k]) {
				j = k
				continue
			}
			break
		}
		if !isIndented(s) {
			break
		}
		_, off := IndentWidth(s)
		if f, inFence = openFence(s[off:]); inFence {
			p.code[j] = true
		}
		j++
	}
	return j
}

// item indexes the list item on lines [i, end): as a typed fact (with any
// sub-items as passages) where the grammar and the file allow one,
// otherwise as passages. top reports whether the item is unindented.
func (p *parser) item(i, end int, top bool) {
	s := p.lines[i]
	_, off := IndentWidth(s)
	content, bullet, _ := ListMarker(s[off:])
	if top && (p.typedAnywhere || p.retain) {
		text := s[off+content:]
		pre, typed := parsePrefix(text)
		explicit := typed
		if !typed && p.defaultKind != "" {
			pre, typed = prefix{kind: p.defaultKind, rest: strings.TrimSpace(text)}, true
		}
		switch {
		case bullet && typed:
			if p.fact(i, end, pre, explicit) {
				return
			}
		case p.retain:
			p.warn(i+1, "list item in Retain section is not a typed fact "+
				"(want \"- W\", \"- B\", \"- O(c=0.9)\" or \"- S\"): indexed as a passage")
		}
	}
	p.passages(i, end)
}

// fact indexes the typed bullet starting on line i, of the item ending
// before line end, with its continuation lines; the rest of the item
// becomes passages. It reports false, having indexed nothing, when the
// fact has no text.
func (p *parser) fact(i, end int, pre prefix, explicit bool) bool {
	last := i
	for j := i + 1; j < end; j++ {
		s := p.lines[j]
		if !isIndented(s) {
			break
		}
		_, off := IndentWidth(s)
		t := s[off:]
		if _, _, ok := ListMarker(t); ok {
			break
		}
		if _, ok := openFence(t); ok {
			break
		}
		last = j
	}

	body := pre.rest
	lead, rest, stripped := leadingMentions(body)
	if stripped {
		body = rest
	}
	var b strings.Builder
	size := len(body)
	for j := i + 1; j <= last; j++ {
		size += 1 + len(p.lines[j])
	}
	b.Grow(size)
	b.WriteString(strings.TrimSpace(body))
	for j := i + 1; j <= last; j++ {
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(strings.TrimSpace(p.lines[j]))
	}
	text := b.String()
	if text == "" {
		if explicit {
			p.warn(i+1, "typed fact has no text: indexed as a passage")
		}
		return false
	}

	var ents []string
	for _, slug := range lead {
		ents = p.addMention(ents, slug, i+1)
	}
	ents = p.mentions(body, i+1, ents)
	for j := i + 1; j <= last; j++ {
		ents = p.mentions(p.lines[j], j+1, ents)
	}
	if p.page != "" {
		ents = addEntity(ents, p.page)
	}
	if pre.badConfidence != "" {
		p.warn(i+1, fmt.Sprintf("confidence %q is not a number from 0 to 1: fact kept without confidence",
			pre.badConfidence))
	}
	if p.doc.Facts == nil {
		p.doc.Facts = make([]memory.Fact, 0, 8)
	}
	p.doc.Facts = append(p.doc.Facts, memory.Fact{
		ID:            memory.FactID(pre.kind, text, ents),
		Kind:          pre.kind,
		Confidence:    pre.confidence,
		HasConfidence: pre.hasConfidence,
		Entities:      ents,
		Text:          text,
		Source:        p.source(i, last),
		Written:       p.doc.Date,
		Event:         EventTime(text, p.doc.Date),
	})
	p.subItems(last+1, end)
	return true
}

// passages indexes lines [start, end) as one unit: consecutive windows of
// at most p.max lines, none starting or ending with a blank line.
func (p *parser) passages(start, end int) {
	for i := start; ; {
		for i < end && p.lines[i] == "" {
			i++
		}
		if i >= end {
			return
		}
		j := min(i+p.max, end)
		k := j
		for p.lines[k-1] == "" {
			k--
		}
		p.passage(i, k)
		i = j
	}
}

// passage indexes lines [start, end) as one passage.
func (p *parser) passage(start, end int) {
	size := end - start - 1
	for _, s := range p.lines[start:end] {
		size += len(s)
	}
	var b strings.Builder
	b.Grow(size)
	var ents []string
	for j := start; j < end; j++ {
		if j > start {
			b.WriteByte('\n')
		}
		b.WriteString(p.lines[j])
		if !p.code[j] {
			ents = p.mentions(p.lines[j], j+1, ents)
		}
	}
	if p.page != "" {
		ents = addEntity(ents, p.page)
	}
	p.doc.Passages = append(p.doc.Passages, memory.Passage{
		Source:   p.source(start, end-1),
		Text:     b.String(),
		Section:  p.section,
		Written:  p.doc.Date,
		Entities: ents,
		Event:    p.entry.observed,
		Status:   p.entry.status,
	})
}
