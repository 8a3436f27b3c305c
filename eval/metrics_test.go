package eval

import (
	"math"
	"reflect"
	"testing"

	"memoria/memory"
)

// src builds a citation of file "memory/<file>.md".
func src(file string, start, end int) memory.Source {
	return memory.Source{Path: "memory/" + file + ".md", Start: start, End: end}
}

// misses returns n results that hit nothing.
func misses(n int) []memory.Source {
	out := make([]memory.Source, n)
	for i := range out {
		out[i] = src("other", i+1, i+1)
	}
	return out
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func TestHits(t *testing.T) {
	tests := []struct {
		name         string
		result, gold memory.Source
		want         bool
	}{
		{"same line", src("a", 5, 5), src("a", 5, 5), true},
		{"single line no end", src("a", 5, 0), src("a", 5, 5), true},
		{"range covers line", src("a", 4, 6), src("a", 5, 5), true},
		{"touching edge", src("a", 1, 5), src("a", 5, 9), true},
		{"adjacent only", src("a", 1, 4), src("a", 5, 9), false},
		{"after", src("a", 10, 12), src("a", 5, 9), false},
		{"other file", src("b", 5, 5), src("a", 5, 5), false},
		{"whole file result", src("a", 0, 0), src("a", 50, 52), true},
		{"whole file other path", src("b", 0, 0), src("a", 50, 52), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Hits(tt.result, tt.gold); got != tt.want {
				t.Errorf("Hits(%v, %v) = %v, want %v", tt.result, tt.gold, got, tt.want)
			}
		})
	}
}

func TestScore(t *testing.T) {
	// Discounts 1/log2(i+1) at ranks 1, 2, 3 and the IDCG of two gold ranges.
	d2, d3 := 1/math.Log2(3), 1/math.Log2(4)
	idcg2 := 1 + d2
	g5 := []memory.Source{src("a", 5, 5)}
	two := []memory.Source{src("a", 5, 5), src("a", 20, 21)}
	tests := []struct {
		name    string
		results []memory.Source
		gold    []memory.Source
		want    Scores
	}{
		{
			name: "no results",
			gold: g5,
			want: Scores{},
		},
		{
			name:    "no hits",
			results: misses(3),
			gold:    g5,
			want:    Scores{Lines10: 3},
		},
		{
			name:    "hit at rank 1",
			results: []memory.Source{src("a", 4, 6), src("b", 1, 1)},
			gold:    g5,
			want:    Scores{HitRanks: []int{1}, FirstHit: 1, R5: true, R10: true, RR: 1, NDCG10: 1, Lines10: 4},
		},
		{
			name:    "hit at rank 3",
			results: append(misses(2), src("a", 5, 5)),
			gold:    g5,
			want:    Scores{HitRanks: []int{3}, FirstHit: 3, R5: true, R10: true, RR: 1.0 / 3, NDCG10: d3, Lines10: 3},
		},
		{
			name:    "hit at rank 7",
			results: append(misses(6), src("a", 5, 5)),
			gold:    g5,
			want:    Scores{HitRanks: []int{7}, FirstHit: 7, R10: true, RR: 1.0 / 7, NDCG10: 1 / 3.0, Lines10: 7},
		},
		{
			name:    "hit at rank 11 is outside every cutoff but MRR",
			results: append(misses(10), src("a", 1, 9)),
			gold:    g5,
			want:    Scores{HitRanks: []int{11}, FirstHit: 11, RR: 1.0 / 11, Lines10: 10},
		},
		{
			name:    "both gold ranges at ranks 1 and 2",
			results: []memory.Source{src("a", 21, 21), src("a", 5, 5)},
			gold:    two,
			want:    Scores{HitRanks: []int{1, 2}, FirstHit: 1, R5: true, R10: true, RR: 1, NDCG10: 1, Lines10: 2},
		},
		{
			name:    "one broad result over two gold ranges gains once",
			results: []memory.Source{src("a", 1, 30)},
			gold:    two,
			want:    Scores{HitRanks: []int{1}, FirstHit: 1, R5: true, R10: true, RR: 1, NDCG10: 1 / idcg2, Lines10: 30},
		},
		{
			name:    "duplicate result gains once",
			results: []memory.Source{src("a", 5, 5), src("a", 5, 5)},
			gold:    two,
			want:    Scores{HitRanks: []int{1, 2}, FirstHit: 1, R5: true, R10: true, RR: 1, NDCG10: 1 / idcg2, Lines10: 2},
		},
		{
			name:    "duplicate gold counted once",
			results: []memory.Source{src("a", 5, 5)},
			gold:    []memory.Source{src("a", 5, 5), src("a", 5, 5)},
			want:    Scores{HitRanks: []int{1}, FirstHit: 1, R5: true, R10: true, RR: 1, NDCG10: 1, Lines10: 1},
		},
		{
			name:    "overlapping gold: second result credits the uncredited range",
			results: []memory.Source{src("a", 5, 5), src("a", 6, 6)},
			gold:    []memory.Source{src("a", 5, 7), src("a", 6, 6)},
			want:    Scores{HitRanks: []int{1, 2}, FirstHit: 1, R5: true, R10: true, RR: 1, NDCG10: 1, Lines10: 2},
		},
		{
			name:    "overlapping gold: one result inside both credits both",
			results: []memory.Source{src("a", 6, 6), src("a", 7, 7)},
			gold:    []memory.Source{src("a", 5, 7), src("a", 6, 6)},
			want:    Scores{HitRanks: []int{1, 2}, FirstHit: 1, R5: true, R10: true, RR: 1, NDCG10: 1 / idcg2, Lines10: 2},
		},
		{
			name:    "second gold found at rank 3",
			results: []memory.Source{src("a", 5, 5), src("b", 1, 3), src("a", 20, 20)},
			gold:    two,
			want:    Scores{HitRanks: []int{1, 3}, FirstHit: 1, R5: true, R10: true, RR: 1, NDCG10: (1 + d3) / idcg2, Lines10: 5},
		},
		{
			name:    "same lines in another file miss",
			results: []memory.Source{src("b", 5, 5)},
			gold:    g5,
			want:    Scores{Lines10: 1},
		},
		{
			name:    "no gold",
			results: []memory.Source{src("a", 5, 5)},
			want:    Scores{Lines10: 1},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Score(tt.results, tt.gold)
			if !near(got.NDCG10, tt.want.NDCG10) || !near(got.RR, tt.want.RR) {
				t.Errorf("NDCG10, RR = %.6f, %.6f, want %.6f, %.6f", got.NDCG10, got.RR, tt.want.NDCG10, tt.want.RR)
			}
			got.NDCG10, got.RR = tt.want.NDCG10, tt.want.RR
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Score = %+v, want %+v", got, tt.want)
			}
			if r := RecallAt(tt.results, tt.gold, 5); r != tt.want.R5 {
				t.Errorf("RecallAt(5) = %v, want %v", r, tt.want.R5)
			}
			if rr := ReciprocalRank(tt.results, tt.gold); !near(rr, tt.want.RR) {
				t.Errorf("ReciprocalRank = %v, want %v", rr, tt.want.RR)
			}
		})
	}
}

