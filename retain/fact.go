package retain

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"memoria/markdown"
	"memoria/memory"
)

// MaxFactBytes bounds one fact, prefix included.
const MaxFactBytes = 4 << 10

// ErrInvalid is wrapped by every validation error.
var ErrInvalid = errors.New("invalid fact")

// Fact is a validated fact, ready to be written as a bullet.
type Fact struct {
	Line          string // the bullet's text, without "- ": "O(c=0.8) @Peter: Prefers tea."
	Kind          memory.Kind
	Confidence    float64
	HasConfidence bool
	Entities      []string
	Text          string // the statement without prefix and leading @mentions
}

// Bullet is the Markdown line of the fact.
func (f Fact) Bullet() string { return "- " + f.Line }

// invalid returns a validation error: one line, wrapping ErrInvalid.
func invalid(format string, args ...any) error {
	return invalidError(fmt.Sprintf(format, args...))
}

// invalidError is a validation message that wraps ErrInvalid without
// repeating it.
type invalidError string

func (e invalidError) Error() string { return string(e) }
func (e invalidError) Unwrap() error { return ErrInvalid }

const example = `"W @Peter: Lives in Vienna."`

// Validate checks one fact in the Retain grammar, as typed: a kind letter
// (W, B, O or S), for opinions an optional confidence "(c=0.8)" from 0 to
// 1, entities as @Slug, and some text, on one line of valid UTF-8 no longer
// than MaxFactBytes. A leading "- " is accepted. The error says in one line
// what is wrong.
func Validate(text string) (Fact, error) {
	if len(text) > MaxFactBytes {
		return Fact{}, invalid("fact is %d bytes, over the %d-byte limit: split it into smaller facts", len(text), MaxFactBytes)
	}
	if !utf8.ValidString(text) {
		off := 0
		for off < len(text) {
			r, size := utf8.DecodeRuneInString(text[off:])
			if r == utf8.RuneError && size <= 1 {
				break
			}
			off += size
		}
		return Fact{}, invalid("fact is not valid UTF-8 (bad byte 0x%02x at offset %d)", text[off], off)
	}
	line := strings.TrimSpace(text)
	if line != "" && strings.ContainsRune("-*+", rune(line[0])) && (len(line) == 1 || line[1] == ' ' || line[1] == '\t') {
		line = strings.TrimSpace(line[1:])
	}
	if line == "" {
		return Fact{}, invalid("empty fact: want e.g. %s", example)
	}
	for _, r := range line {
		switch {
		case r == '\n' || r == '\r':
			return Fact{}, invalid("a fact is one line: give several facts one per line")
		case r != '\t' && (unicode.IsControl(r) || r == '\u2028' || r == '\u2029' || r == '\uFEFF'):
			return Fact{}, invalid("fact contains the control character %U", r)
		}
	}
	pre, ok := markdown.ParsePrefix(line)
	if !ok {
		return Fact{}, prefixError(line)
	}
	if pre.BadConfidence != "" {
		return Fact{}, invalid("c=%s: confidence must be between 0 and 1", pre.BadConfidence)
	}
	if pre.HasConfidence && pre.Kind != memory.KindOpinion {
		return Fact{}, invalid("%s: only opinions (O) carry a confidence", line[:strings.IndexByte(line, ')')+1])
	}
	// The parser is the judge: the bullet must read back as exactly one
	// fact, without warnings.
	doc, err := markdown.Parse("memory/2000-01-01.md", []byte("## Retain\n- "+line+"\n"))
	if err != nil {
		return Fact{}, invalid("%v", err)
	}
	if len(doc.Warnings) > 0 { // the first problem is the one to report
		w := doc.Warnings[0]
		msg := strings.TrimPrefix(w.Message, "@mention ignored: ")
		if strings.HasPrefix(w.Message, "typed fact has no text") {
			msg = fmt.Sprintf("fact has no text after %q: want e.g. %s", strings.TrimSpace(line), example)
		}
		return Fact{}, invalid("%s", msg)
	}
	if len(doc.Facts) != 1 {
		return Fact{}, invalid("fact has no text after %q: want e.g. %s", line, example)
	}
	f := doc.Facts[0]
	return Fact{Line: line, Kind: f.Kind, Confidence: f.Confidence, HasConfidence: f.HasConfidence,
		Entities: f.Entities, Text: f.Text}, nil
}

// prefixError explains why line does not start with a typed-fact prefix.
func prefixError(line string) error {
	r, size := utf8.DecodeRuneInString(line)
	next := line[size:]
	letterLike := unicode.IsLetter(r) && (next == "" || next[0] == ' ' || next[0] == ':' || next[0] == '(' || next[0] == '\t')
	switch {
	case letterLike && unicode.IsLower(r) && strings.ContainsRune("wbos", r):
		return invalid("kind letter %q must be upper case: %q", r, string(unicode.ToUpper(r)))
	case letterLike && next != "" && next[0] == '(':
		if _, ok := memory.KindFromLetter(byte(r)); ok {
			return invalid("%q: want a confidence as (c=0.8), then a space", strings.Fields(line)[0])
		}
		fallthrough
	case letterLike:
		return invalid("unknown kind letter %q: want W (world), B (experience), O (opinion, O(c=0.8)) or S (observation)", r)
	}
	return invalid("a fact starts with a kind letter, W, B, O(c=0.8) or S: want e.g. %s", example)
}
