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
	"time"

	"github.com/jackc/pgx/v5"

	"memoria/bench/synth"
	"memoria/internal/pgtest"
	"memoria/internal/testworkspace"
	"memoria/memory"
	"memoria/postgres"
)

// TestPlansReadByKey: under row-level security, in a database of two
// large workspaces and twenty small ones, the statements of a search, of
// an entity's items, of a listing and of the nearest items, with filters
// by entity and by date, find the rows they need by key: no
// scan of every item or every file of the workspace, and a search reads
// each best item's file alone. Under row-level security the planner
// cannot tell how many of a workspace's rows it will see. Left to choose,
// it read all 21,000 items of one workspace of two and compared each with
// the best hundred (190 ms a search instead of 12); once the items were
// read by their ids, with many workspaces, it compared every file of the
// workspace with every best item (16 ms instead of 3); it read every
// item to find an entity's within a date range (25 ms instead of 3); and
// a date filter alone read every item of the workspace, in a search (15
// ms instead of 3 for a week), a listing and the nearest items' scoring
// of a filter's items. Nor does any statement evaluate row-level
// security's list of allowed workspaces for each row it reads.
func TestPlansReadByKey(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	url := pgtest.NewAppDatabase(t)
	db := openDB(t, url)
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
	if _, err := ix.EmbedPending(ctx, postgres.WordBag{}, memory.EmbedOptions{}); err != nil {
		t.Fatal(err)
	}
	// plan runs a statement as the index ran it (by default its last),
	// with EXPLAIN ANALYZE: the same statement and values, seeing the same
	// workspace only.
	var ran []statement
	postgres.OnStatement(ix, func(sql string, args []any) { ran = append(ran, statement{sql, args}) })
	plan := func(st ...statement) planNode {
		t.Helper()
		if len(st) == 0 {
			st = ran[len(ran)-1:]
		}
		sql, args := st[0].sql, st[0].args
		tx, err := conn.Begin(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer tx.Rollback(ctx)
		if _, err := tx.Exec(ctx, `SELECT set_config('memoria.workspaces', $1, true)`, strconv.FormatInt(ix.ID(), 10)); err != nil {
			t.Fatal(err)
		}
		var out []byte
		if err := tx.QueryRow(ctx, "EXPLAIN (ANALYZE, FORMAT JSON) "+sql, args...).Scan(&out); err != nil {
			t.Fatal(err)
		}
		var plans []struct{ Plan planNode }
		if err := json.Unmarshal(out, &plans); err != nil || len(plans) != 1 {
			t.Fatalf("EXPLAIN: %v\n%s", err, out)
		}
		return plans[0].Plan
	}
	// check fails the test where a plan scans every item or file of the
	// workspace, or reads thousands of items its filter removes (an index
	// walked in order), or, with oneFile, reads more than one file at a
	// time (a date filter reads the files of its dates at once).
	const readMax = 5000 // of 21,000 items
	check := func(what string, p planNode, oneFile bool) {
		t.Helper()
		p.walk(func(n planNode) {
			switch {
			case n.NodeType == "Seq Scan" && (strings.HasPrefix(n.Relation, "memoria_items") || n.Relation == "memoria_files"):
				t.Errorf("%s: a sequential scan of %s", what, n.Relation)
			case strings.HasPrefix(n.Relation, "memoria_items") && n.Removed > readMax:
				t.Errorf("%s: %s read %v rows that the filter removed", what, n.NodeType, n.Removed)
			case oneFile && n.Relation == "memoria_files" && n.Rows > 1:
				t.Errorf("%s: %s read %v rows at once, not one file per item", what, n.Relation, n.Rows)
			case strings.Contains(n.Filter+n.IndexCond, "current_setting"):
				t.Errorf("%s: %s of %s reads the allowed workspaces row by row: %s", what, n.NodeType, n.Relation, n.Filter+n.IndexCond)
			}
		})
	}
	peter := []string{"Peter"}
	since := time.Date(2018, 3, 1, 0, 0, 0, 0, time.UTC) // the last two months of the workspace
	for _, q := range []string{"what did Peter say about the build", "the release version of the library"} {
		for _, f := range []memory.Filter{{}, {Entities: peter}, {Entities: peter, Since: since}} {
			if _, err := ix.Search(ctx, strings.Fields(q), f, 100); err != nil {
				t.Fatal(err)
			}
			check(fmt.Sprintf("search %q (filter %+v)", q, f), plan(), f.Since.IsZero())
		}
	}
	// An entity's items, with a date filter (one that holds nothing too)
	// or none, by EntityItems and by a listing (Items).
	for _, f := range []memory.Filter{{}, {Since: since}, {Since: time.Date(2026, 10, 27, 0, 0, 0, 0, time.UTC)}} {
		if _, err := ix.EntityItems(ctx, peter, f, 400); err != nil {
			t.Fatal(err)
		}
		check(fmt.Sprintf("entity items (filter %+v)", f), plan(), f.Since.IsZero())
		f.Entities = peter
		if _, err := ix.Items(ctx, f, true, 400); err != nil {
			t.Fatal(err)
		}
		check(fmt.Sprintf("items (filter %+v)", f), plan(), f.Since.IsZero())
	}
	// A date filter alone, on a search, a listing and the nearest items
	// (every statement of theirs): its files are found by their ids and
	// its events by their index, not by reading every item.
	week := memory.Filter{Since: since, Until: since.AddDate(0, 0, 7)}
	vecs, err := postgres.WordBag{}.Embed(ctx, []string{"what did Peter say about the build"})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []memory.Filter{{Since: since}, week, {Until: time.Date(2016, 3, 1, 0, 0, 0, 0, time.UTC)}, {Entities: peter}} {
		if _, err := ix.Search(ctx, strings.Fields("what did Peter say about the build"), f, 100); err != nil {
			t.Fatal(err)
		}
		check(fmt.Sprintf("search (filter %+v)", f), plan(), false)
		if _, err := ix.Items(ctx, f, true, 100); err != nil {
			t.Fatal(err)
		}
		check(fmt.Sprintf("items (filter %+v)", f), plan(), false)
		ran = nil
		if _, err := ix.NearestItems(ctx, vecs[0], f, 100); err != nil {
			t.Fatal(err)
		}
		if len(ran) == 0 {
			t.Fatalf("nearest items (filter %+v): no statement", f)
		}
		for i, st := range ran {
			check(fmt.Sprintf("nearest items (filter %+v), statement %d", f, i+1), plan(st), false)
		}
	}
}

// statement is a statement an index ran, and its arguments.
type statement struct {
	sql  string
	args []any
}

// planNode is a node of EXPLAIN (ANALYZE, FORMAT JSON)'s plan.
type planNode struct {
	NodeType  string     `json:"Node Type"`
	Relation  string     `json:"Relation Name"`
	Rows      float64    `json:"Actual Rows"`            // per loop
	Removed   float64    `json:"Rows Removed by Filter"` // per loop
	Filter    string     `json:"Filter"`
	IndexCond string     `json:"Index Cond"`
	Plans     []planNode `json:"Plans"`
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
	db := openDB(t, app)
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
