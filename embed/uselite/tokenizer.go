package uselite

import (
	"strings"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// The tokenizer is a line-by-line port of the reference (the Tokenizer of
// @energetic-ai/embeddings 0.2.0, itself the one of @tensorflow-models/universal-sentence-encoder):
// NFKC, "▁" before the text and for every space, then a Viterbi search over the pieces'
// log-probabilities. Its quirks are kept on purpose, because token ids must match:
//   - a position whose best score is exactly 0 takes any candidate (`best[end] === 0 || …`);
//   - ties go to the later start, i.e. the shorter last piece (`>=`);
//   - a character that starts no piece becomes id 0, and runs of id 0 merge into one;
//   - a null score in vocab.json counts as 0; duplicate pieces keep the last id;
//   - backtracking steps back by the piece's length in UTF-16 units (equal to its length
//     in code points for this vocabulary, which has no astral characters).

const (
	separator       = '\u2581'
	reservedSymbols = 6
	unknownID       = 0
	maxPositions    = 128 // the graph drops positions >= 128 (ClipToMaxLength)
	firstRegularID  = reservedSymbols
)

// Tokenizer maps text to SentencePiece ids of the USE-lite vocabulary.
type Tokenizer struct {
	// byPiece finds a piece by its text; Encode looks up every substring of
	// up to maxRunes code points (a map of 8,000 strings is built in well
	// under a millisecond, where a trie of per-node maps took ~10 ms of
	// every model load).
	byPiece  map[string]int32
	scores   []float64
	maxRunes int
	len16    []int32 // piece length in UTF-16 units, by id
	pieces   []string
}

func newTokenizer(pieces []string, scores []float64) *Tokenizer {
	t := &Tokenizer{pieces: pieces, scores: scores, len16: make([]int32, len(pieces)),
		byPiece: make(map[string]int32, len(pieces))}
	for i, p := range pieces {
		n16, runes := 0, 0
		for _, r := range p {
			runes++
			n16++
			if r >= 0x10000 {
				n16++ // a surrogate pair
			}
		}
		t.len16[i] = int32(n16)
		if i >= firstRegularID && runes > 0 {
			t.byPiece[p] = int32(i) // duplicates: the last id wins
			t.maxRunes = max(t.maxRunes, runes)
		}
	}
	return t
}

type candidate struct {
	start int32
	id    int32
	runes int32
	score float64
}

// Encode returns the token ids of text, all of them (the model reads the first 128).
func (t *Tokenizer) Encode(text string) []int {
	s := norm.NFKC.String(text)
	if s == "" {
		return []int{}
	}
	s = string(separator) + strings.ReplaceAll(s, " ", string(separator))
	if !utf8.ValidString(s) {
		s = string([]rune(s)) // each invalid byte becomes U+FFFD, as a code point of its own
	}
	// off[i] is the byte offset of code point i, so that a run of code
	// points is a substring.
	off := make([]int, 0, len(s)+1)
	for i := range s {
		off = append(off, i)
	}
	n := len(off)
	off = append(off, len(s))

	// ends[e] lists the candidates that end at e, in increasing start order.
	ends := make([][]candidate, n+1)
	for i := 0; i < n; i++ {
		found := false
		for j := i; j < n && j-i < t.maxRunes; j++ {
			if id, ok := t.byPiece[s[off[i]:off[j+1]]]; ok {
				ends[j+1] = append(ends[j+1], candidate{start: int32(i), id: id, runes: int32(j + 1 - i), score: t.scores[id]})
				found = true
			}
		}
		if !found {
			ends[i+1] = append(ends[i+1], candidate{start: int32(i), id: unknownID, runes: 1, score: 0})
		}
	}
	best := make([]float64, n+1)
	words := make([]int32, n+1)
	for e := 0; e <= n; e++ {
		for _, c := range ends[e] {
			score := c.score + best[e-int(c.runes)]
			if best[e] == 0 || score >= best[e] {
				best[e] = score
				words[e] = c.id
			}
		}
	}
	var rev []int
	for it := n; it > 0; {
		id := words[it]
		rev = append(rev, int(id))
		it -= int(t.len16[id])
	}
	out := make([]int, 0, len(rev))
	prevUnk := false
	// Merge runs of unknowns in the reference's order (from the end), then reverse.
	merged := rev[:0:0]
	for _, id := range rev {
		if !(prevUnk && id == unknownID) {
			merged = append(merged, id)
		}
		prevUnk = id == unknownID
	}
	for i := len(merged) - 1; i >= 0; i-- {
		out = append(out, merged[i])
	}
	return out
}

// Piece returns the vocabulary piece of id ("" if out of range).
func (t *Tokenizer) Piece(id int) string {
	if id < 0 || id >= len(t.pieces) {
		return ""
	}
	return t.pieces[id]
}
