package postgres

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"memoria/vector"
)

// pgvector. Where the server has the extension, each vector is also kept
// as a pgvector value (memoria_vectors.emb, float32, as the model gave
// it) and each workspace's vectors get an HNSW index of their own: a
// partial index on (emb::vector(D)) for ws = its id, D the model's
// dimension, so that workspaces of different models share the table.
// NearestItems then asks PostgreSQL for the nearest texts instead of
// scanning them in the asking process. Without the extension (Debian 12
// does not package it), or without the right to add the column, the exact
// scan of vectors.go is what runs, and Status says which one does.

// hnswEfSearch is the candidate list of an HNSW search (pgvector's
// hnsw.ef_search, set on every connection): the most texts one search
// returns. NearestItems widens its search up to it, then scans exactly.
const hnswEfSearch = 400

// setupPgvector makes memoria_vectors.emb usable where the server offers
// pgvector: it creates the extension when the connection may (a superuser;
// the extension is not trusted) and adds the column (the tables' owner
// may). It reports whether the server offers pgvector, whether the column
// is there, and, when it is not but could be, what an administrator runs.
func setupPgvector(ctx context.Context, conn *pgx.Conn) (available, on bool, advice string, err error) {
	var installed, super, column bool
	err = conn.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'vector'),
		EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector'),
		(SELECT rolsuper FROM pg_roles WHERE rolname = current_user),
		EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = 'memoria_vectors'::regclass AND attname = 'emb' AND NOT attisdropped)`).
		Scan(&installed, &available, &super, &column)
	if err != nil || column || !available {
		return available, column, "", err
	}
	if !installed && !super {
		return true, false, "CREATE EXTENSION vector", nil
	}
	tx, err := conn.Begin(ctx)
	if err != nil {
		return true, false, "", err
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, migrateLock); err != nil {
		return true, false, "", err
	}
	if _, err := tx.Exec(ctx, `CREATE EXTENSION IF NOT EXISTS vector`); err != nil {
		return true, false, "", err
	}
	if _, err := tx.Exec(ctx, `ALTER TABLE memoria_vectors ADD COLUMN IF NOT EXISTS emb vector`); err != nil {
		var pe *pgconn.PgError
		if errors.As(err, &pe) && pe.Code == "42501" { // insufficient privilege: not the tables' owner
			return true, false, "", nil
		}
		return true, false, "", err
	}
	return true, true, "", tx.Commit(ctx)
}

// vectorLiteral is v in pgvector's text form.
func vectorLiteral(v []float32) string {
	var b strings.Builder
	b.Grow(len(v) * 10)
	b.WriteByte('[')
	for i, x := range v {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.FormatFloat(float64(x), 'g', -1, 32))
	}
	b.WriteByte(']')
	return b.String()
}

// hnswIndexName names a workspace's HNSW index for one dimension.
func hnswIndexName(ws int64, dim int) string {
	return fmt.Sprintf("memoria_vectors_hnsw_%d_%d", ws, dim)
}

// fillVectorColumn gives emb to the workspace's vectors stored without
// it (embedded before the column existed), from their stored int8 form,
// a batch per transaction.
func (ix *Index) fillVectorColumn(ctx context.Context) error {
	for {
		var ids []int64
		var lits []string
		err := ix.read(ctx, func(tx querier) error {
			rows, err := tx.Query(ctx, `SELECT text_id, vec FROM memoria_vectors WHERE ws = $1 AND emb IS NULL LIMIT 512`, ix.id)
			if err != nil {
				return err
			}
			defer rows.Close()
			for rows.Next() {
				var id int64
				var b []byte
				if err := rows.Scan(&id, &b); err != nil {
					return err
				}
				if len(b) <= 4 {
					continue
				}
				v := make([]float32, len(b)-4)
				if err := vector.Decode(b, v); err != nil {
					continue
				}
				ids, lits = append(ids, id), append(lits, vectorLiteral(v))
			}
			return rows.Err()
		})
		if err != nil || len(ids) == 0 {
			return err
		}
		err = ix.db.tx(ctx, []int64{ix.id}, func(tx pgx.Tx) error {
			_, err := tx.Exec(ctx, `UPDATE memoria_vectors v SET emb = u.e::vector FROM unnest($2::bigint[], $3::text[]) AS u(t, e)
				WHERE v.ws = $1 AND v.text_id = u.t`, ix.id, ids, lits)
			return err
		})
		if err != nil {
			return ix.errorf(err)
		}
	}
}

// ensureHNSW creates the workspace's HNSW index for its vectors'
// dimension, once they are all stored, and drops its indexes of other
// dimensions (another model's). CONCURRENTLY, so that other workspaces'
// vectors can be written while it builds; an index left invalid by an
// interrupted build is built again.
func (ix *Index) ensureHNSW(ctx context.Context) error {
	type found struct {
		name  string
		valid bool
	}
	var have []found
	dim := 0
	err := ix.read(ctx, func(tx querier) error {
		err := tx.QueryRow(ctx, `SELECT coalesce((SELECT vector_dims(emb) FROM memoria_vectors WHERE ws = $1 AND emb IS NOT NULL LIMIT 1), 0)`, ix.id).Scan(&dim)
		if err != nil {
			return err
		}
		rows, err := tx.Query(ctx, `SELECT c.relname, i.indisvalid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
			WHERE i.indrelid = 'memoria_vectors'::regclass AND c.relname LIKE $1`, fmt.Sprintf("memoria_vectors_hnsw_%d_%%", ix.id))
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var f found
			if err := rows.Scan(&f.name, &f.valid); err != nil {
				return err
			}
			have = append(have, f)
		}
		return rows.Err()
	})
	if err != nil || dim == 0 {
		return err
	}
	name := hnswIndexName(ix.id, dim)
	ok := false
	for _, f := range have {
		if f.name == name && f.valid {
			ok = true
			continue
		}
		if err := ix.exec(ctx, `DROP INDEX CONCURRENTLY IF EXISTS `+pgx.Identifier{f.name}.Sanitize()); err != nil {
			return err
		}
	}
	if ok {
		return nil
	}
	// The workspace id and the dimension are written into the statement:
	// the planner proves a partial index's predicate from constants, not
	// from parameters.
	err = ix.exec(ctx, fmt.Sprintf(`CREATE INDEX CONCURRENTLY IF NOT EXISTS %s ON memoria_vectors USING hnsw ((emb::vector(%d)) vector_ip_ops) WHERE ws = %d`,
		pgx.Identifier{name}.Sanitize(), dim, ix.id))
	if err != nil {
		return err
	}
	// The planner weighs the index against a sort by the table's size.
	return ix.exec(ctx, `ANALYZE memoria_vectors`)
}

// exec runs one statement outside a transaction (CREATE INDEX
// CONCURRENTLY cannot run in one), on a pooled connection.
func (ix *Index) exec(ctx context.Context, sql string) error {
	return ix.db.retry(ctx, func() error {
		conn, err := ix.db.pool.Acquire(ctx)
		if err != nil {
			return err
		}
		defer conn.Release()
		_, err = conn.Exec(ctx, sql)
		return err
	})
}

// hnswNearest returns the k texts nearest q by the workspace's HNSW
// index for q's dimension, best first (k at most hnswEfSearch), or none
// when there is no such index: the exact scan must answer.
func (ix *Index) hnswNearest(ctx context.Context, tx querier, q []float32, k int) ([]textScore, error) {
	dim := len(q)
	// Only while the index is there and valid (a condition PostgreSQL
	// evaluates once): without it, no rows, and no round trip of its own
	// to ask.
	sql := fmt.Sprintf(`SELECT text_id, -(emb::vector(%[1]d) <#> $1::vector(%[1]d)) FROM memoria_vectors
		WHERE ws = %[2]d AND EXISTS (SELECT 1 FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE c.relname = '%[4]s' AND i.indisvalid)
		ORDER BY emb::vector(%[1]d) <#> $1::vector(%[1]d) LIMIT %[3]d`, dim, ix.id, k, hnswIndexName(ix.id, dim))
	return collect(ctx, tx, sql, args{vectorLiteral(q)}, func(rows pgx.Rows, t *textScore) error { return rows.Scan(&t.id, &t.score) })
}

