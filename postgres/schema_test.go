package postgres_test

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"memoria/internal/pgtest"
	"memoria/internal/testworkspace"
	"memoria/postgres"
)

// TestMigrationReadsAllowedOnce: a database as schema version 6 left it,
// with a workspace's partition of the items, is migrated to today's
// version when opened: every row-level security policy, the partition's
// too, then reads the allowed workspaces once a statement, the workspace
// is built into its partition, and a session allowed another workspace
// still sees none of its rows.
func TestMigrationReadsAllowedOnce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	url := pgtest.NewAppDatabase(t)
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if err := postgres.MigrateTo(ctx, conn, 6); err != nil {
		t.Fatal(err)
	}
	// What version 6 did to register a workspace.
	var id int64
	if err := conn.QueryRow(ctx, `INSERT INTO memoria_workspaces(name) VALUES('old') RETURNING id`).Scan(&id); err != nil {
		t.Fatal(err)
	}
	part := fmt.Sprintf("memoria_items_%d", id)
	if _, err := conn.Exec(ctx, fmt.Sprintf(`CREATE TABLE %[1]s PARTITION OF memoria_items FOR VALUES IN (%[2]d);
		ALTER TABLE %[1]s ENABLE ROW LEVEL SECURITY;
		ALTER TABLE %[1]s FORCE ROW LEVEL SECURITY;
		CREATE POLICY memoria_ws ON %[1]s USING (ws = ANY (memoria_allowed()))`, part, id)); err != nil {
		t.Fatal(err)
	}

	db := openDB(t, url)
	rows, err := conn.Query(ctx, `SELECT polrelid::regclass::text, pg_get_expr(polqual, polrelid) FROM pg_policy WHERE polname = 'memoria_ws'`)
	if err != nil {
		t.Fatal(err)
	}
	policies, err := pgx.CollectRows(rows, pgx.RowToStructByPos[struct{ Table, Using string }])
	if err != nil {
		t.Fatal(err)
	}
	tables := map[string]bool{}
	for _, p := range policies {
		tables[p.Table] = true
		if !strings.Contains(p.Using, "SELECT memoria_allowed()") {
			t.Errorf("%s: policy %s, not a subquery", p.Table, p.Using)
		}
	}
	for _, table := range []string{"memoria_files", "memoria_items", "memoria_item_entities", "memoria_entity_pages", "memoria_entity_names", "memoria_vectors", part} {
		if !tables[table] {
			t.Errorf("%s has no policy (policies: %v)", table, policies)
		}
	}

	ix, err := db.Workspace(ctx, "old", testworkspace.CopyExample(t), postgres.WorkspaceOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if ix.ID() != id {
		t.Fatalf("workspace id %d, registered as %d", ix.ID(), id)
	}
	for _, allowed := range []string{strconv.FormatInt(id, 10), strconv.FormatInt(id+1, 10), ""} {
		var n int
		if err := conn.QueryRow(ctx, `SELECT set_config('memoria.workspaces', $1, false)`, allowed).Scan(new(string)); err != nil {
			t.Fatal(err)
		}
		for _, table := range []string{"memoria_items", part} {
			if err := conn.QueryRow(ctx, `SELECT count(*) FROM `+table).Scan(&n); err != nil {
				t.Fatal(err)
			}
			if own := allowed == strconv.FormatInt(id, 10); own != (n > 0) {
				t.Errorf("allowed %q: %s shows %d rows", allowed, table, n)
			}
		}
	}
}
