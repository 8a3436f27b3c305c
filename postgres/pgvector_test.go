package postgres

import (
	"context"
	"errors"
	"hash/fnv"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"memoria/embed"
	"memoria/internal/pgtest"
	"memoria/internal/testworkspace"
	"memoria/memory"
	"memoria/sqlite"
)

// wordBag is a real, deterministic embedder: a hashed bag of words,
// L2-normalised; texts sharing words are near.
type wordBag struct{}

func (wordBag) Identity() string { return "test/wordbag-96" }

func (wordBag) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		v := make([]float32, 96)
		for _, w := range strings.Fields(strings.ToLower(t)) {
			h := fnv.New32a()
			h.Write([]byte(strings.Trim(w, ".,!?;:()\"'")))
			v[h.Sum32()%96]++
		}
		v[0] += 0.01 // no zero vector
		embed.Normalize(v)
		out[i] = v
	}
	return out, nil
}

// TestHNSWSearch embeds the example workspace in a database with pgvector
// and checks that semantic search goes through the workspace's HNSW index
// (the plan says so, under row-level security, as the application's role)
// and finds what the SQLite store's exact search finds.
func TestHNSWSearch(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	url := pgtest.NewVectorAppDatabase(t)
	ws := testworkspace.CopyExample(t)
	db, err := Open(ctx, url, Options{Warn: func(m string) { t.Log(m) }})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if !db.vectorColumn {
		t.Fatal("pgvector is created in the database, and its column was not added")
	}
	ix, err := db.Workspace(ctx, "example", ws, WorkspaceOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if s, _ := ix.vectorSearch(ctx); !strings.Contains(s, "no HNSW index yet") {
		t.Errorf("before embedding: %q", s)
	}
	if _, err := ix.EmbedPending(ctx, wordBag{}, memory.EmbedOptions{}); err != nil {
		t.Fatal(err)
	}
	st, err := ix.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if want := "pgvector HNSW index " + hnswIndexName(ix.id, 96); st.VectorSearch != want {
		t.Errorf("status says %q, want %q", st.VectorSearch, want)
	}
	for _, a := range st.Advice {
		if strings.Contains(a, "pgvector") {
			t.Errorf("advice with pgvector on: %s", a)
		}
	}

	// The plan, as the application's role, with row-level security: the
	// index can serve the search (on 1,500 texts the planner prefers a
	// sort, which enable_sort turns off for the test).
	var plan []string
	err = ix.read(ctx, func(tx querier) error {
		if _, err := tx.Exec(ctx, `SET enable_sort = off`); err != nil {
			return err
		}
		defer tx.Exec(ctx, `RESET enable_sort`)
		rows, err := tx.Query(ctx, `EXPLAIN SELECT text_id FROM memoria_vectors WHERE ws = `+strconv.FormatInt(ix.id, 10)+
			` ORDER BY emb::vector(96) <#> $1::vector(96) LIMIT 40`, vectorLiteral(make([]float32, 96)))
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var line string
			if err := rows.Scan(&line); err != nil {
				return err
			}
			plan = append(plan, line)
		}
		return rows.Err()
	})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(plan, "\n"), hnswIndexName(ix.id, 96)) {
		t.Errorf("the nearest-text query does not use the HNSW index:\n%s", strings.Join(plan, "\n"))
	}

	// The same answers as the SQLite store's search over the same texts.
	lite, err := sqlite.OpenAt(ctx, ws, filepath.Join(t.TempDir(), "index.sqlite"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer lite.Close()
	if _, err := lite.EmbedPending(ctx, wordBag{}, memory.EmbedOptions{}); err != nil {
		t.Fatal(err)
	}
	queries := []string{"prefers concise replies on WhatsApp", "the vet and the vaccination", "deploy script failed", "where does Peter live", "coffee in the morning"}
	vecs, _ := wordBag{}.Embed(ctx, queries)
	for i, q := range vecs {
		err := ix.read(ctx, func(tx querier) error {
			texts, err := ix.hnswNearest(ctx, tx, q, 10)
			if err == nil && len(texts) == 0 {
				err = errors.New("no texts")
			}
			return err
		})
		if err != nil {
			t.Fatalf("%q: the HNSW index did not answer (%v)", queries[i], err)
		}
		got, err := ix.NearestItems(ctx, q, memory.Filter{}, 10)
		if err != nil {
			t.Fatal(err)
		}
		want, err := lite.NearestItems(ctx, q, memory.Filter{}, 10)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(want) || len(got) == 0 {
			t.Fatalf("%q: %d results, sqlite %d", queries[i], len(got), len(want))
		}
		if got[0].Content != want[0].Content {
			t.Errorf("%q: first %q, sqlite %q", queries[i], got[0].Content, want[0].Content)
		}
		common := 0
		for _, g := range got {
			for _, w := range want {
				if g.Source == w.Source {
					common++
					break
				}
			}
		}
		if common < 8 { // int8 against float32 scores may swap near ties at the edge
			t.Errorf("%q: %d of 10 results in common with sqlite", queries[i], common)
		}
	}
	// A filter is applied to the texts the index finds.
	got, err := ix.NearestItems(ctx, vecs[0], memory.Filter{Kinds: []memory.Kind{memory.KindOpinion}}, 5)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) == 0 {
		t.Fatal("no opinion found")
	}
	for _, h := range got {
		if h.Kind != memory.KindOpinion {
			t.Errorf("filtered search gave a %s: %s", h.Kind, h.Content)
		}
	}
}

// TestPgvectorAdvice: a database whose server has pgvector but where
// nobody created it searches vectors exactly, and status says what an
// administrator runs.
func TestPgvectorAdvice(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, err := Open(ctx, pgtest.NewAppDatabase(t), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if !db.pgvector {
		t.Skip("the server has no pgvector")
	}
	ix, err := db.Workspace(ctx, "example", testworkspace.CopyExample(t), WorkspaceOptions{})
	if err != nil {
		t.Fatal(err)
	}
	st, err := ix.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(st.VectorSearch, "exact scan") {
		t.Errorf("vector search %q", st.VectorSearch)
	}
	advised := false
	for _, a := range st.Advice {
		advised = advised || strings.Contains(a, "CREATE EXTENSION vector")
	}
	if !advised {
		t.Errorf("no advice to create pgvector: %q", st.Advice)
	}
}
