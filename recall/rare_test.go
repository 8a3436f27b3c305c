package recall

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"memoria/memory"
	"memoria/query"
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

// TestRareFeature: the line that says the question's rare word has the
// rare feature; without a rare word, or for a question that asks for a
// choice (its rare word names an option, which every line about it
// says), no line has it.
func TestRareFeature(t *testing.T) {
	common := &candidate{
		item:  memory.Item{RowID: 1, Kind: memory.KindPassage, Content: "- Wrote the systemd unit for the relay; the unit file is in /etc/systemd/system."},
		ranks: map[string]int{"lexical": 1},
	}
	exact := &candidate{
		item:  memory.Item{RowID: 2, Kind: memory.KindPassage, Content: "- Limits in the file: MemoryMax=1G."},
		ranks: map[string]int{"lexical": 2},
	}
	for _, tc := range []struct {
		rare   []string
		choice bool
		want   bool
	}{{[]string{"memorymax"}, false, true}, {nil, false, false}, {[]string{"memorymax"}, true, false}} {
		f := featuresOf(Plan{Query: query.Query{Choice: tc.choice, Words: []string{"memorymax", "systemd", "unit"}}, rare: topicOf(tc.rare)}, []*candidate{common, exact}, noLinks(), false)
		if _, ok := f[0]["rare"]; ok {
			t.Errorf("rare word %q, choice %v: the common line has the rare feature", tc.rare, tc.choice)
		}
		if _, ok := f[1]["rare"]; ok != tc.want {
			t.Errorf("rare word %q, choice %v: the exact line has it: %v, want %v", tc.rare, tc.choice, ok, tc.want)
		}
	}
}