// hnswScore returns the scores of these texts against q, computed by
// PostgreSQL from the emb column the HNSW index searches; a text whose
// vector has another dimension (a model change under way) has none.
func (ix *Index) hnswScore(ctx context.Context, tx querier, q []float32, ids []int64) (map[int64]float32, error) {
	dim := len(q)
	rows, err := tx.Query(ctx, fmt.Sprintf(`SELECT text_id, CASE WHEN vector_dims(emb) = %[1]d THEN -(emb::vector(%[1]d) <#> $2::vector(%[1]d)) END
		FROM memoria_vectors WHERE ws = $1 AND text_id = ANY($3::bigint[]) AND emb IS NOT NULL`, dim), ix.id, vectorLiteral(q), ids)
	if err != nil {
		return nil, err
	}
	out := make(map[int64]float32, len(ids))
	var id int64
	var score *float32
	_, err = pgx.ForEachRow(rows, []any{&id, &score}, func() error {
		if score != nil {
			out[id] = *score
		}
		return nil
	})
	return out, err
}

// vectorSearch says how NearestItems finds the workspace's nearest texts.
func (ix *Index) vectorSearch(ctx context.Context) (string, error) {
	switch {
	case !ix.db.pgvector:
		return "exact scan in this process (the server has no pgvector)", nil
	case !ix.db.vectorColumn:
		return "exact scan in this process (pgvector is not turned on in this database)", nil
	}
	var name string
	err := ix.read(ctx, func(tx querier) error {
		return tx.QueryRow(ctx, `SELECT coalesce((SELECT c.relname FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
			WHERE i.indrelid = 'memoria_vectors'::regclass AND c.relname LIKE $1 AND i.indisvalid LIMIT 1), '')`,
			fmt.Sprintf("memoria_vectors_hnsw_%d_%%", ix.id)).Scan(&name)
	})
	if err != nil {
		return "", err
	}
	if name == "" {
		return "pgvector; no HNSW index yet (made when every text has its vector): exact scan in this process", nil
	}
	return "pgvector HNSW index " + name, nil
}
