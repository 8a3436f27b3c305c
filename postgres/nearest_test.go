package postgres

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"memoria/bench/synth"
	"memoria/internal/pgtest"
	"memoria/memory"
)

// TestNearestItemsFiltered: with a filter, the nearest items the exact
// scan finds are the best of every item the filter selects, scored one
// by one, whichever way the filter is answered: by the nearest texts
// alone, by scoring every item the filter selects, or by a wider search
// (with no bound on the items scored, every filter goes that way).
// SQLite's index is no reference here: above a few thousand vectors its
// search is approximate.
func TestNearestItemsFiltered(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	ix := embeddedSynth(t, pgtest.NewAppDatabase(t))
	// Every item's text, and the vectors the exact scan scores.
	textOf := map[int64]int64{}
	var vc *vectorCache
	err := ix.read(ctx, func(tx querier) error {
		rows, err := tx.Query(ctx, `SELECT id, text_id FROM memoria_items WHERE ws = $1`, ix.id)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var id, text int64
			if err := rows.Scan(&id, &text); err != nil {
				return err
			}
			textOf[id] = text
		}
		if vc, err = ix.vectors(ctx, tx); err != nil {
			return err
		}
		return rows.Err()
	})
	if err != nil || vc.flat == nil {
		t.Fatalf("items and vectors: %v", err)
	}
	last, err := lastDay(ctx, ix)
	if err != nil {
		t.Fatal(err)
	}
	filters := []memory.Filter{
		{Since: last.AddDate(0, 0, -30)},
		{Since: last.AddDate(0, 0, -60), Until: last.AddDate(0, 0, -53)},
		{Until: last.AddDate(0, 0, -250)},
		{Entities: []string{"Peter"}},
		{Entities: []string{"Peter"}, Since: last.AddDate(0, 0, -90)},
		{Kinds: []memory.Kind{memory.KindOpinion}},
		{Kinds: []memory.Kind{memory.KindPassage}},
	}
	queries := []string{"what did Peter say about the release", "the build failed again on the server", "coffee and a long walk"}
	vecs, err := wordBag{}.Embed(ctx, queries)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range filters {
		selected, err := ix.Items(ctx, f, true, len(textOf)+1)
		if err != nil {
			t.Fatal(err)
		}
		if len(selected) == 0 {
			t.Fatalf("filter %+v selects nothing", f)
		}
		for qi, q := range vecs {
			// Every selected item, scored one by one, best first, ties
			// by row id, as NearestItems orders them.
			var all []memory.Hit
			for _, it := range selected {
				if sc, ok := vc.flat.Score(q, textOf[it.RowID]); ok {
					all = append(all, memory.Hit{Item: it, Score: float64(sc)})
				}
			}
			sortHits(all)
			for _, scan := range []int{0, -1} { // -1: no filter is scanned
				ix.filterScan = scan
				for _, limit := range []int{10, 100} {
					name := fmt.Sprintf("scan bound %d, filter %+v, %q, limit %d", ix.scanMax(), f, queries[qi], limit)
					got, err := ix.NearestItems(ctx, q, f, limit)
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					want := all[:min(limit, len(all))]
					if len(got) != len(want) {
						t.Errorf("%s: %d items, want %d", name, len(got), len(want))
						continue
					}
					for i := range want {
						if got[i].RowID != want[i].RowID || math.Abs(got[i].Score-want[i].Score) > 1e-6 {
							t.Errorf("%s: item %d is %s (%.6f), want %s (%.6f)", name, i+1, got[i].Source, got[i].Score, want[i].Source, want[i].Score)
							break
						}
					}
				}
			}
		}
	}
}

