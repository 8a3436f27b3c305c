package postgres_test

import (
	"context"
	"encoding/json"
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

// TestSearchReadsBestByKey: a search reads its best rows' items by their
// ids and each one's file by its key, under row-level security, in a
// database of two large workspaces and twenty small ones: no scan of
// every item or every file of the workspace. Under row-level security
// the planner cannot tell how many of a workspace's rows it will see;
// when it chose how to join the best hundred rows with their items and
// files, it read all 21,000 items of one workspace of two and compared
// each with the hundred (190 ms a search instead of 12), and, once the
// items were read by their ids, with many workspaces it compared every
// file of the workspace with every best item (16 ms instead of 3).
func TestSearchReadsBestByKey(t *testing.T) {
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
	for i := range 20 {
		if _, err := db.Workspace(ctx, fmt.Sprintf("small%d", i), testworkspace.CopyExample(t), postgres.WorkspaceOptions{}); err != nil {
			t.Fatal(err)
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
			// The plan the search had, run: the same statement and
			// values, seeing the same workspace only.
			tx, err := conn.Begin(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := tx.Exec(ctx, `SELECT set_config('memoria.workspaces', $1, true)`, strconv.FormatInt(ix.ID(), 10)); err != nil {
				t.Fatal(err)
			}
			var out []byte
			if err := tx.QueryRow(ctx, "EXPLAIN (ANALYZE, FORMAT JSON) "+sql, args...).Scan(&out); err != nil {
				t.Fatal(err)
			}
			tx.Rollback(ctx)
			var plans []struct{ Plan planNode }
			if err := json.Unmarshal(out, &plans); err != nil || len(plans) != 1 {
				t.Fatalf("EXPLAIN: %v\n%s", err, out)
			}
			plans[0].Plan.walk(func(n planNode) {
				switch {
				case n.NodeType == "Seq Scan" && (strings.HasPrefix(n.Relation, "memoria_items") || n.Relation == "memoria_files"):
					t.Errorf("%q (filter %+v): a sequential scan of %s", q, f, n.Relation)
				case n.Relation == "memoria_files" && n.Rows > 1:
					t.Errorf("%q (filter %+v): %s read %v rows at once, not one file per item", q, f, n.Relation, n.Rows)
				}
			})
		}
	}
}

// planNode is a node of EXPLAIN (ANALYZE, FORMAT JSON)'s plan.
type planNode struct {
	NodeType string     `json:"Node Type"`
	Relation string     `json:"Relation Name"`
	Rows     float64    `json:"Actual Rows"` // per loop
	Plans    []planNode `json:"Plans"`
}

func (n planNode) walk(f func(planNode)) {
	f(n)
	for _, c := range n.Plans {
		c.walk(f)
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
