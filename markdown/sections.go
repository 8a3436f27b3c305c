package markdown

import "memoria/memory"

// Heading is an ATX heading as the parser reads it.
type Heading struct {
	Line   int    // 1-based line number
	Level  int    // 1 to 6
	Text   string // the heading's text, closing '#' run removed
	Retain bool   // a level-2 heading that opens a Retain section
}

// Headings returns the headings of a Markdown file in order, exactly as
// Parse sees them: lines inside fenced code blocks, list items or front
// matter are not headings. Writers use it to find a file's Retain section
// or core-memory blocks without re-implementing the grammar. Line numbers
// count '\n'-terminated lines from 1, as in citations. It fails only for
// binary content (ErrBinary).
func Headings(data []byte) ([]Heading, error) {
	var hs []Heading
	if _, err := ParseWith("headings.md", data, Options{headings: &hs}); err != nil {
		return nil, err
	}
	return hs, nil
}

// Prefix is the head of a typed fact bullet's text, as in "O(c=0.95)
// @Peter: …".
type Prefix struct {
	Kind          memory.Kind
	Confidence    float64 // meaningful only when HasConfidence
	HasConfidence bool
	// BadConfidence is the confidence as written when it is not a number
	// from 0 to 1 ("1.7", "high"); the fact then has no confidence.
	BadConfidence string
	// Rest is the text after the prefix and its separator, @mentions
	// included.
	Rest string
}

// ParsePrefix reads the kind letter and optional confidence at the start
// of a bullet's text (the text after "- "). It reports false when the text
// does not start with a typed-fact prefix (see the package documentation).
func ParsePrefix(text string) (Prefix, bool) {
	p, ok := parsePrefix(text)
	if !ok {
		return Prefix{}, false
	}
	return Prefix{Kind: p.kind, Confidence: p.confidence, HasConfidence: p.hasConfidence,
		BadConfidence: p.badConfidence, Rest: p.rest}, true
}
