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
		// Only for texts an item still holds: one `memoria forget` took
		// out while the batch was embedded gets no vector back (its sync
		// committed before it removes vectors, so this sees it or that
		// removes it).
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
					WHERE EXISTS (SELECT 1 FROM memoria_items i WHERE i.ws = $1 AND i.text_id = u.t)
					ON CONFLICT (ws, text_id) DO UPDATE SET vec = excluded.vec, emb = excluded.emb`, ix.id, ids, encoded, lits)
				return err
			}
			_, err = tx.Exec(ctx, `INSERT INTO memoria_vectors(ws, text_id, vec) SELECT $1, t, v FROM unnest($2::bigint[], $3::bytea[]) AS u(t, v)
				WHERE EXISTS (SELECT 1 FROM memoria_items i WHERE i.ws = $1 AND i.text_id = u.t)
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
// dot product of their text's vector with q, best first, ties by row id.
// It finds the nearest texts and maps them to their items, as the SQLite
// index does (sqlite/nearest.go): with a filter it over-fetches ×4; when
// too few pass, a filter that selects at most filterScanMax items is
// answered by scoring exactly those, and a wider one by a search as much
// wider as the share that passed says: widening ×4 round after round
// read the items of ever more texts, up to every text of the workspace
// for a narrow filter (docs/team.md). The texts come from the
// workspace's HNSW index where pgvector is on and one search can return
// them (pgvector.go), else from an exact scan in this process.
func (ix *Index) NearestItems(ctx context.Context, q []float32, f memory.Filter, limit int) ([]memory.Hit, error) {
	if limit <= 0 || len(q) == 0 {
		return nil, nil
	}
	filtered := where(&args{ix.id}, f) != ""
	var hits []memory.Hit
	err := ix.read(ctx, func(tx querier) error {
		hits = nil
		s := &textSearch{ix: ix, tx: tx, q: q, hnsw: ix.db.vectorColumn, n: -1}
		k := limit
		if filtered {
			k = 4 * limit
		}
		for round := 0; ; round++ {
			texts, err := s.nearest(ctx, k)
			if err != nil {
				return err
			}
			if hits, err = ix.itemsOfTexts(ctx, tx, texts, f); err != nil {
				return err
			}
			if len(hits) >= limit || len(texts) < k {
				return nil
			}
			n, err := s.count(ctx)
			if err != nil || k >= n {
				return err
			}
			// Too few of the nearest texts pass the filter. passed/k
			// estimates the share of texts it selects: if that is small,
			// score the items it selects; else search wider, as far as
			// that share says.
			passed := len(hits)
			if filtered && round == 0 && passed*n <= 2*ix.scanMax()*k {
				all, ok, err := ix.scoreFiltered(ctx, s, f, limit)
				if err != nil || ok {
					hits = all
					return err
				}
			}
			next := 4 * k
			if passed > 0 {
				next = max(2*k, k*limit*3/(2*passed))
			}
			k = min(next, n)
		}
	})
	sortHits(hits)
	if len(hits) > limit {
		hits = hits[:limit]
	}
	return hits, err
}

// filterScanMax: a filter selecting at most this many items is answered
// by scoring those items' texts directly instead of widening a search,
// as in the SQLite index.
const filterScanMax = 4096

// scanMax is filterScanMax, or the tests' bound (filterScan; below 0,
// none: every filter widens the search).
func (ix *Index) scanMax() int {
	switch {
	case ix.filterScan < 0:
		return 0
	case ix.filterScan > 0:
		return ix.filterScan
	}
	return filterScanMax
}

// textSearch finds a workspace's texts nearest q, inside one read
// transaction: through the HNSW index while one of its searches can
// return them, else by the exact scan of the workspace's vectors, loaded
// in this process on first need.
type textSearch struct {
	ix   *Index
	tx   querier
	q    []float32
	hnsw bool         // the HNSW index may answer (pgvector is on; not yet found missing)
	vc   *vectorCache // the exact scan's vectors, once loaded
	n    int          // texts with a vector, or at most the workspace's items; -1 until counted
}

// nearest returns the k texts nearest q, best first (fewer when the
// workspace has fewer).
func (s *textSearch) nearest(ctx context.Context, k int) ([]textScore, error) {
	if s.hnsw && k <= hnswEfSearch {
		texts, err := s.ix.hnswNearest(ctx, s.tx, s.q, k)
		if err != nil || len(texts) > 0 {
			return texts, err
		}
		s.hnsw = false // no index for q's dimension (or no vectors): the exact scan's turn
	}
	flat, err := s.flat(ctx)
	if err != nil || flat == nil {
		return nil, err
	}
	found, err := flat.SearchExact(s.q, k)
	if err != nil {
		return nil, err
	}
	texts := make([]textScore, len(found))
	for i, t := range found {
		texts[i] = textScore{t.ID, t.Score}
	}
	return texts, nil
}

