package recall

import (
	"crypto/sha256"
	"encoding/hex"
	"unicode/utf8"
)

// EstimateTokens approximates how many LLM tokens a result costs an agent:
// TextTokens of its content and entities, plus a fixed 24 for the
// surrounding fields (kind, timestamp, source, score) in the JSON shape.
func EstimateTokens(r Result) int {
	n := TextTokens(r.Content)
	for _, e := range r.Entities {
		n += 1 + TextTokens(e)
	}
	return n + 24
}

// TextTokens estimates the tokens of a text: one per four bytes of ASCII
// (the common rule of thumb for English with BPE tokenizers; it runs a
// little high, which keeps budgets safe) and one per other character
// (CJK and most non-Latin scripts take about a token per character;
// accented letters are counted high).
func TextTokens(s string) int {
	ascii, other := 0, 0
	for _, r := range s {
		if r < utf8.RuneSelf {
			ascii++
		} else {
			other++
		}
	}
	return (ascii+3)/4 + other
}

// PassageID is a stable ID for a raw passage: a hash of its file and text,
// so it survives edits elsewhere in the file.
func PassageID(path, text string) string {
	h := sha256.New()
	h.Write([]byte(path))
	h.Write([]byte{0})
	h.Write([]byte(text))
	return "p_" + hex.EncodeToString(h.Sum(nil)[:6])
}
