package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"memoria/ann"
	"memoria/embed"
	"memoria/memory"
	"memoria/vector"
)

// The semantic channel over the index: the vector store (package vector,
// index.sqlite.vectors beside the index) holds a vector per distinct item
// text; the index embeds its texts into it and maps the texts it finds
// back to items, through items.text_hash (indexed: textHashIndex), with
// the filters.

// filterScanMax: a filter selecting at most this many items is answered by
// scoring those items' vectors directly instead of widening a search. A
// variable so that tests can exercise both ways on small data.
var filterScanMax = 4096

// EmbedPending gives a vector to every item text that has none (or has one
// from another model). Each batch is committed on its own, so an
// interrupted run resumes where it stopped. Then, above
// vector.FlatMaxVectors, it brings the saved vector graph up to date.
func (ix *Index) EmbedPending(ctx context.Context, e memory.Embedder, o memory.EmbedOptions) (st memory.EmbedStats, err error) {
	st = memory.EmbedStats{Model: e.Identity()}
	batch := o.Batch
	if batch <= 0 {
		batch = 64
	}
	if err := ix.vec.UseModel(ctx, e.Identity()); err != nil {
		return st, ix.wrapErr(err)
	}
	if _, err := ix.db().ExecContext(ctx, textHashIndex); err != nil {
		return st, ix.wrapErr(err)
	}
	missing, total, err := ix.textsWithoutVectors(ctx)
	if err != nil {
		return st, ix.wrapErr(err)
	}
	st.Total = total
	// Whatever stops the loop, Pending says what is left.
	defer func() { st.Pending = len(missing) - st.Embedded }()
	todo := len(missing)
	if o.Limit > 0 {
		todo = min(todo, o.Limit)
	}
	for start := 0; start < todo; start += batch {
		end := min(start+batch, todo)
		hashes, texts, err := ix.textsOf(ctx, missing[start:end])
		if err != nil {
			return st, ix.wrapErr(err)
		}
		vecs, err := e.Embed(ctx, texts)
		if err != nil {
			return st, fmt.Errorf("embed: %w", err)
		}
		if err := ix.putHeld(ctx, hashes, vecs); err != nil {
			return st, ix.wrapErr(err)
		}
		st.Embedded += end - start
		if o.Progress != nil {
			o.Progress(end, todo)
		}
	}
	st.Pending = len(missing) - st.Embedded
	if st.Pending == 0 {
		// Every item up to the newest has its vector: VectorLag counts the
		// items after this one.
		if _, err := ix.db().ExecContext(ctx, `INSERT OR REPLACE INTO meta(key, value) VALUES('embedded_through', (SELECT coalesce(max(id), 0) FROM items))`); err != nil {
			return st, ix.wrapErr(err)
		}
		ix.forgetCaches()
	}
	// Above vector.FlatMaxVectors the HNSW graph is built here, never in a
	// recall.
	if err := ix.vec.SaveGraph(ctx); err != nil {
		return st, ix.wrapErr(fmt.Errorf("vector index: %w", err))
	}
	return st, nil
}

// textsWithoutVectors lists the distinct item texts (their hashes) that
// the vector store has no vector for, and how many distinct texts there
// are.
func (ix *Index) textsWithoutVectors(ctx context.Context) (missing []string, total int, err error) {
	have, err := ix.vec.Texts(ctx)
	if err != nil {
		return nil, 0, err
	}
	rows, err := ix.db().QueryContext(ctx, `SELECT DISTINCT text_hash FROM items`)
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, 0, err
		}
		total++
		if !have[id] {
			missing = append(missing, hashText(id))
		}
	}
	return missing, total, rows.Err()
}

// textsOf reads the texts with these hashes, in their order.
func (ix *Index) textsOf(ctx context.Context, hashes []string) ([]string, []string, error) {
	ids := make([]int64, 0, len(hashes))
	for _, h := range hashes {
		if id, ok := vector.TextID(h); ok {
			ids = append(ids, id)
		}
	}
	list, err := json.Marshal(ids)
	if err != nil {
		return nil, nil, err
	}
	rows, err := ix.db().QueryContext(ctx, `SELECT text_hash, content FROM items
		WHERE text_hash IN (SELECT value FROM json_each(?)) GROUP BY text_hash`, string(list))
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	byHash := make(map[string]string, len(hashes))
	for rows.Next() {
		var id int64
		var t string
		if err := rows.Scan(&id, &t); err != nil {
			return nil, nil, err
		}
		byHash[hashText(id)] = t
	}
	if err := rows.Err(); err != nil {
		return nil, nil, err
	}
	var hs, ts []string
	for _, h := range hashes {
		if t, ok := byHash[h]; ok { // an item that left the index meanwhile has no text
			hs, ts = append(hs, h), append(ts, t)
		}
	}
	return hs, ts, nil
}

