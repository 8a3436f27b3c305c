package postgres_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"memoria/bench/synth"
	"memoria/internal/pgtest"
	"memoria/memory"
	"memoria/postgres"
)

// BenchmarkSearch times full-text searches of one workspace the size of
// bench/team's (856 days of synthetic logs, about 21,000 items), warm, as a
// team server runs them: the words of questions an agent asks, some of
// which match more rows than a search scores (memory.MaxScoredRows).
//
//	go test -run XXX -bench Search ./postgres
func BenchmarkSearch(b *testing.B) {
	ctx := context.Background()
	ws := b.TempDir()
	if _, err := synth.Generate(ws, synth.Options{Days: 856, Seed: 1}); err != nil {
		b.Fatal(err)
	}
	url := pgtest.NewAppDatabase(b)
	db, err := postgres.Open(ctx, url, postgres.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	ix, err := db.Workspace(ctx, "bench", ws, postgres.WorkspaceOptions{})
	if err != nil {
		b.Fatal(err)
	}
	// As autovacuum would in its time: the planner's statistics.
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := conn.Exec(ctx, "ANALYZE"); err != nil {
		b.Fatal(err)
	}
	conn.Close(ctx)
	var queries [][]string
	for _, q := range []string{
		"what did Peter say about the build", "when did I fix the failing test",
		"debugging the connection error on the server", "notes on the index directory",
		"benchmarked the parser memory", "thread stack buffer", "moved the token to the header",
		"the release version of the library", "kubectl get pods in prod", "trip to Marrakech",
	} {
		queries = append(queries, strings.Fields(q))
	}
	for _, q := range queries { // counts and caches, as a server has them
		if _, err := ix.Search(ctx, q, memory.Filter{}, 100); err != nil {
			b.Fatal(err)
		}
	}
	var lat []time.Duration
	i := 0
	for b.Loop() {
		t := time.Now()
		if _, err := ix.Search(ctx, queries[i%len(queries)], memory.Filter{}, 100); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(t))
		i++
	}
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
}