// embeddedSynth indexes 300 days of synthetic logs in the database at
// url and gives every text a vector (wordBag).
func embeddedSynth(t *testing.T, url string) *Index {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	if _, err := synth.Generate(dir, synth.Options{Days: 300, Seed: 3}); err != nil {
		t.Fatal(err)
	}
	db, err := Open(ctx, url, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(db.Close)
	ix, err := db.Workspace(ctx, "synth", dir, WorkspaceOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ix.EmbedPending(ctx, wordBag{}, memory.EmbedOptions{}); err != nil {
		t.Fatal(err)
	}
	return ix
}

// lastDay is the day of the workspace's newest log.
func lastDay(ctx context.Context, ix *Index) (time.Time, error) {
	var day string
	err := ix.read(ctx, func(tx querier) error {
		return tx.QueryRow(ctx, `SELECT max(day) FROM memoria_files WHERE ws = $1`, ix.id).Scan(&day)
	})
	if err != nil {
		return time.Time{}, err
	}
	return time.Parse("2006-01-02", day)
}

// TestNearestItemsFilteredHNSW: through the HNSW index, a filtered search
// gives items the filter selects only, and, where the filter is narrow
// enough to be answered by scoring its items (by PostgreSQL, from the
// float32 vectors), the exact scan's answer: the same items, scores
// within the int8 rounding of the exact scan's vectors (items that near
// the last one's score may differ).
func TestNearestItemsFilteredHNSW(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	ix := embeddedSynth(t, pgtest.NewVectorAppDatabase(t))
	if st, err := ix.Status(ctx); err != nil || !strings.HasPrefix(st.VectorSearch, "pgvector HNSW index") {
		t.Fatalf("vector search %q, %v", st.VectorSearch, err)
	}
	last, err := lastDay(ctx, ix)
	if err != nil {
		t.Fatal(err)
	}
	vecs, err := wordBag{}.Embed(ctx, []string{"what did Peter say about the release", "the build failed again on the server"})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []memory.Filter{
		{Since: last.AddDate(0, 0, -30)},
		{Since: last.AddDate(0, 0, -60), Until: last.AddDate(0, 0, -53)},
		{Entities: []string{"Peter"}, Since: last.AddDate(0, 0, -90)},
	} {
		selected, err := ix.Items(ctx, f, true, 1<<20)
		if err != nil {
			t.Fatal(err)
		}
		in := map[int64]bool{}
		for _, it := range selected {
			in[it.RowID] = true
		}
		for qi, q := range vecs {
			ix.filterScan = 0
			got, err := ix.NearestItems(ctx, q, f, 20)
			if err != nil {
				t.Fatal(err)
			}
			// The exact scan's answer: every selected item scored.
			ix.db.vectorColumn = false
			want, err := ix.NearestItems(ctx, q, f, 20)
			ix.db.vectorColumn = true
			if err != nil {
				t.Fatal(err)
			}
			name := fmt.Sprintf("filter %+v, query %d", f, qi+1)
			if len(got) != len(want) || len(got) == 0 {
				t.Fatalf("%s: %d items, the exact scan %d", name, len(got), len(want))
			}
			wanted := map[int64]float64{}
			for _, h := range want {
				wanted[h.RowID] = h.Score
			}
			found := map[int64]bool{}
			for _, h := range got {
				found[h.RowID] = true
			}
			last := want[len(want)-1].Score
			for _, h := range want {
				if !found[h.RowID] && h.Score > last+0.02 {
					t.Errorf("%s: %s (%.4f in the exact scan) is missing", name, h.Source, h.Score)
				}
			}
			for _, h := range got {
				if !in[h.RowID] {
					t.Errorf("%s: %s is not selected by the filter", name, h.Source)
				}
				w, ok := wanted[h.RowID]
				switch {
				case ok && math.Abs(w-h.Score) > 0.02:
					t.Errorf("%s: %s scores %.4f, the exact scan %.4f", name, h.Source, h.Score, w)
				case !ok && h.Score > last+0.02:
					t.Errorf("%s: %s (%.4f) is not in the exact scan's answer", name, h.Source, h.Score)
				}
			}
		}
	}
}
