package bm25_test

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"

	"memoria/bm25"
)

var vocabulary = strings.Fields(`alpha beta gamma delta release releases released cache caching
	peter alice deploy deploys window windows fix fixed fixing the of über café 東京 a b c`)

func randomText(r *rand.Rand, n int) string {
	w := make([]string, n)
	for i := range w {
		w[i] = vocabulary[r.IntN(len(vocabulary))]
	}
	return strings.Join(w, " ")
}

// TestSegmentRanksLikeMemory checks that an Index opened over a written
// segment, then changed (documents added, replaced and deleted), scores
// every query exactly as an Index that holds the same documents in
// memory only.
func TestSegmentRanksLikeMemory(t *testing.T) {
	for seed := range uint64(5) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			r := rand.New(rand.NewPCG(seed, 7))
			weights := []float64{1, 0.25, 0.5}
			mem := bm25.New(weights...)
			docs := map[int64][3]string{}
			put := func(ix *bm25.Index, id int64, cols [3]string) { ix.Add(id, cols[0], cols[1], cols[2]) }
			for id := range int64(300) {
				if r.IntN(5) == 0 {
					continue // ids with gaps
				}
				cols := [3]string{randomText(r, 1+r.IntN(12)), randomText(r, r.IntN(3)), randomText(r, r.IntN(4))}
				docs[id] = cols
				put(mem, id, cols)
			}
			// Churn before writing: the segment holds only live documents.
			for range 40 {
				id := int64(r.IntN(300))
				mem.Delete(id)
				delete(docs, id)
			}
			var buf bytes.Buffer
			if err := mem.WriteSegment(&buf); err != nil {
				t.Fatal(err)
			}
			seg, err := bm25.OpenSegment(buf.Bytes(), weights...)
			if err != nil {
				t.Fatal(err)
			}
			// The same changes to both, after the segment was written. On
			// even seeds the segment is told the text of what it deletes
			// (its document counts then come from the segment), on odd
			// ones not (they are counted from the postings).
			withText := seed%2 == 0
			del := func(id int64) {
				old, ok := docs[id]
				switch {
				case !ok:
				case withText:
					seg.DeleteText(id, old[:]...)
				default:
					seg.Delete(id)
				}
			}
			for range 60 {
				id := int64(r.IntN(340))
				switch r.IntN(3) {
				case 0:
					mem.Delete(id)
					del(id)
					delete(docs, id)
				default:
					cols := [3]string{randomText(r, 1+r.IntN(12)), randomText(r, r.IntN(3)), ""}
					del(id)
					docs[id] = cols
					put(mem, id, cols)
					put(seg, id, cols)
				}
			}
			ref := bm25.New(weights...) // the same documents, added once each
			for id, cols := range docs {
				put(ref, id, cols)
			}
			if seg.Len() != ref.Len() || mem.Len() != ref.Len() {
				t.Fatalf("Len: segment %d, memory %d, want %d", seg.Len(), mem.Len(), ref.Len())
			}
			for range 200 {
				words := strings.Fields(randomText(r, 1+r.IntN(3)))
				if r.IntN(4) == 0 {
					words = append(words, randomText(r, 2)) // a phrase
				}
				ph := bm25.Phrases(words)
				accept := func(id int64) bool { return id%3 != 0 }
				want, wantN := ref.Search(ph, 10, accept)
				for name, ix := range map[string]*bm25.Index{"segment": seg, "memory": mem} {
					got, n := ix.Search(ph, 10, accept)
					if n != wantN || !sameHits(got, want) {
						t.Fatalf("%s %q: got %v (%d matched), want %v (%d)", name, words, got, n, want, wantN)
					}
				}
				for _, w := range words {
					if got, want := seg.DocCount(w), ref.DocCount(w); got != want {
						t.Fatalf("DocCount(%q) = %d, want %d", w, got, want)
					}
				}
			}
			// A segment written from a changed segment holds the same.
			buf.Reset()
			if err := seg.WriteSegment(&buf); err != nil {
				t.Fatal(err)
			}
			again, err := bm25.OpenSegment(buf.Bytes(), weights...)
			if err != nil {
				t.Fatal(err)
			}
			if again.Dead() != 0 || again.Len() != ref.Len() {
				t.Fatalf("rewritten: Len %d Dead %d, want %d and 0", again.Len(), again.Dead(), ref.Len())
			}
			ph := bm25.Phrases([]string{"release", "alice"})
			got, _ := again.Search(ph, 50, nil)
			want, _ := ref.Search(ph, 50, nil)
			if !sameHits(got, want) {
				t.Fatalf("rewritten: got %v, want %v", got, want)
			}
		})
	}
}

