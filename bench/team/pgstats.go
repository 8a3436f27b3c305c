//go:build unix

package main

import (
	"context"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"memoria/internal/pgtest"
)

// enableStatements has the server load pg_stat_statements (a restart,
// before anything else connects).
func enableStatements(ctx context.Context, c *pgtest.Cluster) error {
	conn, err := pgx.Connect(ctx, c.URL("postgres"))
	if err != nil {
		return err
	}
	_, err = conn.Exec(ctx, `ALTER SYSTEM SET shared_preload_libraries = 'pg_stat_statements'`)
	conn.Close(ctx)
	if err != nil {
		return err
	}
	return c.Restart()
}

// resetStatements makes the extension in the bench's database (as the
// superuser) and forgets what it counted so far.
func resetStatements(ctx context.Context, super string) error {
	conn, err := pgx.Connect(ctx, super)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, `CREATE EXTENSION IF NOT EXISTS pg_stat_statements`); err != nil {
		return err
	}
	_, err = conn.Exec(ctx, `SELECT pg_stat_statements_reset()`)
	return err
}

// topStatements are the statements of the bench's database that took the
// most time since the reset.
func topStatements(ctx context.Context, super string) ([]statement, error) {
	conn, err := pgx.Connect(ctx, super)
	if err != nil {
		return nil, err
	}
	defer conn.Close(ctx)
	rows, err := conn.Query(ctx, `SELECT calls, total_exec_time, mean_exec_time, rows, query,
		total_exec_time / nullif(sum(total_exec_time) OVER (), 0)
		FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
		ORDER BY total_exec_time DESC LIMIT 12`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []statement
	for rows.Next() {
		var s statement
		var total, mean float64
		var share *float64
		if err := rows.Scan(&s.Calls, &total, &mean, &s.Rows, &s.Query, &share); err != nil {
			return nil, err
		}
		s.Total, s.Mean = ms(time.Duration(total*float64(time.Millisecond))), ms(time.Duration(mean*float64(time.Millisecond)))
		if share != nil {
			s.Share = *share
		}
		s.Query = strings.Join(strings.Fields(s.Query), " ")
		if len(s.Query) > 200 {
			s.Query = s.Query[:200] + "…"
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// leakproof marks the function of tsvector @@ tsquery LEAKPROOF in the
// bench's database. Row-level security evaluates a condition that is not
// leakproof only after the policy's, so never as an index condition: the
// GIN index of a workspace's items is never used, and every full-text
// search reads all its rows. This shows what the index would give.
func leakproof(ctx context.Context, super string) error {
	conn, err := pgx.Connect(ctx, super)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	_, err = conn.Exec(ctx, `ALTER FUNCTION pg_catalog.ts_match_vq(tsvector, tsquery) LEAKPROOF`)
	return err
}
