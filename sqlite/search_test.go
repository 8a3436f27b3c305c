package sqlite

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"memoria/memory"
)

// TestSplitSearchRanksAsOne: a search whose scored rows are split over two
// connections (the newer half on one, the older on the other) returns
// what one search over all of them returns: the same items, scores and
// order, also where rows tie at the limit-th score (identical lines in
// many files) and where more rows match than memory.MaxScoredRows.
func TestSplitSearchRanksAsOne(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	lines := []string{
		"- The kite flew over the harbour wall.",                     // the same line in every file: ties
		"- Mended the kite string with a sailor's knot, kite again.", // denser, a better bm25
		"- A long note on the weather, the tide tables, the ferry timetable and a kite seen from the pier at dusk.",
		"- Bought bread and a newspaper.",
	}
	for d := range 1500 {
		var b strings.Builder
		fmt.Fprintf(&b, "# Log %d\n\n", d)
		for i, l := range lines {
			if (d+i)%5 != 0 { // not every line every day: files differ
				fmt.Fprintln(&b, l)
			}
		}
		writeFile(t, dir, fmt.Sprintf("memory/%04d-%02d-%02d.md", 2020+d/336, 1+d/28%12, 1+d%28), b.String())
	}
	ix := openTest(t, dir, Options{})
	ix.scorerOpening = true
	ix.openScorer()
	if ix.scorer == nil {
		t.Fatal("the second connection did not open")
	}
	for _, terms := range [][]string{{"kite"}, {"kite", "harbour"}, {"harbour"}, {"weather", "knot"}} {
		rows := ix.matchEstimate(ctx, terms)
		if rows < splitFrom {
			t.Fatalf("%v: %d rows, too few to split", terms, rows)
		}
		for _, limit := range []int{1, 10, 100, 2500} {
			match := matchAny(terms)
			one, err := ix.searchNewest(ctx, match, memory.MaxScoredRows, limit)
			if err != nil {
				t.Fatal(err)
			}
			split, err := ix.searchSplit(ctx, match, min(rows, memory.MaxScoredRows)/2, limit)
			if err != nil {
				t.Fatal(err)
			}
			if len(one) == 0 || len(one) != len(split) {
				t.Fatalf("%v limit %d: %d results as one search, %d split", terms, limit, len(one), len(split))
			}
			for i := range one {
				a, b := one[i], split[i]
				if a.RowID != b.RowID || a.Score != b.Score {
					t.Fatalf("%v limit %d, rank %d: one search %s:%d (%g), split %s:%d (%g)",
						terms, limit, i+1, a.Source.Path, a.Source.Start, a.Score, b.Source.Path, b.Source.Start, b.Score)
				}
			}
		}
	}
	// Search itself splits once the second connection is open, and
	// answers the same.
	hits, err := ix.Search(ctx, []string{"kite"}, memory.Filter{}, 50)
	if err != nil {
		t.Fatal(err)
	}
	one, err := ix.searchNewest(ctx, matchAny([]string{"kite"}), memory.MaxScoredRows, 50)
	if err != nil {
		t.Fatal(err)
	}
	if ranking(hits) != ranking(one) {
		t.Fatalf("Search:\n%s\none search:\n%s", ranking(hits), ranking(one))
	}
}
