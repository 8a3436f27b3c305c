package postgres_test

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"memoria/internal/pgtest"
	"memoria/internal/testworkspace"
	"memoria/memory"
	"memoria/postgres"
)

// TestSearchWithinScope checks that a search within a scope of
// workspaces scores as a search of one workspace holding all their
// files would: each term weighed by its rarity among the scope's items,
// each row's length against their average. A workspace outside the scope
// counts for nothing, even when it holds the words; a scope without the
// workspace searched, or of one workspace, is a plain search.
func TestSearchWithinScope(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := openDB(t, pgtest.NewAppDatabase(t))
	small := map[string]string{
		"memory/2031-11-20.md": "# 2031-11-20\n\nZanzibar vault code is 7741.\n\nMet @Bravo about the zanzibar contract.\n",
		"memory/2031-11-21.md": "# 2031-11-21\n\nWhatsApp zanzibar group created.\n\n## Retain\n- W @Bravo: Bravo owns the zanzibar account.\n",
	}
	write := func(dir string, files map[string]string) string {
		for p, text := range files {
			if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, p), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return dir
	}
	open := func(name, dir string) *postgres.Index {
		ix, err := db.Workspace(ctx, name, dir, postgres.WorkspaceOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return ix
	}
	alpha := open("alpha", testworkspace.CopyExample(t))
	bravo := open("bravo", write(t.TempDir(), small))
	// Outside the scope: more of the same words, which must not count.
	other := open("other", write(t.TempDir(), map[string]string{
		"memory/2031-12-01.md": "# 2031-12-01\n\nThe vault code changed.\n\nA zanzibar vault.\n\nCode, code, vault.\n",
	}))
	both := open("both", write(testworkspace.CopyExample(t), small))
	scope := postgres.NewScope([]*postgres.Index{alpha, bravo})

	key := func(h memory.Hit) string { return h.Source.String() + " " + string(h.Kind) }
	terms := []string{"zanzibar", "vault", "code", "WhatsApp"}
	want, err := both.Search(ctx, terms, memory.Filter{}, 1000)
	if err != nil {
		t.Fatal(err)
	}
	score := map[string]float64{}
	for _, h := range want {
		score[key(h)] = h.Score
	}
	// The scope sums its workspaces' own counts: those alpha keeps from a
	// search of its own, and those it counts for the others.
	if _, _, err := alpha.TermStats(ctx, []string{"vault", "code"}); err != nil {
		t.Fatal(err)
	}
	found := 0
	for _, ix := range []*postgres.Index{alpha, bravo} {
		got, err := ix.SearchWithin(ctx, scope, terms, memory.Filter{}, 1000)
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range got {
			w, ok := score[key(h)]
			if !ok || math.Abs(w-h.Score) > 1e-6*w {
				t.Errorf("%s: %s %q scores %.6f within the scope, %.6f in one workspace of both (found %v)", ix.Name(), h.Source, h.Content, h.Score, w, ok)
			}
		}
		found += len(got)
	}
	if found != len(want) {
		t.Errorf("the scope's workspaces find %d rows, one workspace of both %d", found, len(want))
	}

	// Outside its scope, or alone in it, a workspace searches as it does
	// alone.
	alone, err := other.Search(ctx, terms, memory.Filter{}, 1000)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []*postgres.Scope{scope, postgres.NewScope([]*postgres.Index{other, other}), nil} {
		got, err := other.SearchWithin(ctx, s, terms, memory.Filter{}, 1000)
		if err != nil {
			t.Fatal(err)
		}
		if len(alone) == 0 || !slices.EqualFunc(got, alone, func(a, b memory.Hit) bool { return key(a) == key(b) && a.Score == b.Score }) {
			t.Errorf("outside the scope:\n got %s\nwant %s", ranked(got), ranked(alone))
		}
	}
}

// TestScopeCountsSeeNewWords: a team-wide search weighs a word by the
// items of all its workspaces that hold it, counts it keeps across
// recalls. After a sync adds a word none held, it weighs it as a database
// that never counted it before does; a kept 0 weighed it as unseen.
func TestScopeCountsSeeNewWords(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	url := pgtest.NewAppDatabase(t)
	db := openDB(t, url)
	dirB := t.TempDir()
	log := filepath.Join(dirB, "memory", "2031-11-20.md")
	if err := os.MkdirAll(filepath.Dir(log), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(log, []byte("# 2031-11-20\n\nThe vault code is 7741.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	open := func(db *postgres.DB, name, dir string) *postgres.Index {
		ix, err := db.Workspace(ctx, name, dir, postgres.WorkspaceOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return ix
	}
	dirA := testworkspace.CopyExample(t)
	alpha, bravo := open(db, "alpha", dirA), open(db, "bravo", dirB)
	search := func(a, b *postgres.Index) []memory.Hit {
		t.Helper()
		hits, err := b.SearchWithin(ctx, postgres.NewScope([]*postgres.Index{a, b}), []string{"kilimanjaro", "vault"}, memory.Filter{}, 10)
		if err != nil {
			t.Fatal(err)
		}
		return hits
	}
	search(alpha, bravo) // counts "kilimanjaro": no item holds it
	if err := os.WriteFile(log, []byte("# 2031-11-20\n\nThe vault code is 7741.\n\nKilimanjaro trip booked.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := bravo.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	got := search(alpha, bravo)
	fresh := openDB(t, url) // a database handle that never counted
	want := search(open(fresh, "alpha", dirA), open(fresh, "bravo", dirB))
	if len(got) == 0 || len(got) != len(want) {
		t.Fatalf("%d hits after the sync, %d from a fresh handle", len(got), len(want))
	}
	for i := range got {
		if got[i].Source != want[i].Source || math.Abs(got[i].Score-want[i].Score) > 1e-9*math.Abs(want[i].Score) {
			t.Errorf("hit %d: %s %.6f, a fresh handle %s %.6f", i, got[i].Source, got[i].Score, want[i].Source, want[i].Score)
		}
	}
}
