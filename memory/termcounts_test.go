package memory

import (
	"maps"
	"testing"
)

func TestKeepTermCounts(t *testing.T) {
	counts := func() map[string]int { return map[string]int{"the": 9000, "harbour": 150, "zanzibar": 0, "vault": 3} }
	for _, tc := range []struct {
		name      string
		counts    map[string]int
		at, items int
		want      map[string]int
		wantAt    int
	}{
		{"a line more: the common counts stay", counts(), 10000, 10001, map[string]int{"the": 9000, "harbour": 150}, 10000},
		{"2% fewer: they stay", counts(), 10000, 9800, map[string]int{"the": 9000, "harbour": 150}, 10000},
		{"more than 2%: none", counts(), 10000, 10201, nil, 10201},
		{"none kept before", nil, 0, 500, nil, 500},
		{"an empty index grows", map[string]int{"the": 0}, 0, 1, nil, 1},
	} {
		got, at := KeepTermCounts(tc.counts, tc.at, tc.items)
		if !maps.Equal(got, tc.want) || at != tc.wantAt {
			t.Errorf("%s: %v from %d, want %v from %d", tc.name, got, at, tc.want, tc.wantAt)
		}
	}
}