// VectorModel is the model the stored vectors came from ("" if none).
func (ix *Index) VectorModel(ctx context.Context) (string, error) {
	m, err := ix.vec.Model(ctx)
	return m, ix.wrapErrNil(err)
}

// nearestScan is NearestItems by brute force: every item that passes the
// filter, with its text's vector, decoded and scored. It was the semantic
// channel before the in-memory index and is kept as the reference the
// tests compare it with.
func (ix *Index) nearestScan(ctx context.Context, q []float32, f memory.Filter, limit int) ([]memory.Hit, error) {
	vecs, err := ix.vec.All(ctx)
	if err != nil {
		return nil, ix.wrapErr(err)
	}
	cond, args := where(f)
	rows, err := ix.query(ctx, `SELECT i.id, i.text_hash FROM items i WHERE 1`+cond, args...)
	if err != nil {
		return nil, ix.wrapErr(err)
	}
	defer rows.Close()
	var best []rankedItem // kept sorted, best first, at most limit long
	vec := make([]float32, len(q))
	for rows.Next() {
		var id int64
		var tid int64
		if err := rows.Scan(&id, &tid); err != nil {
			return nil, ix.wrapErr(err)
		}
		if vecs[tid] == nil || vector.Decode(vecs[tid], vec) != nil {
			continue // no vector, or one of another dimension
		}
		s := embed.Dot(q, vec)
		if len(best) == limit && s <= best[len(best)-1].score {
			continue
		}
		i := len(best)
		for i > 0 && best[i-1].score < s {
			i--
		}
		if len(best) < limit {
			best = append(best, rankedItem{})
		}
		copy(best[i+1:], best[i:len(best)-1])
		best[i] = rankedItem{id, s}
	}
	if err := rows.Err(); err != nil {
		return nil, ix.wrapErr(err)
	}
	return hitsOf(ctx, ix, best)
}

// rankedItem is an item ranked by the similarity of its text's vector.
type rankedItem struct {
	id    int64
	score float32
}

// NearestItems ranks the items that pass the filter by the dot product of
// their text's vector with q (a unit vector from the stored model), best
// first, ties by row id. Items without a vector are not ranked.
//
// It searches the vector store's in-memory index (package vector) for
// the nearest texts and maps them to items; with a filter it over-fetches
// texts, widening the search ×4 until limit items pass or the texts run
// out, and a filter that selects at most filterScanMax items is answered
// by scoring exactly those.
func (ix *Index) NearestItems(ctx context.Context, q []float32, f memory.Filter, limit int) ([]memory.Hit, error) {
	if limit <= 0 || len(q) == 0 {
		return nil, nil
	}
	s, err := ix.vec.Index(ctx)
	if err != nil {
		return nil, ix.wrapErr(err)
	}
	if s == nil || s.Dim() != len(q) {
		return nil, nil // no vectors, or vectors of another model's size
	}
	cond, args := where(f)
	k := limit
	if cond != "" {
		k = 4 * limit
	}
	var ranked []rankedItem
	for round := 0; ; round++ {
		hits, err := s.Search(q, k)
		if err != nil {
			return nil, err
		}
		if ranked, err = ix.itemsOfTexts(ctx, hits, cond, args); err != nil {
			return nil, ix.wrapErr(err)
		}
		n := s.Len()
		if len(ranked) >= limit || len(hits) < k || k >= n {
			break
		}
		// Too few of the nearest texts pass the filter. passed/k estimates
		// the share of texts it selects: if that is small, score the items
		// it selects; else search wider, as far as that share says.
		passed := len(ranked)
		if cond != "" && round == 0 && passed*n <= 2*filterScanMax*k {
			all, ok, err := ix.scoreFiltered(ctx, s, q, cond, args)
			if err != nil {
				return nil, ix.wrapErr(err)
			}
			if ok {
				ranked = all
				break
			}
		}
		next := 4 * k
		if passed > 0 {
			next = max(2*k, k*limit*3/(2*passed))
		}
		k = min(next, n)
	}
	if len(ranked) > limit {
		ranked = ranked[:limit]
	}
	return hitsOf(ctx, ix, ranked)
}

