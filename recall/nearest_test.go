package recall

import (
	"testing"

	"memoria/memory"
	"memoria/query"
)

// TestNearestFeature: the semantic channel's first item has the nearest
// feature when it is near in meaning (cosine ≥ the ranker's Near, here
// semanticFloor); its second,
// or a first that is not near, has none.
func TestNearestFeature(t *testing.T) {
	cand := func(row int64, rank int, cos float64) *candidate {
		return &candidate{
			item:  memory.Item{RowID: row, Kind: memory.KindPassage, Content: "I like to wind down by half past nine."},
			ranks: map[string]int{"semantic": rank},
			raw:   map[string]float64{"semantic": cos},
		}
	}
	for _, tc := range []struct {
		name string
		c    *candidate
		want bool
	}{
		{"first and near", cand(1, 1, 0.62), true},
		{"first, not near enough", cand(2, 1, 0.30), false},
		{"second", cand(3, 2, 0.62), false},
	} {
		f := featuresOf(Plan{Query: query.Query{Words: []string{"evening"}}}, []*candidate{tc.c}, noLinks(), false)
		if _, ok := f[0]["semantic.nearest"]; ok != tc.want {
			t.Errorf("%s: nearest %v, want %v", tc.name, ok, tc.want)
		}
	}
}
