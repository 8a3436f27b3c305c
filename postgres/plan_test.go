package postgres_test

import (
	"context"
	"fmt"
	neturl "net/url"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"memoria/bench/synth"
	"memoria/internal/pgtest"
	"memoria/internal/testworkspace"
	"memoria/memory"
	"memoria/postgres"
)

// TestSearchPlanFewWorkspaces: in a database of a few workspaces, under
// row-level security, a search reads its best rows' items by their ids
// and never scans every item of the workspace. The planner once took the
// join of the best hundred rows with their items for costlier than
// reading all 21,000 items and comparing each with each of the hundred
// (190 ms a search instead of 12); with one workspace, or fifty, it did
// not.
func TestSearchPlanFewWorkspaces(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	url := pgtest.NewAppDatabase(t)
	db, err := postgres.Open(ctx, url, postgres.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var ix *postgres.Index
	for i := range 2 {
		dir := t.TempDir()
		if _, err := synth.Generate(dir, synth.Options{Days: 856, Seed: uint64(i + 1)}); err != nil {
			t.Fatal(err)
		}
		w, err := db.Workspace(ctx, fmt.Sprintf("ws%d", i), dir, postgres.WorkspaceOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			ix = w
		}
	}
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	for _, q := range []string{"what did Peter say about the build", "the release version of the library"} {
		var sql string
		var args []any
		postgres.OnSearch(ix, func(s string, a []any) { sql, args = s, a })
		for _, f := range []memory.Filter{{}, {Entities: []string{"Peter"}}} {
			if _, err := ix.Search(ctx, strings.Fields(q), f, 100); err != nil {
				t.Fatal(err)
			}
			// The plan the search had: the same statement and values,
			// seeing the same workspace only.
			tx, err := conn.Begin(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := tx.Exec(ctx, `SELECT set_config('memoria.workspaces', $1, true)`, strconv.FormatInt(ix.ID(), 10)); err != nil {
				t.Fatal(err)
			}
			var lines []string
			rows, err := tx.Query(ctx, "EXPLAIN "+sql, args...)
			if err != nil {
				t.Fatal(err)
			}
			for rows.Next() {
				var l string
				if err := rows.Scan(&l); err != nil {
					t.Fatal(err)
				}
				if strings.Contains(l, "->") || len(lines) == 0 { // the nodes, not their keys
					lines = append(lines, l[:min(len(l), 160)])
				}
			}
			if err := rows.Err(); err != nil {
				t.Fatal(err)
			}
			tx.Rollback(ctx)
			plan := strings.Join(lines, "\n")
			if strings.Contains(plan, "Seq Scan on memoria_items") {
				t.Errorf("%q (filter %+v): the plan reads every item of the workspace:\n%s", q, f, plan)
			}
		}
	}
}

// TestBuildAnalyzesSharedTables: after a workspace's build, the planner's
// statistics of the tables all workspaces share know its rows, which
// autovacuum leaves until a tenth of a table changed.
func TestBuildAnalyzesSharedTables(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	app := pgtest.NewAppDatabase(t)
	db, err := postgres.Open(ctx, app, postgres.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var ids []int64
	for _, name := range []string{"first", "second"} {
		ix, err := db.Workspace(ctx, name, testworkspace.CopyExample(t), postgres.WorkspaceOptions{})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, ix.ID())
	}
	// pg_stats shows a table under row-level security to a superuser only.
	u, err := neturl.Parse(app)
	if err != nil {
		t.Fatal(err)
	}
	u.User = neturl.User("postgres")
	conn, err := pgx.Connect(ctx, u.String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	for _, table := range []string{"memoria_files", "memoria_item_entities"} {
		var vals string
		if err := conn.QueryRow(ctx, `SELECT coalesce(most_common_vals::text, '') FROM pg_stats WHERE tablename = $1 AND attname = 'ws'`, table).Scan(&vals); err != nil {
			t.Fatalf("%s: no statistics of ws: %v", table, err)
		}
		for _, id := range ids {
			if !slices.Contains(strings.Split(strings.Trim(vals, "{}"), ","), strconv.FormatInt(id, 10)) {
				t.Errorf("%s: the statistics of ws (most common %s) do not know workspace %d", table, vals, id)
			}
		}
	}
}