// itemsOfTexts maps texts (vector hits) to the items that carry them and
// pass the filter, ranked by their text's score, ties by row id.
func (ix *Index) itemsOfTexts(ctx context.Context, hits []ann.Hit, cond string, args []any) ([]rankedItem, error) {
	if len(hits) == 0 {
		return nil, nil
	}
	score := make(map[int64]float32, len(hits))
	ids := make([]int64, len(hits))
	for i, h := range hits {
		ids[i] = h.ID
		score[h.ID] = h.Score
	}
	list, err := json.Marshal(ids)
	if err != nil {
		return nil, err
	}
	rows, err := ix.query(ctx, `SELECT i.id, i.text_hash FROM items i
		WHERE i.text_hash IN (SELECT value FROM json_each(?))`+cond, append([]any{string(list)}, args...)...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []rankedItem
	for rows.Next() {
		var id int64
		var tid int64
		if err := rows.Scan(&id, &tid); err != nil {
			return nil, err
		}
		out = append(out, rankedItem{id, score[tid]})
	}
	sortRanked(out)
	return out, rows.Err()
}

// scoreFiltered ranks every item the filter selects, when it selects at
// most filterScanMax; ok is false when it selects more.
func (ix *Index) scoreFiltered(ctx context.Context, s *vector.Index, q []float32, cond string, args []any) ([]rankedItem, bool, error) {
	rows, err := ix.query(ctx, `SELECT i.id, i.text_hash FROM items i WHERE 1`+cond+` LIMIT ?`, slices.Concat(args, []any{filterScanMax + 1})...)
	if err != nil {
		return nil, false, err
	}
	defer rows.Close()
	var out []rankedItem
	seen := 0
	for rows.Next() {
		var id int64
		var tid int64
		if err := rows.Scan(&id, &tid); err != nil {
			return nil, false, err
		}
		if seen++; seen > filterScanMax {
			return nil, false, nil
		}
		if sc, ok := s.Score(q, tid); ok {
			out = append(out, rankedItem{id, sc})
		}
	}
	if err := rows.Err(); err != nil {
		return nil, false, err
	}
	sortRanked(out)
	return out, true, nil
}

func sortRanked(r []rankedItem) {
	slices.SortFunc(r, func(a, b rankedItem) int { return vector.ByScoreThenID(a.score, b.score, a.id, b.id) })
}

// rankedRow is an item's row id and its rank: rankedItem (by meaning),
// scoredRow (by bm25).
type rankedRow interface {
	rowID() int64
	rank() float64
}

func (r rankedItem) rowID() int64  { return r.id }
func (r rankedItem) rank() float64 { return float64(r.score) }

// hitsOf loads the ranked items, keeping their order; a row whose item is
// gone (a write came between the ranking and this read) is left out.
func hitsOf[R rankedRow](ctx context.Context, ix *Index, ranked []R) ([]memory.Hit, error) {
	if len(ranked) == 0 {
		return nil, nil
	}
	ids := make([]int64, len(ranked))
	for i, r := range ranked {
		ids[i] = r.rowID()
	}
	items, err := ix.itemsWithIDs(ctx, ids)
	if err != nil {
		return nil, ix.wrapErr(err)
	}
	hits := make([]memory.Hit, 0, len(ranked))
	for _, r := range ranked {
		if it, ok := items[r.rowID()]; ok {
			hits = append(hits, memory.Hit{Item: it, Score: r.rank()})
		}
	}
	return hits, nil
}

// VectorLag counts the items indexed since the last embedding that left no
// text without a vector (0 when none, or when no embedding has completed
// since the index was built): the items semantic recall may not see yet.
func (ix *Index) VectorLag(ctx context.Context) (int, error) {
	var n int
	err := ix.queryRow(ctx, `SELECT coalesce((SELECT count(*) FROM items WHERE id > CAST(value AS INTEGER)), 0) FROM meta WHERE key = 'embedded_through'`).Scan(&n)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, ix.wrapErr(err)
	}
	return n, nil
}

// VectorsLost reports whether the vector store was found damaged and
// started afresh since the index was opened.
func (ix *Index) VectorsLost() bool { return ix.vec.Lost() }
