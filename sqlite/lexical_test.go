package sqlite

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"memoria/memory"
)

// loadLexicalNow loads the in-memory postings synchronously, as the
// background load would.
func loadLexicalNow(t *testing.T, ix *Index) {
	t.Helper()
	ix.lex.mu.Lock()
	ix.lex.state = lexBuilding
	ix.lex.mu.Unlock()
	l, _, err := loadLexical(context.Background(), ix.path)
	ix.finishLexical(l, err)
	if ix.lex.state != lexReady {
		t.Fatalf("postings not loaded: %v", ix.lex.buildErr)
	}
}

// queryWords draws 1–4 consecutive words from the workspace's own lines,
// punctuation and all, as people paste them.
func queryWords(t *testing.T, dir string, n int) [][]string {
	var words []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".md") {
			data, _ := os.ReadFile(p)
			words = append(words, strings.Fields(string(data))...)
		}
		return nil
	})
	if len(words) < 10 {
		t.Fatalf("no words in %s", dir)
	}
	r := rand.New(rand.NewPCG(1, 2))
	var out [][]string
	for len(out) < n {
		k := 1 + r.IntN(4)
		s := r.IntN(len(words) - k)
		out = append(out, words[s:s+k])
	}
	return append(out, []string{"don't"}, []string{"e-mail", "WhatsApp"}, []string{"Peter's"}, []string{"2025-11-27"})
}

