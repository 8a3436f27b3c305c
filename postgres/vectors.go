package postgres

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/jackc/pgx/v5"

	"memoria/ann"
	"memoria/memory"
	"memoria/vector"
)

// The semantic channel: a vector per distinct item text of a workspace
// (memoria_vectors, keyed by the text's id), in vector.Encode's int8 form.
// NearestItems scans them exactly in the process that asks, from a copy
// kept in memory while the workspace's vectors are unchanged
// (vector_generation): the server needs no extension. Where the server
// has pgvector, its HNSW index takes the scan over (pgvector.go).

// textID is the id of an item text's hash (ingest.TextHash).
func textID(hash string) int64 {
	id, _ := vector.TextID(hash)
	return id
}

// vectorCache is a workspace's vectors in memory, as of one generation.
type vectorCache struct {
	generation int64
	model      string
	flat       *ann.Flat // nil when there are none
}

// EmbedPending gives a vector to every item text of the workspace that has
// none (or one from another model), a batch per transaction, so that an
// interrupted run resumes where it stopped.
func (ix *Index) EmbedPending(ctx context.Context, e memory.Embedder, o memory.EmbedOptions) (st memory.EmbedStats, err error) {
	model := e.Identity()
	st = memory.EmbedStats{Model: model}
	batch := o.Batch
	if batch <= 0 {
		batch = 64
	}
	// A new model: the old vectors go, in the same transaction that names it.
	err = ix.db.tx(ctx, []int64{ix.id}, func(tx pgx.Tx) error {
		var current string
		if err := tx.QueryRow(ctx, `SELECT vector_model FROM memoria_workspaces WHERE id = $1 FOR UPDATE`, ix.id).Scan(&current); err != nil {
			return err
		}
		if current == model {
			return nil
		}
		if _, err := tx.Exec(ctx, `DELETE FROM memoria_vectors WHERE ws = $1`, ix.id); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `UPDATE memoria_workspaces SET vector_model = $2, vector_generation = vector_generation + 1 WHERE id = $1`, ix.id, model)
		return err
	})
	if err != nil {
		return st, ix.errorf(err)
	}
	var pending int
	err = ix.read(ctx, func(tx querier) error {
		return tx.QueryRow(ctx, `SELECT count(DISTINCT text_id), count(DISTINCT text_id) FILTER (WHERE NOT EXISTS
			(SELECT 1 FROM memoria_vectors v WHERE v.ws = $1 AND v.text_id = i.text_id)) FROM memoria_items i WHERE ws = $1`, ix.id).Scan(&st.Total, &pending)
	})
	if err != nil {
		return st, err
	}
	todo := pending
	if o.Limit > 0 {
		todo = min(todo, o.Limit)
	}
	defer func() { st.Pending = pending - st.Embedded }()
	after := int64(math.MinInt64)
	for st.Embedded < todo {
		var ids []int64
		var texts []string
		err := ix.read(ctx, func(tx querier) error {
			ids, texts = ids[:0], texts[:0]
			rows, err := tx.Query(ctx, `SELECT DISTINCT ON (text_id) text_id, content FROM memoria_items i
				WHERE ws = $1 AND text_id > $2 AND NOT EXISTS (SELECT 1 FROM memoria_vectors v WHERE v.ws = $1 AND v.text_id = i.text_id)
				ORDER BY text_id LIMIT $3`, ix.id, after, min(batch, todo-st.Embedded))
			if err != nil {
				return err
			}
			defer rows.Close()
			for rows.Next() {
				var id int64
				var text string
				if err := rows.Scan(&id, &text); err != nil {
					return err
				}
				ids, texts = append(ids, id), append(texts, text)
			}
			return rows.Err()
		})
		if err != nil {
			return st, err
		}
		if len(ids) == 0 {
			break
		}
		vecs, err := e.Embed(ctx, texts)
		if err != nil {
			return st, fmt.Errorf("embed: %w", err)
		}
		encoded := make([][]byte, len(vecs))
		var lits []string // pgvector's form, where it is on
		for i, v := range vecs {
			encoded[i] = vector.Encode(v)
			if ix.db.vectorColumn {
				lits = append(lits, vectorLiteral(v))
			}
		}
		err = ix.db.tx(ctx, []int64{ix.id}, func(tx pgx.Tx) error {
			tag, err := tx.Exec(ctx, `UPDATE memoria_workspaces SET vector_generation = vector_generation + 1 WHERE id = $1 AND vector_model = $2`, ix.id, model)
			if err != nil {
				return err
			}
			if tag.RowsAffected() == 0 {
				return errors.New("another process switched the workspace to another model meanwhile")
			}
			if ix.db.vectorColumn {
				_, err = tx.Exec(ctx, `INSERT INTO memoria_vectors(ws, text_id, vec, emb) SELECT $1, t, v, e::vector FROM unnest($2::bigint[], $3::bytea[], $4::text[]) AS u(t, v, e)
					ON CONFLICT (ws, text_id) DO UPDATE SET vec = excluded.vec, emb = excluded.emb`, ix.id, ids, encoded, lits)
				return err
			}
			_, err = tx.Exec(ctx, `INSERT INTO memoria_vectors(ws, text_id, vec) SELECT $1, t, v FROM unnest($2::bigint[], $3::bytea[]) AS u(t, v)
				ON CONFLICT (ws, text_id) DO UPDATE SET vec = excluded.vec`, ix.id, ids, encoded)
			return err
		})
		if err != nil {
			return st, ix.errorf(err)
		}
		after = ids[len(ids)-1]
		st.Embedded += len(ids)
		if o.Progress != nil {
			o.Progress(st.Embedded, todo)
		}
	}
	if ix.db.vectorColumn && st.Embedded == pending {
		// Every text has its vector: the HNSW index is built (or kept)
		// for them, after vectors stored before pgvector was on get
		// their pgvector form.
		if err := ix.fillVectorColumn(ctx); err != nil {
			return st, err
		}
		if err := ix.ensureHNSW(ctx); err != nil {
			return st, fmt.Errorf("index %s: workspace %s: vector index: %w", ix.db.url, ix.name, err)
		}
	}
	return st, nil
}

