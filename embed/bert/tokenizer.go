package bert

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// Tokenizer is BERT's uncased WordPiece tokenizer as the model's tokenizer.json
// configures it (BertNormalizer with clean_text, handle_chinese_chars and lowercase,
// accents stripped; BertPreTokenizer; WordPiece with "##" continuations and at most 100
// characters per word). It is safe for concurrent use.
type Tokenizer struct {
	ids             map[string]int
	pieces          []string
	unk, cls, sep   int
	maxCharsPerWord int
}

func newTokenizer(vocab []string) (*Tokenizer, error) {
	t := &Tokenizer{ids: make(map[string]int, len(vocab)), pieces: vocab, maxCharsPerWord: 100}
	for i, p := range vocab {
		if _, dup := t.ids[p]; !dup {
			t.ids[p] = i
		}
	}
	var ok [3]bool
	t.unk, ok[0] = t.ids["[UNK]"]
	t.cls, ok[1] = t.ids["[CLS]"]
	t.sep, ok[2] = t.ids["[SEP]"]
	if !ok[0] || !ok[1] || !ok[2] {
		return nil, errBadVocab
	}
	return t, nil
}

// Piece returns the vocabulary entry of id.
func (t *Tokenizer) Piece(id int) string {
	if id < 0 || id >= len(t.pieces) {
		return ""
	}
	return t.pieces[id]
}

// content returns the ids of text's pieces, without [CLS] and [SEP].
func (t *Tokenizer) content(text string) []int {
	var ids []int
	for _, w := range preTokenize(normalize(text)) {
		ids = t.wordPieces(w, ids)
	}
	return ids
}

// wordPieces appends the pieces of one word: the longest vocabulary entry from the
// start, then the longest "##" entry from there, and so on; a word that cannot be cut
// whole, or is longer than maxCharsPerWord, is [UNK].
func (t *Tokenizer) wordPieces(word string, ids []int) []int {
	runes := []rune(word)
	if len(runes) > t.maxCharsPerWord {
		return append(ids, t.unk)
	}
	n := len(ids)
	var b strings.Builder
	for start := 0; start < len(runes); {
		end, found := len(runes), -1
		for ; end > start; end-- {
			b.Reset()
			if start > 0 {
				b.WriteString("##")
			}
			b.WriteString(string(runes[start:end]))
			if id, ok := t.ids[b.String()]; ok {
				found = id
				break
			}
		}
		if found < 0 {
			return append(ids[:n], t.unk)
		}
		ids = append(ids, found)
		start = end
	}
	return ids
}

// normalize is BertNormalizer: control characters, U+0000 and U+FFFD removed, white
// space made a space, CJK ideographs set apart by spaces, accents stripped (NFD without
// nonspacing marks) and letters lower-cased.
func normalize(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 8)
	for _, r := range s {
		switch {
		case r == 0 || r == unicode.ReplacementChar || isControl(r):
		case isWhitespace(r):
			b.WriteByte(' ')
		case isCJK(r):
			b.WriteByte(' ')
			b.WriteRune(r)
			b.WriteByte(' ')
		default:
			b.WriteRune(r)
		}
	}
	d := norm.NFD.String(b.String())
	b.Reset()
	for _, r := range d {
		if unicode.Is(unicode.Mn, r) {
			continue
		}
		b.WriteString(strings.ToLower(string(r)))
	}
	return b.String()
}

// preTokenize is BertPreTokenizer: words split at white space, and every punctuation
// character a word of its own.
func preTokenize(s string) []string {
	var words []string
	start := -1
	for i, r := range s {
		switch {
		case r == ' ' || isWhitespace(r):
			if start >= 0 {
				words = append(words, s[start:i])
				start = -1
			}
		case isPunct(r):
			if start >= 0 {
				words = append(words, s[start:i])
				start = -1
			}
			words = append(words, string(r))
		default:
			if start < 0 {
				start = i
			}
		}
	}
	if start >= 0 {
		words = append(words, s[start:])
	}
	return words
}

func isWhitespace(r rune) bool {
	return r == '\t' || r == '\n' || r == '\r' || unicode.Is(unicode.White_Space, r)
}

// isControl: the "other" categories (Cc, Cf, Cs, Co, unassigned), except the white
// space controls.
func isControl(r rune) bool {
	if r == '\t' || r == '\n' || r == '\r' {
		return false
	}
	return unicode.In(r, unicode.Cc, unicode.Cf, unicode.Cs, unicode.Co) || !unicode.In(r, unicode.L, unicode.M, unicode.N, unicode.P, unicode.S, unicode.Z, unicode.C)
}

func isPunct(r rune) bool {
	return (r < 128 && (r >= 33 && r <= 47 || r >= 58 && r <= 64 || r >= 91 && r <= 96 || r >= 123 && r <= 126)) || unicode.IsPunct(r)
}

func isCJK(r rune) bool {
	return r >= 0x4E00 && r <= 0x9FFF || r >= 0x3400 && r <= 0x4DBF || r >= 0x20000 && r <= 0x2A6DF ||
		r >= 0x2A700 && r <= 0x2B73F || r >= 0x2B740 && r <= 0x2B81F || r >= 0x2B820 && r <= 0x2CEAF ||
		r >= 0xF900 && r <= 0xFAFF || r >= 0x2F800 && r <= 0x2FA1F
}
