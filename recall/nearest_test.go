package recall

import (
	"fmt"
	"slices"
	"testing"

	"memoria/memory"
)

// TestKeepNearest: the semantic channel's nearest item, near in meaning
// and demoted by nothing, is kept within the first places however few
// votes fusion gave it; one already there, one not near enough in meaning,
// and one a boost demoted stay where fusion put them.
func TestKeepNearest(t *testing.T) {
	// ranking builds 20 candidates scored 20, 19, … 1 (row IDs 1…20); the
	// one at place at (1-based) is the semantic channel's first, with
	// cosine cos and the given boosts.
	ranking := func(at int, cos float64, boosts map[string]float64) []scored {
		var out []scored
		for i := range 20 {
			c := &candidate{
				item:  memory.Item{RowID: int64(i + 1), Content: fmt.Sprintf("line %d", i+1)},
				ranks: map[string]int{"lexical": i + 1},
				raw:   map[string]float64{},
			}
			b := map[string]float64{}
			if i+1 == at {
				c.ranks = map[string]int{"semantic": 1}
				c.raw["semantic"] = cos
				for k, v := range boosts {
					b[k] = v
				}
			}
			out = append(out, scored{c: c, score: float64(20 - i), boosts: b})
		}
		return out
	}
	tests := []struct {
		name  string
		at    int
		cos   float64
		boost map[string]float64
		want  int // the place of the nearest item after keepNearest
	}{
		{"buried paraphrase comes up to the last kept place", 17, 0.62, nil, 10},
		{"already among the first places", 4, 0.62, nil, 4},
		{"just inside", 10, 0.62, nil, 10},
		{"not near enough in meaning", 17, 0.30, nil, 17},
		{"outside the asked window", 17, 0.62, map[string]float64{"outside_window": demoteOutside}, 17},
		{"a version since replaced", 17, 0.62, map[string]float64{"superseded": demoteSuperseded}, 17},
		{"lifted by another boost still counts", 17, 0.62, map[string]float64{"speaker": boostSpeaker}, 10},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := ranking(tc.at, tc.cos, tc.boost)
			keepNearest(r, 10)
			got := slices.IndexFunc(r, func(s scored) bool { return s.c.ranks["semantic"] == 1 }) + 1
			if got != tc.want {
				t.Fatalf("nearest item at place %d, want %d", got, tc.want)
			}
			if len(r) != 20 {
				t.Fatalf("%d candidates, want 20", len(r))
			}
			for i := 1; i < len(r); i++ {
				if r[i].score > r[i-1].score {
					t.Errorf("place %d scores %g above place %d's %g", i+1, r[i].score, i, r[i-1].score)
				}
			}
			if _, ok := r[got-1].boosts["nearest"]; ok != (got != tc.at) {
				t.Errorf("nearest boost present %v, moved %v", ok, got != tc.at)
			}
		})
	}
}