// VectorLag counts the workspace's items whose text has no vector yet
// (0 when nothing was ever embedded).
func (ix *Index) VectorLag(ctx context.Context) (int, error) {
	var n int
	err := ix.read(ctx, func(tx querier) error {
		return tx.QueryRow(ctx, `SELECT CASE WHEN (SELECT vector_model FROM memoria_workspaces WHERE id = $1) = '' THEN 0 ELSE
			(SELECT count(*) FROM memoria_items i WHERE ws = $1 AND NOT EXISTS (SELECT 1 FROM memoria_vectors v WHERE v.ws = $1 AND v.text_id = i.text_id)) END`, ix.id).Scan(&n)
	})
	return n, err
}

// VectorModel names the model of the workspace's vectors ("" if none).
func (ix *Index) VectorModel(ctx context.Context) (string, error) {
	var m string
	err := ix.read(ctx, func(tx querier) error {
		return tx.QueryRow(ctx, `SELECT vector_model FROM memoria_workspaces WHERE id = $1`, ix.id).Scan(&m)
	})
	return m, err
}

// vectors returns the workspace's vectors in memory, read again when
// another embedding changed them.
func (ix *Index) vectors(ctx context.Context, tx querier) (*vectorCache, error) {
	var gen int64
	var model string
	if err := tx.QueryRow(ctx, `SELECT vector_generation, vector_model FROM memoria_workspaces WHERE id = $1`, ix.id).Scan(&gen, &model); err != nil {
		return nil, err
	}
	ix.mu.Lock()
	vc := ix.cache.vectors
	ix.mu.Unlock()
	if vc != nil && vc.generation == gen {
		return vc, nil
	}
	vc = &vectorCache{generation: gen, model: model}
	rows, err := tx.Query(ctx, `SELECT text_id, vec FROM memoria_vectors WHERE ws = $1`, ix.id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var b []byte
		if err := rows.Scan(&id, &b); err != nil {
			return nil, err
		}
		if len(b) <= 4 {
			continue
		}
		if vc.flat == nil {
			vc.flat = ann.NewFlat(len(b)-4, ann.FlatOptions{Int8: true})
		}
		if len(b)-4 != vc.flat.Dim() {
			return nil, fmt.Errorf("%w: vectors of %d and %d dimensions", memory.ErrCorrupt, len(b)-4, vc.flat.Dim())
		}
		q := make([]int8, len(b)-4)
		scale, err := vector.DecodeInt8(b, q)
		if err != nil {
			continue // as the SQLite store's loading skips it
		}
		if err := vc.flat.AddInt8(id, q, scale); err != nil {
			return nil, err
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	ix.mu.Lock()
	ix.cache.vectors = vc
	ix.mu.Unlock()
	return vc, nil
}

// NearestItems ranks the workspace's items that pass the filter by the
// dot product of their text's vector with q, best first, ties by row id:
// the nearest texts, mapped to their items, widening ×4 until limit items
// pass the filter or the texts run out. The texts come from the
// workspace's HNSW index where pgvector is on (pgvector.go), else from an
// exact scan in this process.
func (ix *Index) NearestItems(ctx context.Context, q []float32, f memory.Filter, limit int) ([]memory.Hit, error) {
	if limit <= 0 || len(q) == 0 {
		return nil, nil
	}
	if ix.db.vectorColumn {
		hits, ok, err := ix.nearestHNSW(ctx, q, f, limit)
		if err != nil || ok {
			return hits, err
		}
	}
	var hits []memory.Hit
	err := ix.read(ctx, func(tx querier) error {
		hits = hits[:0]
		vc, err := ix.vectors(ctx, tx)
		if err != nil || vc.flat == nil || vc.flat.Dim() != len(q) {
			return err
		}
		for k := limit * 4; ; k *= 4 {
			found, err := vc.flat.SearchExact(q, k)
			if err != nil {
				return err
			}
			texts := make([]textScore, len(found))
			for i, t := range found {
				texts[i] = textScore{t.ID, t.Score}
			}
			if hits, err = ix.itemsOfTexts(ctx, tx, texts, f); err != nil {
				return err
			}
			if len(hits) >= limit || len(texts) < k {
				break
			}
		}
		return nil
	})
	sortHits(hits)
	if len(hits) > limit {
		hits = hits[:limit]
	}
	return hits, err
}

// textScore is a text found near a query, and its score.
type textScore struct {
	id    int64
	score float32
}

// itemsOfTexts reads the items that carry these texts and pass the
// filter, each scored with its text's score.
func (ix *Index) itemsOfTexts(ctx context.Context, tx querier, texts []textScore, f memory.Filter) ([]memory.Hit, error) {
	score := make(map[int64]float32, len(texts))
	ids := make([]int64, len(texts))
	for i, t := range texts {
		score[t.id], ids[i] = t.score, t.id
	}
	a := args{ix.id, ids}
	cond := where(&a, f)
	rows, err := tx.Query(ctx, fmt.Sprintf(`SELECT %s, i.text_id FROM memoria_items i JOIN memoria_files f ON f.ws = i.ws AND f.id = i.file_id
		WHERE i.ws = $1 AND i.text_id = ANY($2::bigint[])%s`, itemColumns, cond), a...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var hits []memory.Hit
	for rows.Next() {
		var h memory.Hit
		var id int64
		if err := scanItem(rows, &h.Item, &id); err != nil {
			return nil, err
		}
		h.Score = float64(score[id])
		hits = append(hits, h)
	}
	return hits, rows.Err()
}

// sortHits orders hits best first, ties by row id.
func sortHits(hits []memory.Hit) {
	slices.SortFunc(hits, func(a, b memory.Hit) int {
		if a.Score != b.Score {
			if a.Score > b.Score {
				return -1
			}
			return 1
		}
		return cmp.Compare(a.RowID, b.RowID)
	})
}
