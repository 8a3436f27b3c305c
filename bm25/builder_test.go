package bm25

import (
	"fmt"
	"iter"
	"slices"
	"testing"

	"memoria/porter"
)

// TestBuilderWalk checks what a Builder hands the FTS5 writer: every term
// once in byte order, each term's documents in id order across parts with
// the occurrences porter's tokens put there, and each document's token
// count per column.
func TestBuilderWalk(t *testing.T) {
	docs := []struct {
		id   int64
		cols []string
	}{
		{3, []string{"Running dogs ran", "dogs"}},
		{5, []string{"", "the dog runs"}},
		{9, []string{"cats and dogs", ""}},
		{12, []string{"running running", "cat"}},
	}
	b := NewBuilder(1, 0.5)
	p := b.Part()
	type occ struct {
		id  int64
		occ []uint64
	}
	want := map[string][]occ{}
	var lens [][]int32
	for i, d := range docs {
		if i == 2 {
			p = b.Part() // the later documents in a second part
		}
		p.Add(d.id, d.cols...)
		var l []int32
		for c, text := range d.cols {
			for pos, term := range porter.Tokens(text) {
				list := want[term]
				if len(list) == 0 || list[len(list)-1].id != d.id {
					list = append(list, occ{id: d.id})
				}
				list[len(list)-1].occ = append(list[len(list)-1].occ, uint64(c)<<32|uint64(pos))
				want[term] = list
			}
			l = append(l, int32(len(porter.Tokens(text))))
		}
		lens = append(lens, l)
	}
	terms, err := b.Terms()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.IsSorted(terms) || len(terms) != len(want) {
		t.Fatalf("terms %q, want the %d of %v sorted", terms, len(want), want)
	}
	check := func(how string, postings func(string) iter.Seq2[int64, []uint64]) {
		t.Helper()
		for _, term := range terms {
			var got []occ
			for id, o := range postings(term) {
				got = append(got, occ{id, slices.Clone(o)})
			}
			if fmt.Sprint(got) != fmt.Sprint(want[term]) {
				t.Errorf("%s of %q: %v, want %v", how, term, got, want[term])
			}
		}
	}
	check("postings", b.Postings)
	i := 0
	err = b.EachDocument(func(id int64, cols []int32) {
		if id != docs[i].id || !slices.Equal(cols, lens[i]) {
			t.Errorf("document %d: %d %v, want %d %v", i, id, cols, docs[i].id, lens[i])
		}
		i++
	})
	if err != nil || i != len(docs) {
		t.Fatalf("%d documents, %v", i, err)
	}
	// Drain yields the same, then the terms' postings are gone.
	check("drained postings", b.Drain)
	for _, term := range terms {
		for range b.Postings(term) {
			t.Errorf("postings of %q after Drain", term)
		}
	}
	// Overlapping parts are an error, not a wrong index.
	b.Part().Add(4, "late")
	if _, err := b.Terms(); err == nil {
		t.Fatal("overlapping parts accepted")
	}
}