// TestInMemoryRankingMatchesFTS5: the in-memory postings return the same
// items with the same scores as FTS5's bm25(), with and without filters,
// on the example workspace and the multilingual one (CJK bigrams, folds
// and stems in the alt text).
func TestInMemoryRankingMatchesFTS5(t *testing.T) {
	ctx := context.Background()
	filters := []Filter{
		{},
		{Since: time.Date(2025, 10, 1, 0, 0, 0, 0, time.UTC), Until: time.Date(2025, 11, 15, 0, 0, 0, 0, time.UTC)},
		{Kinds: []memory.Kind{memory.KindOpinion, memory.KindWorld}},
		{Entities: []string{"peter", "Warelay"}},
		{Since: time.Date(2025, 11, 1, 0, 0, 0, 0, time.UTC), Kinds: []memory.Kind{memory.KindPassage}},
	}
	for _, ws := range []string{"../examples/workspace", "../bench/multilingual/workspace"} {
		ix, err := OpenAt(ctx, ws, filepath.Join(t.TempDir(), "index.sqlite"), Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer ix.Close()
		loadLexicalNow(t, ix)
		compared := 0
		for _, words := range queryWords(t, ws, 150) {
			match := matchAny(words)
			for fi, f := range filters {
				for _, limit := range []int{1000, 7} {
					want, err := ix.searchFTS(ctx, match, f, limit)
					if err != nil {
						t.Fatal(err)
					}
					got, err := ix.searchMemory(ctx, &ix.lex, words, f, limit)
					if err != nil {
						t.Fatal(err)
					}
					if msg := sameRanking(got, want, limit); msg != "" {
						t.Fatalf("%s: %q, filter %d, limit %d: %s", ws, match, fi, limit, msg)
					}
					compared += len(want)
				}
			}
		}
		if compared < 1000 {
			t.Errorf("%s: only %d results compared", ws, compared)
		}
	}
}

// sameRanking compares two rankings: equal scores position by position,
// and the same items (in any order among equal scores, and with any choice
// among items tied at the cut).
func sameRanking(got, want []Hit, limit int) string {
	if len(got) != len(want) {
		return fmt.Sprintf("%d results, FTS5 %d", len(got), len(want))
	}
	close := func(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }
	for i := range want {
		if !close(got[i].Score, want[i].Score) {
			return fmt.Sprintf("result %d: score %v, FTS5 %v", i, got[i].Score, want[i].Score)
		}
	}
	cut := math.Inf(-1)
	if len(want) == limit && limit > 0 {
		cut = want[len(want)-1].Score
	}
	ids := func(hs []Hit) []string {
		var out []string
		for _, h := range hs {
			if !close(h.Score, cut) {
				out = append(out, fmt.Sprint(h.RowID))
			}
		}
		slices.Sort(out)
		return out
	}
	if a, b := ids(got), ids(want); !slices.Equal(a, b) {
		return fmt.Sprintf("items %v, FTS5 %v", a, b)
	}
	return ""
}

// TestInMemoryRankingFollowsChanges: a long-lived index's postings follow
// its own syncs and another process's writes.
func TestInMemoryRankingFollowsChanges(t *testing.T) {
	ctx := context.Background()
	dir := testWorkspace(t)
	path := filepath.Join(t.TempDir(), "index.sqlite")
	ix, err := OpenAt(ctx, dir, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	for range 2 {
		if _, err := ix.Sync(ctx); err != nil {
			t.Fatal(err)
		}
	}
	loadLexicalNow(t, ix)
	found := func(word string) bool {
		t.Helper()
		hits, err := ix.Search(ctx, []string{word}, Filter{}, 10)
		if err != nil {
			t.Fatal(err)
		}
		if ix.lex.state != lexReady {
			t.Fatalf("%q: ranked by FTS5, not in memory", word)
		}
		return len(hits) > 0
	}
	if !found("Marrakech") {
		t.Fatal("Marrakech not found")
	}
	// This process syncs a change.
	writeFile(t, dir, "memory/2025-11-27.md", "# 2025-11-27\n\nThe aardvark escaped.\n")
	if _, err := ix.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	if !found("aardvark") || found("Marrakech") {
		t.Fatal("own sync not followed")
	}
	// Another process syncs a change into the same index file.
	writeFile(t, dir, "memory/2025-11-29.md", "# 2025-11-29\n\nA pangolin visited.\n")
	os.Remove(filepath.Join(dir, "memory", "2025-11-20.md"))
	other, err := OpenAt(ctx, dir, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := other.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	other.Close()
	if !found("pangolin") || found("vaccination") {
		t.Fatal("another process's sync not followed")
	}
}

// TestInMemoryTermStats: term counts from the postings equal the
// full-text index's own (fts5vocab) on a freshly built index.
func TestInMemoryTermStats(t *testing.T) {
	ctx := context.Background()
	ws := "../examples/workspace"
	ix, err := OpenAt(ctx, ws, filepath.Join(t.TempDir(), "index.sqlite"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	var words []string
	for _, q := range queryWords(t, ws, 100) {
		words = append(words, q...)
	}
	want, wantTotal, err := ix.TermStats(ctx, words)
	if err != nil {
		t.Fatal(err)
	}
	if err := ix.Warm(ctx); err != nil {
		t.Fatal(err)
	}
	got, total, ok, err := ix.termStatsInMemory(ctx, words)
	if err != nil || !ok {
		t.Fatalf("in memory: ok %v, %v", ok, err)
	}
	if total != wantTotal || !slices.Equal(got, want) {
		t.Errorf("in memory %d %v\nfts5vocab %d %v", total, got, wantTotal, want)
	}
}

// TestItemsMatchesPlainSort: Items's two-step query (the cut-off day
// through items_day, then the sort) lists exactly what sorting every item
// would.
func TestItemsMatchesPlainSort(t *testing.T) {
	ctx := context.Background()
	ix, err := OpenAt(ctx, "../examples/workspace", filepath.Join(t.TempDir(), "index.sqlite"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	filters := []Filter{
		{},
		{Since: time.Date(2025, 10, 1, 0, 0, 0, 0, time.UTC), Until: time.Date(2025, 11, 15, 0, 0, 0, 0, time.UTC)},
		{Kinds: []memory.Kind{memory.KindOpinion}},
		{Entities: []string{"peter"}},
	}
	for fi, f := range filters {
		for _, newest := range []bool{true, false} {
			for _, limit := range []int{1, 7, 100, 100000} {
				got, err := ix.Items(ctx, f, newest, limit)
				if err != nil {
					t.Fatal(err)
				}
				cond, args := f.where()
				order := "ASC"
				if newest {
					order = "DESC"
				}
				want := queryIDs(t, ix, fmt.Sprintf(`SELECT i.id FROM items i JOIN files f ON f.id = i.file_id WHERE 1%s
					ORDER BY coalesce(nullif(i.event_start, ''), i.written) %s, f.path, i.start_line, i.id LIMIT ?`, cond, order), append(args, limit)...)
				var ids []int64
				for _, it := range got {
					ids = append(ids, it.RowID)
				}
				if !slices.Equal(ids, want) {
					t.Errorf("filter %d newest %v limit %d: %v, want %v", fi, newest, limit, ids, want)
				}
			}
		}
	}
}

// TestEntityItemsMatchesPlainSort: EntityItems's cut-off query lists
// exactly what sorting every linked item would.
func TestEntityItemsMatchesPlainSort(t *testing.T) {
	ctx := context.Background()
	ix, err := OpenAt(ctx, "../examples/workspace", filepath.Join(t.TempDir(), "index.sqlite"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	filters := []Filter{
		{},
		{Since: time.Date(2025, 10, 1, 0, 0, 0, 0, time.UTC), Until: time.Date(2025, 11, 15, 0, 0, 0, 0, time.UTC)},
		{Kinds: []memory.Kind{memory.KindOpinion, memory.KindWorld}},
	}
	slugSets := [][]string{{"peter"}, {"Peter", "warelay"}, {"biscuit"}, {"nobody"}}
	compared := 0
	for _, warm := range []bool{false, true} {
		if warm {
			if err := ix.Warm(ctx); err != nil {
				t.Fatal(err)
			}
			filters = append(filters, Filter{Entities: []string{"warelay"}})
		}
		for _, slugs := range slugSets {
			for fi, f := range filters {
				for _, limit := range []int{1, 3, 10, 100000} {
					got, err := ix.EntityItems(ctx, slugs, f, limit)
					if err != nil {
						t.Fatal(err)
					}
					keys := make([]any, len(slugs))
					for i, s := range slugs {
						keys[i] = strings.ToLower(s)
					}
					cond, args := f.where()
					ph := placeholders(len(keys))
					q := fmt.Sprintf(`SELECT i.id FROM items i JOIN files f ON f.id = i.file_id
					LEFT JOIN (SELECT DISTINCT file_id FROM entity_pages WHERE lower(slug) IN (%s)) p ON p.file_id = i.file_id
					WHERE i.id IN (SELECT item_id FROM item_entities WHERE slug_key IN (%s))
					AND (i.kind != 'passage' OR p.file_id IS NOT NULL)%s
					ORDER BY (p.file_id IS NOT NULL) DESC,
						CASE WHEN p.file_id IS NOT NULL THEN '' ELSE coalesce(nullif(i.event_start, ''), i.written) END DESC,
						f.path, i.start_line, i.id LIMIT ?`, ph, ph, cond)
					want := queryIDs(t, ix, q, append(append(append(append([]any{}, keys...), keys...), args...), limit)...)
					var ids []int64
					for _, it := range got {
						ids = append(ids, it.RowID)
					}
					if !slices.Equal(ids, want) {
						t.Errorf("warm %v, %v filter %d limit %d: %v, want %v", warm, slugs, fi, limit, ids, want)
					}
					compared += len(want)
				}
			}
		}
	}
	if compared < 50 {
		t.Errorf("only %d items compared", compared)
	}
}

// queryIDs runs a query of one integer column and returns its values.
func queryIDs(t testing.TB, ix *Index, q string, args ...any) []int64 {
	t.Helper()
	rows, err := ix.db.QueryContext(context.Background(), q, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			t.Fatal(err)
		}
		out = append(out, id)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
