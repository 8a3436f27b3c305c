package recall

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"memoria/memory"
)

// TestRareWord: a question's rare word is its rarest content word, when
// it is in at most rareRows items and the question has other words to
// search; a word in more items, a question of one word, and a stop word
// name none.
func TestRareWord(t *testing.T) {
	var log strings.Builder
	log.WriteString("# 2025-11-27\n\n")
	log.WriteString("- Limits in the unit file: MemoryMax=1G.\n")
	for i := range 12 {
		fmt.Fprintf(&log, "- Restarted the relay unit, attempt %d.\n", i)
	}
	for i := range 12 {
		fmt.Fprintf(&log, "- Watered the tomatoes, row %d.\n", i)
	}
	ix := index(t, map[string]string{"memory/2025-11-27.md": log.String()})
	for _, tc := range []struct {
		words []string
		rare  []string
	}{
		{[]string{"memorymax", "relay", "unit"}, []string{"memorymax"}},
		{[]string{"relay", "unit"}, nil},  // each in 12 or 13 items
		{[]string{"memorymax"}, nil},      // nothing else to search
		{[]string{"the", "relay"}, nil},   // the rarest is a stop word
		{[]string{"in", "tomatoes"}, nil}, // 12 items
	} {
		_, rare, err := planTerms(context.Background(), ix, tc.words)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(rare, tc.rare) {
			t.Errorf("planTerms(%q): rare word %q, want %q", tc.words, rare, tc.rare)
		}
	}
}

// TestRareLift: of two lines, the one that says the question's rare word
// ranks first, though words alone ranked the one that says more of the
// common ones first; without a rare word, or for a question that asks for
// a choice, the order of the words stays.
func TestRareLift(t *testing.T) {
	common := &candidate{
		item:  memory.Item{RowID: 1, Kind: memory.KindPassage, Content: "- Wrote the systemd unit for the relay; the unit file is in /etc/systemd/system."},
		ranks: map[string]int{"lexical": 1},
	}
	exact := &candidate{
		item:  memory.Item{RowID: 2, Kind: memory.KindPassage, Content: "- Limits in the file: MemoryMax=1G."},
		ranks: map[string]int{"lexical": 2},
	}
	l := &links{sig: map[int64]*factSig{}, next: map[int64][]int64{}, prev: map[int64][]int64{}}
	for _, tc := range []struct {
		rare   []string
		choice bool
		first  int64
	}{{[]string{"memorymax"}, false, 2}, {nil, false, 1}, {[]string{"memorymax"}, true, 1}} {
		got := fuse(Plan{rare: topicOf(tc.rare), Choice: tc.choice, Terms: []string{"memorymax", "systemd", "unit"}}, []*candidate{common, exact}, l, false)
		if got[0].c.item.RowID != tc.first {
			t.Errorf("rare word %q, choice %v: %q first, want row %d", tc.rare, tc.choice, got[0].c.item.Content, tc.first)
		}
	}
}
