package bm25_test

import (
	"testing"

	"memoria/bm25"
)

func TestPhrasesAndDeletes(t *testing.T) {
	ix := bm25.New(1, 0.5)
	ix.Add(1, "the quick brown fox", "")
	ix.Add(2, "brown quick fox", "quick brown")
	ix.Add(3, "nothing here", "")
	tests := []struct {
		words []string
		want  []int64
	}{
		{[]string{"quick brown"}, []int64{1, 2}},  // 2 has it only in its second column
		{[]string{"brown quick"}, []int64{2}},     // order matters
		{[]string{"foxes"}, []int64{2, 1}},        // stemmed; 2 is shorter... both hit, ranked
		{[]string{"here", "nothing"}, []int64{3}}, // OR of two phrases
		{[]string{"absent"}, nil},
		{[]string{"!!!"}, nil},
	}
	for _, tc := range tests {
		hits, _ := ix.Search(bm25.Phrases(tc.words), 10, nil)
		var got []int64
		for _, h := range hits {
			got = append(got, h.ID)
		}
		if !sameSet(got, tc.want) {
			t.Errorf("%q: got %v, want %v", tc.words, got, tc.want)
		}
	}
	ix.Delete(2)
	hits, n := ix.Search(bm25.Phrases([]string{"quick"}), 10, nil)
	if n != 1 || len(hits) != 1 || hits[0].ID != 1 {
		t.Errorf("after delete: %v (%d matched)", hits, n)
	}
	ix.Add(1, "replaced text", "")
	if hits, _ := ix.Search(bm25.Phrases([]string{"quick"}), 10, nil); len(hits) != 0 {
		t.Errorf("replaced document still matches: %v", hits)
	}
	if ix.Len() != 2 || ix.Dead() != 2 {
		t.Errorf("Len %d Dead %d, want 2 and 2", ix.Len(), ix.Dead())
	}
	accepted, _ := ix.Search(bm25.Phrases([]string{"replaced", "nothing"}), 10, func(id int64) bool { return id == 3 })
	if len(accepted) != 1 || accepted[0].ID != 3 {
		t.Errorf("accept: %v", accepted)
	}
}

func sameSet(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	m := map[int64]bool{}
	for _, x := range a {
		m[x] = true
	}
	for _, x := range b {
		if !m[x] {
			return false
		}
	}
	return true
}
