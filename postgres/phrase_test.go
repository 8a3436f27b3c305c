package postgres_test

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"memoria/internal/pgtest"
	"memoria/memory"
	"memoria/postgres"
)

// TestPhrasesAsSQLite: a term of several words is a phrase, matched where
// its words are adjacent and in order (phraseto_tsquery), as the SQLite
// index matches it (sqlite.TestPhraseSearch has the same lines), and
// scored as it scores it: bm25's idf of a phrase is that of the rows that
// hold the phrase, not of its rarest word's, which gave the phrase a
// lower score here than in SQLite wherever its words were also apart.
func TestPhrasesAsSQLite(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	ws := t.TempDir()
	lines := map[string]string{
		"memory/2025-11-01.md": "Fibre broadband reaches our street in March.",
		"memory/2025-11-02.md": "The fibre-broadband deal ends in May.",
		"memory/2025-11-03.md": "Broadband fibre is what everyone asks for.",
		"memory/2025-11-04.md": "The fibre cable sits in the cellar, by the broadband router.",
		"memory/2025-11-05.md": "The new kettle boils in a minute.",
	}
	for d := range 20 { // other lines, so that the words are not common
		lines[fmt.Sprintf("memory/2025-10-%02d.md", d+1)] = fmt.Sprintf("Walked the dog along the canal, lap %d.", d)
	}
	for rel, line := range lines {
		p := filepath.Join(ws, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("# Log\n\n"+line+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	lite := inSQLite(t, ws)
	db := openDB(t, pgtest.NewAppDatabase(t))
	pg, err := db.Workspace(ctx, "phrases", ws, postgres.WorkspaceOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		terms []string
		f     memory.Filter
		n     int // matches
	}{
		{terms: []string{"fibre broadband"}, n: 2},
		{terms: []string{"FIBRE Broadband"}, n: 2},
		{terms: []string{"broadband fibre"}, n: 1},
		{terms: []string{"fibre"}, n: 4},
		{terms: []string{"fibre cable sits"}, n: 1},
		{terms: []string{"fibre sits"}, n: 0},
		{terms: []string{"fibre NEAR broadband"}, n: 0},
		{terms: []string{"fibre broadband", "kettle", "canal"}, n: 23},
		{terms: []string{"fibre broadband", "broadband fibre"}, n: 3},
		{terms: []string{"fibre broadband"}, f: memory.Filter{Since: day("2025-11-02")}, n: 1},
	} {
		want, err := lite.Search(ctx, c.terms, c.f, 100)
		if err != nil {
			t.Fatal(err)
		}
		got, err := pg.Search(ctx, c.terms, c.f, 100)
		if err != nil {
			t.Fatal(err)
		}
		if len(want) != c.n {
			t.Errorf("Search(%q, %+v): SQLite finds %d, want %d", c.terms, c.f, len(want), c.n)
		}
		if a, b := sortedCitations(want), sortedCitations(got); !slices.Equal(a, b) {
			t.Errorf("Search(%q, %+v) matches differ:\nsqlite   %v\npostgres %v", c.terms, c.f, a, b)
			continue
		}
		score := map[string]float64{}
		for _, h := range got {
			score[h.Source.String()] = h.Score
		}
		for _, h := range want {
			if g := score[h.Source.String()]; math.Abs(g-h.Score) > 0.01*h.Score {
				t.Errorf("Search(%q, %+v): %s scores %.4f in SQLite, %.4f here", c.terms, c.f, h.Source, h.Score, g)
			}
		}
	}
}
