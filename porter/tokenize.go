package porter

import (
	"slices"
	"sort"
	"unicode/utf8"
)

// Rune classes recorded in runeTable.
const (
	classSeparator = 0 // not listed in runeTable
	classToken     = 1 // starts or continues a token (categories L*, N*, Co)
	classDiacritic = 2 // combining diacritic: continues a token, never starts one
)

// Fold kinds recorded in runeTable.
const (
	foldDelta = 0 // fold(c) = c + val
	foldConst = 1 // fold(c) = val
	foldDrop  = 2 // the code point is removed from the token
)

// runeRange describes the code points lo..hi (inclusive) that share a class
// and a fold rule.
type runeRange struct {
	lo, hi uint32
	class  uint8
	kind   uint8
	val    int32
}

// lookup returns the class of code point c (>= 0x80), its folded form,
// and whether that form is kept (false when folding removes c).
func lookup(c uint32) (class uint8, fold uint32, keep bool) {
	if c > utf8.MaxRune {
		// Only malformed UTF-8 (lead bytes F4..FF) decodes above U+10FFFF.
		// SQLite classifies all such values as token characters that fold to
		// themselves (checked by TestOutOfRange).
		return classToken, c, true
	}
	i := sort.Search(len(runeTable), func(i int) bool { return runeTable[i].hi >= c })
	if i == len(runeTable) || runeTable[i].lo > c {
		return classSeparator, c, true
	}
	r := &runeTable[i]
	switch r.kind {
	case foldConst:
		return r.class, uint32(r.val), true
	case foldDrop:
		return r.class, 0, false
	}
	return r.class, uint32(int32(c) + r.val), true
}

// isASCIIToken reports whether ASCII byte b is a token character.
func isASCIIToken(b byte) bool {
	return 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9'
}

// decodeRune reads one code point at s[i:] the way SQLite's READ_UTF8 macro
// does, which differs from utf8.DecodeRuneInString on malformed input: a
// stray continuation byte 0x80..0xBF stands for itself (U+0080..U+00BF), a
// lead byte absorbs every continuation byte that follows it, and overlong
// forms, surrogates, U+FFFE and U+FFFF become U+FFFD. It returns the code
// point and the index just after it.
func decodeRune(s string, i int) (uint32, int) {
	c := uint32(s[i])
	i++
	if c < 0xC0 {
		return c, i
	}
	switch {
	case c < 0xE0:
		c -= 0xC0
	case c < 0xF0:
		c -= 0xE0
	case c < 0xF8:
		c -= 0xF0
	case c < 0xFC:
		c -= 0xF8
	case c < 0xFE:
		c -= 0xFC
	default:
		c = 0
	}
	for i < len(s) && s[i]&0xC0 == 0x80 {
		c = c<<6 + uint32(s[i]&0x3F)
		i++
	}
	if c < 0x80 || c&0xFFFFF800 == 0xD800 || c&0xFFFFFFFE == 0xFFFE {
		c = 0xFFFD
	}
	return c, i
}

// appendRune appends c UTF-8 encoded as SQLite's WRITE_UTF8 macro does.
func appendRune(b []byte, c uint32) []byte {
	if c <= utf8.MaxRune {
		return utf8.AppendRune(b, rune(c))
	}
	// A value above U+10FFFF, decoded from malformed input: like
	// WRITE_UTF8, keep its low 21 bits in a 4-byte sequence.
	return append(b, 0xF0+byte(c>>18&0x07), 0x80+byte(c>>12&0x3F), 0x80+byte(c>>6&0x3F), 0x80+byte(c&0x3F))
}

// Tokens splits text into the terms FTS5 derives from it with
// tokenize='porter unicode61 remove_diacritics 2': unicode61 token
// boundaries (letters, numbers and private-use characters are token
// characters, everything else separates; combining diacritics continue a
// token), case folding, diacritic removal, then Stem on each token. The
// terms are returned in text order, duplicates included.
func Tokens(text string) []string {
	var out []string
	Each(text, func(term []byte) { out = append(out, string(term)) })
	return out
}

// Each calls fn with every term of text, as Tokens returns them, without
// allocating a string per term: indexers that count or intern terms use
// it. The slice is only valid during the call.
func Each(text string, fn func(term []byte)) {
	EachToken(text, func(token []byte) { fn(stemBytes(token)) })
}

// EachToken calls fn with every token of text before stemming: split,
// case-folded and without diacritics. StemToken(token) is then its term.
// Indexers that see the same words again and again keep the term of each
// token they met, and stem only new ones. The slice is only valid during
// the call.
func EachToken(text string, fn func(token []byte)) {
	var buf []byte
	i := 0
	for i < len(text) {
		// Skip separators up to the first character of a token.
		var first uint32
		found := false
		for i < len(text) {
			if b := text[i]; b < 0x80 {
				i++
				if isASCIIToken(b) {
					first, found = uint32(b), true
					break
				}
				continue
			}
			var c uint32
			c, i = decodeRune(text, i)
			if cls, _, _ := lookup(c); cls == classToken {
				first, found = c, true
				break
			}
		}
		if !found {
			break
		}
		buf = appendFolded(buf[:0], first)
		// Gather the rest of the token.
		for i < len(text) {
			if b := text[i]; b < 0x80 {
				if !isASCIIToken(b) {
					break
				}
				buf = appendFolded(buf, uint32(b))
				i++
				continue
			}
			c, next := decodeRune(text, i)
			i = next // a non-ASCII separator is consumed with the token end
			if cls, _, _ := lookup(c); cls == classSeparator {
				break
			}
			buf = appendFolded(buf, c)
		}
		if len(buf) > 0 {
			buf = slices.Grow(buf, 1) // room for the 'e' step 1b may add
			fn(buf)
		}
	}
}

// StemToken stems a token from EachToken in place and returns its term,
// which shares the token's memory.
func StemToken(token []byte) []byte {
	return stemBytes(slices.Grow(token, 1))
}

// appendFolded appends the case-folded, diacritic-free form of c.
func appendFolded(b []byte, c uint32) []byte {
	if c < 0x80 {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		return append(b, byte(c))
	}
	if _, f, keep := lookup(c); keep {
		return appendRune(b, f)
	}
	return b
}
