package recall

import (
	"math"
	"testing"
	"time"

	"memoria/memory"
)

// TestFuseDeterministic: a candidate's score is the same to the last bit
// on every call. Its channel votes are added, and its boosts multiplied,
// in Go's map order, which changes from call to call: 1/66 × 1.15 × 1.25
// × 1.1 differs in its last bit with the order, and candidates whose
// scores are otherwise equal swapped places between two identical
// recalls (seen as a different top 10 for the same question on an
// unchanged workspace).
func TestFuseDeterministic(t *testing.T) {
	now := time.Date(2025, 12, 1, 9, 0, 0, 0, time.UTC)
	conf := 0.8
	c := &candidate{
		item: memory.Item{RowID: 7, Kind: memory.KindWorld, Confidence: &conf, Written: now.AddDate(0, 0, -3),
			Content: "Moved the relay to Helsinki.", Entities: []string{"Peter"}},
		ranks:          map[string]int{"lexical": 3, "entity": 5, "update": 6, "semantic": 2, "temporal": 9},
		entityWeight:   0.7,
		semanticWeight: 0.9,
	}
	l := &links{sig: map[int64]*factSig{}, next: map[int64][]int64{}, prev: map[int64][]int64{}}
	p := Plan{Now: now, Terms: []string{"relay"}}
	var first float64
	for i := range 200 {
		got := fuse(p, []*candidate{c}, l, true)
		if len(got) != 1 {
			t.Fatalf("fuse gave %d results", len(got))
		}
		if i == 0 {
			first = got[0].score
			continue
		}
		if math.Float64bits(got[0].score) != math.Float64bits(first) {
			t.Fatalf("call %d scored %.20g, the first %.20g", i, got[0].score, first)
		}
	}
}