// flat returns the workspace's vectors for the exact scan, nil when none
// have q's dimension.
func (s *textSearch) flat(ctx context.Context) (*ann.Flat, error) {
	if s.vc == nil {
		vc, err := s.ix.vectors(ctx, s.tx)
		if err != nil {
			return nil, err
		}
		s.vc = vc
	}
	if s.vc.flat == nil || s.vc.flat.Dim() != len(s.q) {
		return nil, nil
	}
	return s.vc.flat, nil
}

// count returns how many texts have a vector, or a number above it.
func (s *textSearch) count(ctx context.Context) (int, error) {
	if s.n >= 0 {
		return s.n, nil
	}
	if s.vc != nil {
		if s.n = 0; s.vc.flat != nil {
			s.n = s.vc.flat.Len()
		}
		return s.n, nil
	}
	// The workspace's items, which the writer keeps: at least its texts,
	// and a key's read where counting the vectors reads them all.
	return s.n, s.tx.QueryRow(ctx, `SELECT items FROM memoria_workspaces WHERE id = $1`, s.ix.id).Scan(&s.n)
}

// score returns the scores of these texts that have a vector of q's
// dimension: by PostgreSQL where the HNSW index answers (its vectors are
// not loaded here), else from the vectors in this process.
func (s *textSearch) score(ctx context.Context, ids []int64) (map[int64]float32, error) {
	if s.hnsw {
		return s.ix.hnswScore(ctx, s.tx, s.q, ids)
	}
	flat, err := s.flat(ctx)
	if err != nil || flat == nil {
		return nil, err
	}
	out := make(map[int64]float32, len(ids))
	for _, id := range ids {
		if sc, ok := flat.Score(s.q, id); ok {
			out[id] = sc
		}
	}
	return out, nil
}

// scoreFiltered ranks every item the filter selects by its text's score
// and returns the best limit of them (and any others that share their
// texts), when the filter selects at most filterScanMax items; ok is
// false when it selects more.
func (ix *Index) scoreFiltered(ctx context.Context, s *textSearch, f memory.Filter, limit int) ([]memory.Hit, bool, error) {
	a := args{ix.id}
	cond := where(&a, f)
	scanMax := ix.scanMax()
	sql := fmt.Sprintf(`SELECT i.id, i.text_id FROM memoria_items i WHERE i.ws = $1%s LIMIT %s`, cond, a.add(scanMax+1))
	ix.trace(sql, a)
	type itemText struct{ id, text int64 }
	selected, err := collect(ctx, s.tx, sql, a, func(rows pgx.Rows, it *itemText) error { return rows.Scan(&it.id, &it.text) })
	if err != nil || len(selected) > scanMax {
		return nil, false, err
	}
	ids := make([]int64, 0, len(selected))
	for _, it := range selected {
		ids = append(ids, it.text)
	}
	slices.Sort(ids)
	score, err := s.score(ctx, slices.Compact(ids))
	if err != nil {
		return nil, false, err
	}
	// The best limit items, as sortHits orders them, name the texts to
	// read; the items read beyond them share those texts and scores, and
	// come after them in that order.
	selected = slices.DeleteFunc(selected, func(it itemText) bool { _, ok := score[it.text]; return !ok })
	slices.SortFunc(selected, func(a, b itemText) int {
		return cmp.Or(cmp.Compare(score[b.text], score[a.text]), cmp.Compare(a.id, b.id))
	})
	var texts []textScore
	seen := map[int64]bool{}
	for _, it := range selected[:min(limit, len(selected))] {
		if !seen[it.text] {
			seen[it.text] = true
			texts = append(texts, textScore{it.text, score[it.text]})
		}
	}
	hits, err := ix.itemsOfTexts(ctx, s.tx, texts, f)
	return hits, err == nil, err
}

// textScore is a text found near a query, and its score.
type textScore struct {
	id    int64
	score float32
}

// itemsOfTexts reads the items that carry these texts and pass the
// filter, each scored with its text's score.
func (ix *Index) itemsOfTexts(ctx context.Context, tx querier, texts []textScore, f memory.Filter) ([]memory.Hit, error) {
	if len(texts) == 0 {
		return nil, nil
	}
	score := make(map[int64]float32, len(texts))
	ids := make([]int64, len(texts))
	for i, t := range texts {
		score[t.id], ids[i] = t.score, t.id
	}
	a := args{ix.id, ids}
	cond := where(&a, f)
	sql := fmt.Sprintf(`SELECT %s, i.text_id FROM memoria_items i JOIN memoria_files f ON f.ws = i.ws AND f.id = i.file_id
		WHERE i.ws = $1 AND i.text_id = ANY($2::bigint[])%s`, itemColumns, cond)
	ix.trace(sql, a)
	rows, err := tx.Query(ctx, sql, a...)
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
