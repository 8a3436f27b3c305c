package markdown

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"memoria/memory"
)

// prefix is the parsed head of a typed fact bullet: "W", "O(c=0.95)", …
type prefix struct {
	kind          memory.Kind
	confidence    float64
	hasConfidence bool
	badConfidence string // the unusable confidence as written, if any
	rest          string // the text after the prefix and its separator
}

// parsePrefix reads the kind letter and optional confidence at the start of
// a bullet's text. It reports false when t does not follow the grammar:
// a letter W, B, O or S, optionally "(c=N)" (spaces allowed inside and
// before the parenthesis), then a space, a tab, ':' or the end of the text.
func parsePrefix(t string) (prefix, bool) {
	if t == "" {
		return prefix{}, false
	}
	kind, ok := memory.KindFromLetter(t[0])
	if !ok {
		return prefix{}, false
	}
	p := prefix{kind: kind}
	rest := t[1:]
	if group, after, ok := confidenceGroup(rest); ok {
		p.confidence, p.hasConfidence = parseConfidence(group)
		if !p.hasConfidence {
			p.badConfidence = strings.TrimSpace(group)
		}
		rest = after
	}
	if rest != "" && rest[0] != ' ' && rest[0] != '\t' && rest[0] != ':' {
		return prefix{}, false
	}
	rest = strings.TrimLeft(rest, " \t")
	if rest != "" && rest[0] == ':' {
		rest = strings.TrimLeft(rest[1:], " \t")
	}
	p.rest = rest
	return p, true
}

// confidenceGroup finds a "(c=…)" group at the start of s, allowing spaces
// before the parenthesis and around 'c' and '='. It returns the text after
// '=' and the text after ')'.
func confidenceGroup(s string) (value, after string, ok bool) {
	t := strings.TrimLeft(s, " \t")
	if t == "" || t[0] != '(' {
		return "", "", false
	}
	end := strings.IndexByte(t, ')')
	if end < 0 {
		return "", "", false
	}
	inner := strings.TrimSpace(t[1:end])
	if inner == "" || (inner[0] != 'c' && inner[0] != 'C') {
		return "", "", false
	}
	inner = strings.TrimLeft(inner[1:], " \t")
	if inner == "" || inner[0] != '=' {
		return "", "", false
	}
	return inner[1:], t[end+1:], true
}

// parseConfidence reads a confidence in [0, 1].
func parseConfidence(s string) (float64, bool) {
	c, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || math.IsNaN(c) || c < 0 || c > 1 {
		return 0, false
	}
	return c, true
}

// mentionToken reads the slug of an @mention from s, which follows the '@':
// the longest run of slug runes (and of '/' and '\\', so that a path such as
// "@../../etc" is seen whole and rejected rather than cut short), with
// trailing '.', '-' and '_' removed. It returns the slug and the number of
// bytes of s the run spans.
func mentionToken(s string) (slug string, n int) {
	for n < len(s) {
		c := s[n]
		if c < utf8.RuneSelf {
			if c == '/' || c == '\\' || c == '-' || c == '_' || c == '.' ||
				('0' <= c && c <= '9') || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') {
				n++
				continue
			}
			break
		}
		r, size := utf8.DecodeRuneInString(s[n:])
		if !memory.IsSlugRune(r) {
			break
		}
		n += size
	}
	return strings.TrimRight(s[:n], ".-_"), n
}

// isSlugBefore reports whether the rune ending s is a slug rune, in which
// case an '@' after it is part of a word (an e-mail address), not a mention.
func isSlugBefore(s string) bool {
	if s == "" {
		return false
	}
	r, _ := utf8.DecodeLastRuneInString(s)
	return memory.IsSlugRune(r)
}

// unclosed remembers the lengths of backtick runs found to have no closing
// run later on a line, so that a line is never searched twice for one
// length; it keeps the scan of a line with many backtick runs near linear.
type unclosed struct {
	short uint64       // lengths 1 to 63
	long  map[int]bool // longer ones
}

func (u *unclosed) has(k int) bool {
	if k < 64 {
		return u.short&(1<<k) != 0
	}
	return u.long[k]
}

