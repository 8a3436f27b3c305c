package recall

import (
	"crypto/sha256"
	"encoding/hex"
	"unicode/utf8"
)

// EstimateTokens approximates how many LLM tokens a result costs an agent:
// about one token per four bytes of English text (the common rule of thumb
// for BPE tokenizers; CJK text is closer to one token per character, so
// runes count when they outnumber bytes/4), plus a fixed 24 for the
// surrounding fields (kind, timestamp, source, score) in the JSON shape.
func EstimateTokens(r Result) int {
	n := len(r.Content) / 4
	if runes := utf8.RuneCountInString(r.Content); runes > 2*n {
		n = runes / 2
	}
	for _, e := range r.Entities {
		n += 1 + len(e)/4
	}
	return n + 24
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