func TestNDCGCutoff(t *testing.T) {
	// Twelve gold lines, all found: IDCG uses min(12, k) gains, so NDCG is 1
	// at every cutoff.
	var gold, results []memory.Source
	for i := 1; i <= 12; i++ {
		gold = append(gold, src("a", i, i))
		results = append(results, src("a", i, i))
	}
	for _, k := range []int{1, 5, 10, 20} {
		if got := NDCG(results, gold, k); !near(got, 1) {
			t.Errorf("NDCG@%d = %v, want 1", k, got)
		}
	}
	// Only the gold line at rank 2 of 3 gold: 1/log2(3) over 1+1/log2(3)+1/2.
	want := (1 / math.Log2(3)) / (1 + 1/math.Log2(3) + 0.5)
	if got := NDCG([]memory.Source{src("b", 1, 1), src("a", 2, 2)}, gold[:3], 10); !near(got, want) {
		t.Errorf("NDCG = %v, want %v", got, want)
	}
}

func TestLinesAt(t *testing.T) {
	tests := []struct {
		name    string
		results []memory.Source
		k       int
		want    int
	}{
		{"empty", nil, 10, 0},
		{"single lines", misses(4), 10, 4},
		{"windows", []memory.Source{src("a", 1, 3), src("a", 4, 6), src("b", 7, 7)}, 10, 7},
		{"cut at k", misses(15), 10, 10},
		{"duplicates counted", []memory.Source{src("a", 1, 3), src("a", 1, 3)}, 10, 6},
		{"whole file counts 0", []memory.Source{src("a", 0, 0)}, 10, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := LinesAt(tt.results, tt.k); got != tt.want {
				t.Errorf("LinesAt = %d, want %d", got, tt.want)
			}
		})
	}
}