// sameHits compares ids and scores; the scores may differ in the last
// bits, as the sums run in another order.
func sameHits(a, b []bm25.Hit) bool {
	return slices.EqualFunc(a, b, func(x, y bm25.Hit) bool {
		d := x.Score - y.Score
		return x.ID == y.ID && d < 1e-9 && d > -1e-9
	})
}

func TestOpenSegmentRejectsDamage(t *testing.T) {
	ix := bm25.New(1)
	ix.Add(1, "some text here")
	ix.Add(2, "more text")
	var buf bytes.Buffer
	if err := ix.WriteSegment(&buf); err != nil {
		t.Fatal(err)
	}
	good := buf.Bytes()
	if _, err := bm25.OpenSegment(good, 1); err != nil {
		t.Fatalf("good segment: %v", err)
	}
	cases := map[string][]byte{
		"empty":      nil,
		"magic":      append([]byte("XXXXXXXX"), good[8:]...),
		"truncated":  good[:len(good)-3],
		"trailing":   append(slices.Clone(good), 0),
		"header":     good[:20],
		"wrong cols": nil, // below
	}
	for name, data := range cases {
		weights := []float64{1}
		if name == "wrong cols" {
			data, weights = good, []float64{1, 1}
		}
		if _, err := bm25.OpenSegment(data, weights...); !errors.Is(err, bm25.ErrSegment) {
			t.Errorf("%s: err %v, want ErrSegment", name, err)
		}
	}
	// Every single-byte corruption is either rejected or yields an index
	// that answers without panicking.
	for i := range good {
		bad := slices.Clone(good)
		bad[i] ^= 0xff
		seg, err := bm25.OpenSegment(bad, 1)
		if err != nil {
			continue
		}
		func() {
			defer func() {
				if p := recover(); p != nil {
					t.Fatalf("byte %d flipped: panic %v", i, p)
				}
			}()
			seg.Search(bm25.Phrases([]string{"text", "more"}), 5, nil)
			seg.Delete(2)
			seg.Add(3, "new text")
		}()
	}
}

// TestBuilderWritesWhatIndexWrites: a segment made by a Builder in parts is
// byte for byte the one an Index of the same documents writes.
func TestBuilderWritesWhatIndexWrites(t *testing.T) {
	for seed := range uint64(4) {
		r := rand.New(rand.NewPCG(seed, 11))
		weights := []float64{1, 0.25, 0.5, 0.3}
		ix := bm25.New(weights...)
		b := bm25.NewBuilder(weights...)
		parts := []*bm25.BuilderPart{b.Part(), b.Part(), b.Part()}
		id := int64(0)
		for i := range 500 {
			id += 1 + int64(r.IntN(3))
			cols := []string{randomText(r, r.IntN(20)), randomText(r, r.IntN(3)), randomText(r, r.IntN(2)), randomText(r, r.IntN(30))}
			ix.Add(id, cols...)
			parts[i*len(parts)/500].Add(id, cols...)
		}
		var want, got bytes.Buffer
		if err := ix.WriteSegment(&want); err != nil {
			t.Fatal(err)
		}
		if err := b.Segment(&got); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Fatalf("seed %d: builder segment differs (%d bytes, Index %d)", seed, got.Len(), want.Len())
		}
	}
	// Thousands of distinct terms: the segment is sized and written by
	// runs of terms on several goroutines (four here, whatever the CPUs).
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	r := rand.New(rand.NewPCG(99, 11))
	ix := bm25.New(1, 0.5)
	big := bm25.NewBuilder(1, 0.5)
	parts := []*bm25.BuilderPart{big.Part(), big.Part()}
	for id := int64(1); id <= 3000; id++ {
		cols := []string{fmt.Sprintf("w%dq w%dq %s", r.IntN(9000), r.IntN(9000), randomText(r, 5)), fmt.Sprintf("w%dq", r.IntN(9000))}
		ix.Add(id, cols...)
		parts[(id-1)*2/3000].Add(id, cols...)
	}
	var want, got bytes.Buffer
	if err := ix.WriteSegment(&want); err != nil {
		t.Fatal(err)
	}
	if err := big.Segment(&got); err != nil {
		t.Fatal(err)
	}
	if terms, _ := big.Terms(); len(terms) < 4*1024 || !bytes.Equal(got.Bytes(), want.Bytes()) {
		t.Fatalf("many terms (%d): builder segment differs (%d bytes, Index %d)", len(terms), got.Len(), want.Len())
	}

	b := bm25.NewBuilder(1)
	p, q := b.Part(), b.Part()
	p.Add(5, "a")
	q.Add(3, "b")
	if err := b.Segment(&bytes.Buffer{}); err == nil {
		t.Error("overlapping parts accepted")
	}
}
