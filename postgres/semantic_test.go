package postgres_test

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"memoria/embed"
	"memoria/embed/models"
	"memoria/internal/pgtest"
	"memoria/internal/testworkspace"
	"memoria/memory"
	"memoria/postgres"
	"memoria/sqlite"
)

// defaultModel loads the default embedding model, or skips the test when
// it is not installed (CI installs it, and sets MEMORIA_REQUIRE_MODEL so
// that its absence fails there).
func defaultModel(t *testing.T) embed.Embedder {
	t.Helper()
	e, err := models.Default.Load("")
	if errors.Is(err, models.ErrMissing) {
		if os.Getenv("MEMORIA_REQUIRE_MODEL") != "" {
			t.Fatalf("the embedding model is not installed: %v", err)
		}
		t.Skipf("the embedding model %s is not installed (%s; CI installs it): the semantic path is not tested", models.Default.Name, models.Default.InstallCommand())
	}
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// TestSemanticPath embeds the example workspace with the default model in
// PostgreSQL and in SQLite and checks the semantic channel end to end:
// every text gets a vector, the nearest items of a question that shares
// no word with its answer are the SQLite index's (the same vectors, the
// same exact scan), filters hold, new text is embedded incrementally and
// only it, and another workspace's vectors are never seen.
func TestSemanticPath(t *testing.T) {
	t.Parallel()
	e := defaultModel(t)
	ctx := context.Background()
	dir := testworkspace.CopyExample(t)
	db := openDB(t, pgtest.NewAppDatabase(t))
	pg, err := db.Workspace(ctx, "example", dir, postgres.WorkspaceOptions{})
	if err != nil {
		t.Fatal(err)
	}
	lite, err := sqlite.OpenAt(ctx, dir, filepath.Join(t.TempDir(), "index.sqlite"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer lite.Close()

	if m, err := pg.VectorModel(ctx); err != nil || m != "" {
		t.Fatalf("vector model before any embedding: %q, %v", m, err)
	}
	if hits, err := pg.NearestItems(ctx, make([]float32, 8), memory.Filter{}, 5); err != nil || len(hits) > 0 {
		t.Fatalf("nearest items without vectors: %v, %v", hits, err)
	}
	st, err := pg.EmbedPending(ctx, e, memory.EmbedOptions{Batch: 50})
	if err != nil {
		t.Fatal(err)
	}
	status, err := pg.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.Embedded == 0 || st.Embedded != st.Total || st.Pending != 0 || status.Embedded != status.Texts || status.Texts != st.Total {
		t.Fatalf("embedding: %+v; status: %d of %d texts embedded", st, status.Embedded, status.Texts)
	}
	if m, err := pg.VectorModel(ctx); err != nil || m != e.Identity() {
		t.Errorf("vector model %q, %v; want %q", m, err, e.Identity())
	}
	if lag, err := pg.VectorLag(ctx); err != nil || lag != 0 {
		t.Errorf("vector lag after embedding everything: %d, %v", lag, err)
	}
	if again, err := pg.EmbedPending(ctx, e, memory.EmbedOptions{}); err != nil || again.Embedded != 0 {
		t.Errorf("a second embedding embedded %d texts (%v); want none", again.Embedded, err)
	}
	if _, err := lite.EmbedPending(ctx, e, memory.EmbedOptions{}); err != nil {
		t.Fatal(err)
	}

	exact := strings.HasPrefix(status.VectorSearch, "exact scan")
	t.Logf("vector search: %s", status.VectorSearch)

	// "pet" and "animal" are in no line of the workspace: only meaning
	// finds the lines about its cats and dogs.
	question := "what animal does he keep as a pet?"
	vecs, err := e.Embed(ctx, []string{question})
	if err != nil {
		t.Fatal(err)
	}
	q := vecs[0]
	for _, f := range []memory.Filter{{}, {Kinds: []memory.Kind{memory.KindWorld, memory.KindOpinion}}} {
		want, err := lite.NearestItems(ctx, q, f, 10)
		if err != nil {
			t.Fatal(err)
		}
		got, err := pg.NearestItems(ctx, q, f, 10)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 10 || len(want) != 10 {
			t.Fatalf("filter %+v: %d nearest items, SQLite %d; want 10", f, len(got), len(want))
		}
		for i := range got {
			// The same int8 vectors, the same exact scan: the same
			// items, in the same order, with the same scores. pgvector's
			// HNSW index (where it runs) scores the vectors before
			// quantization, and may miss a neighbour: the same items
			// near the top, with scores near SQLite's.
			if !exact {
				if i < 5 && !slices.ContainsFunc(want, func(h memory.Hit) bool { return h.Source == got[i].Source && math.Abs(h.Score-got[i].Score) < 0.02 }) {
					t.Errorf("filter %+v, nearest %d (%s): %s %.4f %q is not among SQLite's ten nearest", f, i+1, status.VectorSearch, got[i].Source, got[i].Score, got[i].Content)
				}
			} else if got[i].Source != want[i].Source || got[i].Content != want[i].Content || math.Abs(got[i].Score-want[i].Score) > 1e-6 {
				t.Errorf("filter %+v, nearest %d:\npostgres %s %.6f %q\nsqlite   %s %.6f %q", f, i+1,
					got[i].Source, got[i].Score, got[i].Content, want[i].Source, want[i].Score, want[i].Content)
			}
			if len(f.Kinds) > 0 && !slices.Contains(f.Kinds, got[i].Kind) {
				t.Errorf("filter %+v: an item of kind %s", f, got[i].Kind)
			}
			if i > 0 && got[i].Score > got[i-1].Score {
				t.Errorf("nearest items out of order: %.6f after %.6f", got[i].Score, got[i-1].Score)
			}
		}
		animal := func(h memory.Hit) bool {
			return slices.ContainsFunc([]string{"cat", "dog", "Biscuit", "beagle", "hedgehog"}, func(w string) bool { return strings.Contains(h.Content, w) })
		}
		if len(f.Kinds) == 0 && !animal(got[0]) {
			t.Errorf("%q: the nearest item names no animal: %s %q", question, got[0].Source, got[0].Content)
		}
	}

	// New text: the lag counts it, and only it is embedded.
	note := "# 2025-12-02\n\nAdopted a second dog, a greyhound called Pixel, from the shelter in Mödling.\n"
	if err := os.WriteFile(filepath.Join(dir, "memory", "2025-12-02.md"), []byte(note), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := pg.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	if lag, err := pg.VectorLag(ctx); err != nil || lag == 0 {
		t.Errorf("vector lag after new text: %d, %v; want some", lag, err)
	}
	more, err := pg.EmbedPending(ctx, e, memory.EmbedOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if more.Embedded == 0 || more.Embedded > 3 || more.Pending != 0 {
		t.Errorf("embedding the new text: %+v; want its one to three texts", more)
	}
	hits, err := pg.NearestItems(ctx, q, memory.Filter{}, 10)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(hits, func(h memory.Hit) bool { return strings.Contains(h.Content, "Pixel") }) {
		t.Errorf("the new line about a dog is not among the nearest items: %v", hits)
	}

	// Another workspace in the same database, embedded too: neither sees
	// the other's items.
	other := t.TempDir()
	if err := os.MkdirAll(filepath.Join(other, "memory"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(other, "memory", "2025-12-01.md"), []byte("# 2025-12-01\n\nOur cat Zanzibar sleeps on the warm router all day.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	pg2, err := db.Workspace(ctx, "other", other, postgres.WorkspaceOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pg2.EmbedPending(ctx, e, memory.EmbedOptions{}); err != nil {
		t.Fatal(err)
	}
	hits, err = pg.NearestItems(ctx, q, memory.Filter{}, 1000)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range hits {
		if strings.Contains(h.Content, "Zanzibar") {
			t.Errorf("workspace example sees the other's item %s %q", h.Source, h.Content)
		}
	}
	hits, err = pg2.NearestItems(ctx, q, memory.Filter{}, 1000)
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) == 0 || len(hits) > 2 {
		t.Errorf("workspace other: %d nearest items, want its own one or two", len(hits))
	}
	for _, h := range hits {
		if !strings.Contains(h.Content, "Zanzibar") {
			t.Errorf("workspace other sees %s %q", h.Source, h.Content)
		}
	}
}
