package recall

import (
	"math"
	"testing"
	"time"

	"memoria/memory"
	"memoria/query"
)

// featuresOf computes the candidates' features by name, as Run would.
func featuresOf(p Plan, cands []*candidate, l *links, recent bool) []map[string]float64 {
	fc := newFeatureContext(p, cands, l, recent, 0)
	out := make([]map[string]float64, len(cands))
	for i, c := range cands {
		m := map[string]float64{}
		for j, v := range fc.features(c) {
			if v != 0 {
				m[featureNames[j]] = v
			}
		}
		out[i] = m
	}
	return out
}

func noLinks() *links {
	return &links{sig: map[int64]*factSig{}, next: map[int64][]int64{}, prev: map[int64][]int64{}}
}

// TestRankDeterministic: a candidate's score is the same to the last bit
// on every call. Features read maps (channel ranks) whose order changes
// from call to call, and candidates whose scores are otherwise equal once
// swapped places between two identical recalls.
func TestRankDeterministic(t *testing.T) {
	now := time.Date(2025, 12, 1, 9, 0, 0, 0, time.UTC)
	conf := 0.8
	c := &candidate{
		item: memory.Item{RowID: 7, Kind: memory.KindWorld, Confidence: &conf, Written: now.AddDate(0, 0, -3),
			Content: "Moved the relay to Helsinki.", Entities: []string{"Peter"}},
		ranks:        map[string]int{"lexical": 3, "entity": 5, "update": 6, "semantic": 2, "temporal": 9},
		raw:          map[string]float64{"lexical": 4.2, "semantic": 0.61},
		entityWeight: 0.7,
	}
	p := Plan{Query: query.Query{Now: now, Words: []string{"relay"}}}
	var first float64
	for i := range 200 {
		got := rank(FittedRanker(""), newFeatureContext(p, []*candidate{c}, noLinks(), true, 5), []*candidate{c}, nil)
		if len(got) != 1 {
			t.Fatalf("rank gave %d results", len(got))
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