func (u *unclosed) add(k int) {
	if k < 64 {
		u.short |= 1 << k
		return
	}
	if u.long == nil {
		u.long = make(map[int]bool)
	}
	u.long[k] = true
}

// codeSpanEnd returns, for a run of k backticks starting at s[i], the index
// just past the matching closing run of exactly k backticks, or -1 when the
// run is not closed on the line (and is then literal text).
func codeSpanEnd(s string, i, k int, u *unclosed) int {
	if u.has(k) {
		return -1
	}
	if end := closingRun(s, i+k, k); end >= 0 {
		return end
	}
	u.add(k)
	return -1
}

// closingRun returns the index just past the first run of exactly k
// backticks in s at or after j, or -1 if there is none.
func closingRun(s string, j, k int) int {
	for j < len(s) {
		off := strings.IndexByte(s[j:], '`')
		if off < 0 {
			return -1
		}
		j += off
		m := 0
		for j+m < len(s) && s[j+m] == '`' {
			m++
		}
		if m == k {
			return j + m
		}
		j += m
	}
	return -1
}

// Mentions returns the @mentions of a line of text as the parser reads
// them: not inside code spans, not the part of an e-mail address or a
// handle after its '@' ("kesarcrumb@okaxis"), and only slugs that are safe
// to be file names.
func Mentions(s string) []string {
	p := parser{doc: &memory.Document{}}
	return p.mentions(s, 0, nil)
}

// mentions appends to ents the safe @mentions in s (outside inline code
// spans), skipping ones already present, and records a warning for each
// unsafe one. line is s's 1-based line number.
func (p *parser) mentions(s string, line int, ents []string) []string {
	if strings.IndexByte(s, '@') < 0 {
		return ents
	}
	var u unclosed
	for i := 0; i < len(s); {
		switch s[i] {
		case '`':
			k := 1
			for i+k < len(s) && s[i+k] == '`' {
				k++
			}
			if end := codeSpanEnd(s, i, k, &u); end >= 0 {
				i = end
			} else {
				i += k
			}
		case '@':
			if isSlugBefore(s[:i]) {
				i++
				continue
			}
			slug, n := mentionToken(s[i+1:])
			ents = p.addMention(ents, slug, line)
			i += 1 + n
		default:
			i++
		}
	}
	return ents
}

// addMention validates slug and appends it to ents unless it is empty,
// unsafe (a warning is recorded instead) or already present.
func (p *parser) addMention(ents []string, slug string, line int) []string {
	if slug == "" {
		return ents
	}
	slug = memory.NormalizeSlug(slug)
	if err := memory.ValidateSlug(slug); err != nil {
		p.warn(line, "@mention ignored: "+err.Error())
		return ents
	}
	if hasEntity(ents, slug) {
		return ents
	}
	// Clone the slug, a slice of the file's text, so that the Document
	// does not keep the whole text alive.
	return addEntity(ents, strings.Clone(slug))
}

// hasEntity reports whether ents holds slug, ignoring case.
func hasEntity(ents []string, slug string) bool {
	for _, e := range ents {
		if strings.EqualFold(e, slug) {
			return true
		}
	}
	return false
}

// addEntity appends slug to ents unless an equal slug (ignoring case) is
// already there.
func addEntity(ents []string, slug string) []string {
	if hasEntity(ents, slug) {
		return ents
	}
	if ents == nil {
		ents = make([]string, 0, 4)
	}
	return append(ents, slug)
}

// leadingMentions splits a leading run of @mentions ending in ':' off a
// fact's text, as in "@Peter @Andy: text". It returns the slugs as written
// (not yet validated) and the text after the ':'; ok is false when t does
// not start with such a run, and t is then kept whole.
func leadingMentions(t string) (slugs []string, rest string, ok bool) {
	i := 0
	for {
		for i < len(t) && (t[i] == ' ' || t[i] == '\t' || t[i] == ',') {
			i++
		}
		if i >= len(t) || t[i] != '@' {
			break
		}
		slug, n := mentionToken(t[i+1:])
		if n == 0 {
			return nil, t, false
		}
		slugs = append(slugs, slug)
		i += 1 + n
	}
	if len(slugs) == 0 || i >= len(t) || t[i] != ':' {
		return nil, t, false
	}
	return slugs, strings.TrimSpace(t[i+1:]), true
}
