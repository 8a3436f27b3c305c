package sqlite

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

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
			split, err := ix.searchSplit(ctx, match, min(rows, memory.MaxScoredRows)/2, memory.MaxScoredRows, limit)
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

// TestNewestListingFromItsDay: a newest-first listing without a date
// filter, which starts from the day of its limit-th item (newestDay),
// lists what a listing of every item lists first, whatever the limit and
// filter: with events dated before, after and across their logs, facts
// in undated pages with and without a date, and many items a day.
func TestNewestListingFromItsDay(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	for d := range 40 {
		day := fmt.Sprintf("2025-%02d-%02d", 1+d/10, 1+2*(d%10))
		var b strings.Builder
		fmt.Fprintf(&b, "# %s\n\nA walk by the canal, day %d.\n\nThe kiln was fired again.\n\n## Retain\n", day, d)
		fmt.Fprintf(&b, "- W @Maren: the pottery fair runs on 2026-0%d-1%d.\n", 1+d%9, d%10) // after every log
		fmt.Fprintf(&b, "- B glazed %d bowls.\n", d)
		if d%3 == 0 {
			fmt.Fprintf(&b, "- O(c=0.%d) @Maren: prefers ash glaze.\n", 1+d%9)
			fmt.Fprintf(&b, "- W the studio lease started on 2019-0%d-0%d.\n", 1+d%9, 1+d%9) // long before
		}
		writeFile(t, dir, "memory/"+day+".md", b.String())
	}
	writeFile(t, dir, "bank/world.md", "# World\n\n- W @Maren: the kiln was built on 2031-05-04.\n- W @Maren: the studio has two wheels.\n")
	writeFile(t, dir, "bank/entities/Maren.md", "# Maren\n\nRuns the studio by the canal.\n")
	ix := openTest(t, dir, Options{})
	filters := []memory.Filter{{}, {Kinds: []memory.Kind{memory.KindWorld}}, {Kinds: []memory.Kind{memory.KindOpinion, memory.KindPassage}}, {Entities: []string{"maren"}}}
	for _, f := range filters {
		all, err := ix.Items(ctx, f, true, 1<<20)
		if err != nil {
			t.Fatal(err)
		}
		if len(all) < 20 {
			t.Fatalf("%+v: %d items", f, len(all))
		}
		for limit := 1; limit <= len(all)+1; limit++ {
			got, err := ix.Items(ctx, f, true, limit)
			if err != nil {
				t.Fatal(err)
			}
			want := all[:min(limit, len(all))]
			if a, b := sourcesOf(got), sourcesOf(want); !slices.Equal(a, b) {
				t.Fatalf("%+v, limit %d:\n got %v\nwant %v", f, limit, a, b)
			}
			// The listing started from the day of its last item, when
			// that item has one.
			since, err := ix.newestDay(ctx, f, limit)
			if err != nil {
				t.Fatal(err)
			}
			wantDay := time.Time{}
			if limit <= len(all) {
				wantDay = all[limit-1].Written
				if ev := all[limit-1].Event; ev != nil {
					wantDay = ev.Start
				}
			}
			if !since.Equal(wantDay) {
				t.Fatalf("%+v, limit %d: newestDay = %v, want %v", f, limit, since, wantDay)
			}
		}
	}
}

func sourcesOf(items []memory.Item) []string {
	var out []string
	for _, it := range items {
		out = append(out, it.Source.String())
	}
	return out
}
