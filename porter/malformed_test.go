package porter

import (
	"math/rand/v2"
	"testing"
)

// encodeLoose encodes any 32-bit value the way SQLite's READ_UTF8 decodes
// it back: a lead byte F0..F7 followed by as many continuation bytes as the
// value needs.
func encodeLoose(c uint32) string {
	k := 3
	for c>>(6*k) >= 8 {
		k++
	}
	b := make([]byte, k+1)
	for i := k; i >= 1; i-- {
		b[i] = 0x80 | byte(c&0x3f)
		c >>= 6
	}
	b[0] = 0xF0 | byte(c&7)
	return string(b)
}

// TestOutOfRange checks values above U+10FFFF, which only malformed UTF-8
// produces, against FTS5.
func TestOutOfRange(t *testing.T) {
	var texts []string
	add := func(c uint32) {
		texts = append(texts, encodeLoose(c)+"x", "ab"+encodeLoose(c)+"x", "q"+encodeLoose(c))
	}
	for hi := uint32(0x11); hi < 0x100; hi++ {
		for _, lo := range []uint32{0, 0x20, 0x41, 0x301, 0x3000, 0xFFFF} {
			add(hi<<16 | lo)
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 1000 {
		add(0x110000 + r.Uint32N(0xFFFFFFFF-0x110000))
	}
	add(0xFFFFFFFF)
	n, terms := compare(t, texts)
	t.Logf("compared %d texts (%d terms) with FTS5", n, terms)
}
