package sqlite

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"memoria/ingest"
	"memoria/memory"
)

// Weights of the full-text columns in bm25: the text itself, the heading
// above it, the names of the entities it mentions, and its neighbours.
const (
	weightContent  = 1.0
	weightSection  = 0.25
	weightEntities = 0.5
	weightContext  = 0.3
)

const itemColumns = `i.id, i.kind, coalesce(i.fact_id, ''), i.confidence, f.path, i.start_line, i.end_line, f.day, i.day, i.event_end, ` + sectionColumn + `, i.entities, i.content, i.status`

// where renders the filter as SQL conditions on items i.
func where(f memory.Filter) (string, []any) {
	var conds []string
	var args []any
	if !f.Since.IsZero() || !f.Until.IsZero() {
		lo, hi := "0000-00-00", "9999-99-99"
		if !f.Since.IsZero() {
			lo = f.Since.Format(ingest.DateLayout)
		}
		if !f.Until.IsZero() {
			hi = f.Until.Format(ingest.DateLayout)
		}
		conds = append(conds, `(i.file_id IN (SELECT id FROM files WHERE day != '' AND day BETWEEN ? AND ?) OR (i.event_end != 0 AND i.day <= ? AND i.event_end >= ?))`)
		args = append(args, lo, hi, dayNum(hi), dayNum(lo))
	}
	if len(f.Kinds) > 0 {
		conds = append(conds, "i.kind IN ("+placeholders(len(f.Kinds))+")")
		for _, k := range f.Kinds {
			n, err := kindCode(k)
			if err != nil {
				n = -1 // a kind no item has
			}
			args = append(args, n)
		}
	}
	if len(f.Entities) > 0 {
		conds = append(conds, "i.id IN (SELECT item_id FROM item_entities WHERE slug_key IN ("+placeholders(len(f.Entities))+"))")
		for _, e := range f.Entities {
			args = append(args, strings.ToLower(e))
		}
	}
	if len(conds) == 0 {
		return "", nil
	}
	return " AND " + strings.Join(conds, " AND "), args
}

func placeholders(n int) string {
	return strings.TrimSuffix(strings.Repeat("?,", n), ",")
}

// matchAny builds an FTS5 expression matching any of the terms. Each term
// is a quoted string, so FTS5 operators and punctuation in user text
// ("NEAR", "-", ":", "*", "(") are plain words, never syntax.
func matchAny(terms []string) string {
	parts := make([]string, 0, len(terms))
	for _, t := range terms {
		if t = strings.TrimSpace(t); t != "" {
			parts = append(parts, `"`+strings.ReplaceAll(t, `"`, `""`)+`"`)
		}
	}
	return strings.Join(parts, " OR ")
}

// Search finds the items that contain any of the terms (each a word or a
// phrase, matched as FTS5 matches a quoted string; operators in them are
// plain words) and returns the best limit by bm25 among those the filter
// admits, ranked by FTS5.
func (ix *Index) Search(ctx context.Context, terms []string, f memory.Filter, limit int) ([]memory.Hit, error) {
	match := matchAny(terms)
	if match == "" || limit <= 0 {
		return nil, nil
	}
	cond, args := where(f)
	if cond == "" {
		// Only a search that runs alone in this process splits: with
		// others running, the cores are taken and the split only adds its
		// second statement's overhead.
		alone := ix.searching.Add(1) == 1
		defer ix.searching.Add(-1)
		if alone && runtime.GOMAXPROCS(0) > 1 {
			// The estimate (a query of its own) only where a split could run.
			if rows := ix.matchEstimate(ctx, terms); rows >= splitFrom && f.ScoredRows() >= splitFrom && !ix.splitBackoff() && ix.scorerReady() {
				return ix.searchSplit(ctx, match, min(rows, f.ScoredRows())/2, f.ScoredRows(), limit)
			}
		}
		return ix.searchNewest(ctx, match, f.ScoredRows(), limit)
	}
	q := fmt.Sprintf(`SELECT * FROM (SELECT %s, %s AS score
		FROM items_fts JOIN items i ON i.id = items_fts.rowid JOIN files f ON f.id = i.file_id
		WHERE items_fts MATCH ?%s ORDER BY items_fts.rowid DESC LIMIT %d) ORDER BY score DESC, path, start_line LIMIT +?`, itemColumns, bm25Rank, cond, f.ScoredRows())
	return ix.readHits(ctx, q, append(append([]any{match}, args...), limit))
}

// bm25Rank is the rank of a row of items_fts: bm25 with the columns'
// weights, negated so that higher is better.
var bm25Rank = fmt.Sprintf("-bm25(items_fts, %g, %g, %g, %g)", weightContext, weightContent, weightSection, weightEntities)

// splitFrom is the number of matching rows from which an unfiltered
// search ranks its rows on two connections at once, the newer half on
// one and the older on the other. Most of a search's time is bm25, row by
// row (each row's column sizes are a lookup of their own, about 1.4 µs a
// row), so two connections nearly halve it on a machine with a free core.
// Below this, ranking takes a millisecond or two, and the second
// statement's own costs (it counts every term's rows again for bm25's
// IDF) leave little to win. Chosen, not tuned.
const splitFrom = 1200

// newestRanked ranks the matches of an FTS5 expression from the
// offset-th newest, at most n of them (the arguments, in this order), and
// keeps the best limit. Of rows that tie at the limit-th score the newer
// are kept, so that two rankings over adjoining ranges of matches
// (searchSplit) choose as one over both does. OFFSET skips rows before
// their rank is computed.
//
// Limits are written +?, not ?, in the statements on items_fts: SQLite
// offers a bare parameter's value as a LIMIT or OFFSET to the virtual
// table while it plans, and a statement whose plan read a parameter is
// prepared again each time that parameter is bound, 20 to 30 µs a search
// (BenchmarkBoundLimit). FTS5 makes no use of the offer here.
var newestRanked = fmt.Sprintf(`SELECT rowid, score FROM (
		SELECT rowid, %s AS score FROM items_fts WHERE items_fts MATCH ? ORDER BY rowid DESC LIMIT +? OFFSET +?)
	ORDER BY score DESC, rowid DESC LIMIT +?`, bm25Rank)

// searchNewest returns the best limit of the newest n matches with their
// items, ranked by score, then by path and line. It ranks inside the
// full-text table first and joins only the winners: joining every
// matching row before the sort costs more than the ranking itself.
func (ix *Index) searchNewest(ctx context.Context, match string, n, limit int) ([]memory.Hit, error) {
	q := fmt.Sprintf(`SELECT %s, h.score FROM (%s) h
		JOIN items i ON i.id = h.rowid JOIN files f ON f.id = i.file_id ORDER BY h.score DESC, f.path, i.start_line`, itemColumns, newestRanked)
	return ix.readHits(ctx, q, []any{match, n, 0, limit})
}

// readFunc runs a read query in a transaction of its own and hands each
// row to each: Index.read, or Index.readScorer on the second connection.
type readFunc func(ctx context.Context, q string, args []any, each func(*sql.Rows) error) error

// searchSplit is searchNewest over the newest n matches, as two
// rankings run at once: the newest half of them on the index's
// connection, the rest on a second one. Each keeps its best limit
// (newer first among ties), the two lists merge into the best limit of
// both, as one search chooses them, and only those are read.
func (ix *Index) searchSplit(ctx context.Context, match string, half, n, limit int) ([]memory.Hit, error) {
	var older []scoredRow
	var olderErr error
	var olderTook time.Duration
	start := time.Now()
	done := make(chan struct{})
	go func() {
		defer close(done)
		older, olderErr = ix.rankNewest(ctx, ix.readScorer, match, half, n-half, limit)
		olderTook = time.Since(start)
	}()
	newer, err := ix.rankNewest(ctx, ix.read, match, 0, half, limit)
	newerTook := time.Since(start)
	<-done
	if olderTook > 2*newerTook+time.Millisecond {
		// The older half ranks no more rows than the newer: it came this
		// late because no core was free for it, and the split only cost.
		ix.splitPaused.Store(splitPause)
	}
	if err = errors.Join(err, olderErr); err != nil {
		return nil, ix.wrapErr(err)
	}
	best := append(newer, older...)
	slices.SortFunc(best, func(a, b scoredRow) int {
		return cmp.Or(cmp.Compare(b.score, a.score), cmp.Compare(b.id, a.id))
	})
	hits, err := hitsOf(ctx, ix, best[:min(limit, len(best))])
	if err != nil {
		return nil, err
	}
	// In the order of one search: score, then path and line.
	slices.SortStableFunc(hits, func(a, b memory.Hit) int {
		return cmp.Or(cmp.Compare(b.Score, a.Score), cmp.Compare(a.Source.Path, b.Source.Path), cmp.Compare(a.Source.Start, b.Source.Start))
	})
	return hits, nil
}

// splitPause is how many large searches run on one connection after a
// split found the machine's other cores busy (searchSplit); then one
// tries again.
const splitPause = 16

// splitBackoff reports whether searches are not to split now, counting
// down a pause.
func (ix *Index) splitBackoff() bool {
	for {
		n := ix.splitPaused.Load()
		if n <= 0 {
			return false
		}
		if ix.splitPaused.CompareAndSwap(n, n-1) {
			return true
		}
	}
}

// scoredRow is a row of items_fts and its rank.
type scoredRow struct {
	id    int64
	score float64
}

func (r scoredRow) rowID() int64  { return r.id }
func (r scoredRow) rank() float64 { return r.score }

// rankNewest is searchNewest from the offset-th newest match, without
// the items: the rowids and ranks of the best limit.
func (ix *Index) rankNewest(ctx context.Context, read readFunc, match string, offset, n, limit int) ([]scoredRow, error) {
	var out []scoredRow
	err := read(ctx, newestRanked, []any{match, n, offset, limit}, func(rows *sql.Rows) error {
		var r scoredRow
		if err := rows.Scan(&r.id, &r.score); err != nil {
			return err
		}
		out = append(out, r)
		return nil
	})
	return out, err
}

// matchEstimate estimates the number of rows that match any of the
// terms from their row counts (TermStats, kept while the database is
// unchanged; recall has just asked for them): exact for one term, and
// halfway between the largest count and the sum (where the terms would
// share no row) for more; 0 when it cannot tell.
func (ix *Index) matchEstimate(ctx context.Context, terms []string) int {
	stats, _, err := ix.TermStats(ctx, terms)
	if err != nil {
		return 0
	}
	sum, most := 0, 0
	for _, s := range stats {
		sum += s.Rows
		most = max(most, s.Rows)
	}
	return (sum + most) / 2
}

// readHits runs a search (Index.read): each row an item's columns, then
// its score.
func (ix *Index) readHits(ctx context.Context, q string, args []any) ([]memory.Hit, error) {
	var hits []memory.Hit
	err := ix.read(ctx, q, args, func(rows *sql.Rows) error {
		var h memory.Hit
		if err := scanItem(rows, &h.Item, &h.Score); err != nil {
			return err
		}
		hits = append(hits, h)
		return nil
	})
	return hits, ix.wrapErrNil(err)
}

// Items lists items matching a filter without full-text search, ordered by
// day (newest first when newest is set) then file and line.
func (ix *Index) Items(ctx context.Context, f memory.Filter, newest bool, limit int) ([]memory.Item, error) {
	if newest && f.Since.IsZero() && f.Until.IsZero() && limit > 0 {
		// Without a date filter the listing below would read every item
		// (there is no index of items by day). The newest items are on or
		// after the day of the limit-th of them, which the indexes of
		// days find; listing from that day is the same listing.
		since, err := ix.newestDay(ctx, f, limit)
		if err != nil {
			return nil, err
		}
		f.Since = since
	}
	cond, args := where(f)
	order, cmp, open := "ASC", "<=", strconv.Itoa(noDayMax)
	if newest {
		order, cmp, open = "DESC", ">=", "0"
	}
	// The day of the limit-th item first, from the items the filter
	// selects (through files_day and items_event for a date filter) without
	// their files; then only the items on or past it are joined and
	// sorted. SQLite's planner otherwise joins and sorts every item for a
	// listing of a hundred.
	const day = "i.day"
	q := fmt.Sprintf(`SELECT %s FROM items i JOIN files f ON f.id = i.file_id WHERE 1%s
		AND %s %s coalesce((SELECT %s AS day FROM items i WHERE 1%s ORDER BY day %s LIMIT 1 OFFSET ?), %s)
		ORDER BY %s %s, f.path, i.start_line LIMIT ?`, itemColumns, cond, day, cmp, day, cond, order, open, day, order)
	args = append(append(append(args, args...), max(limit-1, 0)), limit)
	rows, err := ix.query(ctx, q, args...)
	if err != nil {
		return nil, ix.wrapErr(err)
	}
	defer rows.Close()
	var items []memory.Item
	for rows.Next() {
		var it memory.Item
		if err := scanItem(rows, &it); err != nil {
			return nil, ix.wrapErr(err)
		}
		items = append(items, it)
	}
	return items, ix.wrapErrNil(rows.Err())
}

// newestDay returns the day of the limit-th newest dated item the filter
// (which has no dates) admits, or the zero time when fewer are dated. An
// item's day is its file's unless it has an event (ingest.NewItem), so
// the newest are the first items of the newest files (files_day) and the
// latest events (items_event): the limit newest of each hold the limit
// newest of all.
func (ix *Index) newestDay(ctx context.Context, f memory.Filter, limit int) (time.Time, error) {
	cond, args := where(f)
	q := fmt.Sprintf(`SELECT day FROM (
		SELECT * FROM (SELECT i.day AS day FROM files f JOIN items i ON i.file_id = f.id
			WHERE f.day != '' AND i.event_end = 0%s ORDER BY f.day DESC LIMIT ?)
		UNION ALL
		SELECT * FROM (SELECT i.day AS day FROM items i WHERE i.event_end != 0%s ORDER BY i.day DESC LIMIT ?))
	ORDER BY day DESC LIMIT 1 OFFSET ?`, cond, cond)
	var day int64
	err := ix.queryRow(ctx, q, slices.Concat(args, []any{limit}, args, []any{limit, limit - 1})...).Scan(&day)
	if errors.Is(err, sql.ErrNoRows) {
		return time.Time{}, nil
	}
	if err != nil {
		return time.Time{}, ix.wrapErr(err)
	}
	t, err := time.Parse(ingest.DateLayout, dayText(day))
	if err != nil {
		return time.Time{}, fmt.Errorf("index %s: item day %d: %w", ix.path, day, err)
	}
	return t, nil
}

// itemsWithIDs reads the items with these ids, in one query.
func (ix *Index) itemsWithIDs(ctx context.Context, ids []int64) (map[int64]memory.Item, error) {
	var b strings.Builder
	b.WriteByte('[')
	for i, id := range ids {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.FormatInt(id, 10))
	}
	b.WriteByte(']')
	rows, err := ix.query(ctx, `SELECT `+itemColumns+` FROM items i JOIN files f ON f.id = i.file_id
		WHERE i.id IN (SELECT value FROM json_each(?))`, b.String())
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := make(map[int64]memory.Item, len(ids))
	for rows.Next() {
		var it memory.Item
		if err := scanItem(rows, &it); err != nil {
			return nil, err
		}
		out[it.RowID] = it
	}
	return out, rows.Err()
}

func (ix *Index) wrapErrNil(err error) error {
	if err == nil {
		return nil
	}
	return ix.wrapErr(err)
}

func scanItem(rows *sql.Rows, it *memory.Item, extra ...any) error {
	var written, ents string
	var kind, evStart, evEnd, status int64
	var conf sql.NullFloat64
	dst := append([]any{&it.RowID, &kind, &it.FactID, &conf, &it.Source.Path, &it.Source.Start, &it.Source.End,
		&written, &evStart, &evEnd, &it.Section, &ents, &it.Content, &status}, extra...)
	if err := rows.Scan(dst...); err != nil {
		return err
	}
	it.Kind, it.Status = kindOf(kind), statusOf(status)
	if conf.Valid {
		c := conf.Float64
		it.Confidence = &c
	}
	ingest.FillStored(it, written, dayText(evStart), dayText(evEnd), ents)
	return nil
}

// Nearby returns the passages in the same file and section as items[0]
// that lie within n lines of it (before its first line or after its
// last), in line order, under its row id: what recall may widen a result
// with, in one query. It answers for items[0] only: in process, a query
// for several would cost as much as one for each, and recall would pay
// for those it then does not widen.
func (ix *Index) Nearby(ctx context.Context, items []memory.Item, n int) (map[int64][]memory.Item, error) {
	if len(items) == 0 {
		return nil, nil
	}
	it := items[0]
	q := fmt.Sprintf(`SELECT %s FROM items i JOIN files f ON f.id = i.file_id
		WHERE i.file_id = (SELECT file_id FROM items WHERE id = ?) AND i.kind = `+kindPassageSQL+`
		AND i.section = (SELECT section FROM items WHERE id = ?)
		AND i.id != ? AND ((i.end_line < ? AND i.end_line >= ?) OR (i.start_line > ? AND i.start_line <= ?))
		ORDER BY i.start_line`, itemColumns)
	rows, err := ix.query(ctx, q, it.RowID, it.RowID, it.RowID, it.Source.Start, it.Source.Start-n, it.Source.End, it.Source.End+n)
	if err != nil {
		return nil, ix.wrapErr(err)
	}
	defer rows.Close()
	var out []memory.Item
	for rows.Next() {
		var x memory.Item
		if err := scanItem(rows, &x); err != nil {
			return nil, ix.wrapErr(err)
		}
		out = append(out, x)
	}
	if err := rows.Err(); err != nil {
		return nil, ix.wrapErr(err)
	}
	return map[int64][]memory.Item{it.RowID: out}, nil
}

// EntityNames lists every known entity name: page slugs, names and aliases,
// and the slugs of entities mentioned anywhere.
//
// While the list is unchanged, every call returns the same slice (callers
// must not modify it), so a caller can keep what it derives from it.
func (ix *Index) EntityNames(ctx context.Context) ([]memory.KnownName, error) {
	text, err := ix.metaValue(ctx, "entity_names")
	if err != nil {
		return nil, ix.wrapErr(err)
	}
	ix.namesMu.Lock()
	defer ix.namesMu.Unlock()
	if ix.names != nil && text == ix.namesText {
		return ix.names, nil
	}
	out := make([]memory.KnownName, 0, strings.Count(text, "\n")+1)
	for line := range strings.Lines(text) {
		key, slug, ok := strings.Cut(strings.TrimSuffix(line, "\n"), "\t")
		if ok {
			out = append(out, memory.KnownName{Key: memory.EntityKey(key), Slug: slug})
		}
	}
	ix.names, ix.namesText = out, text
	return out, nil
}

// ResolveEntity maps a name, alias or slug (any case) to the entity's slug
// as written on its page, or as mentioned when it has no page.
func (ix *Index) ResolveEntity(ctx context.Context, name string) (string, bool, error) {
	key := memory.EntityKey(name)
	var slug string
	err := ix.queryRow(ctx, `SELECT slug FROM entity_names WHERE key=? LIMIT 1`, key).Scan(&slug)
	if err == nil {
		return slug, true, nil
	}
	if err != sql.ErrNoRows {
		return "", false, ix.wrapErr(err)
	}
	err = ix.queryRow(ctx, `SELECT slug_key FROM item_entities WHERE slug_key=? LIMIT 1`, strings.ToLower(name)).Scan(&slug)
	if err == sql.ErrNoRows {
		return "", false, nil
	}
	if err != nil {
		return "", false, ix.wrapErr(err)
	}
	return name, true, nil
}

// EntityList lists every entity mentioned in an item or with a page, most
// mentioned first (then by slug).
func (ix *Index) EntityList(ctx context.Context) ([]memory.EntitySummary, error) {
	rows, err := ix.query(ctx, `
		WITH mentions AS (
			SELECT ie.slug_key AS key, count(*) AS n, max(i.day) AS last, min(ie.item_id) AS first
			FROM item_entities ie JOIN items i ON i.id = ie.item_id GROUP BY ie.slug_key),
		pages AS (
			SELECT lower(p.slug) AS key, p.slug, p.name, f.path FROM entity_pages p JOIN files f ON f.id = p.file_id)
		SELECT m.key, coalesce(p.slug, ''), coalesce(p.name, ''), coalesce(p.path, ''), m.n, coalesce(m.last, 0),
			(SELECT entities FROM items WHERE id = m.first)
		FROM mentions m LEFT JOIN pages p ON p.key = m.key
		UNION ALL
		SELECT p.key, p.slug, p.name, p.path, 0, 0, '' FROM pages p WHERE p.key NOT IN (SELECT key FROM mentions)`)
	if err != nil {
		return nil, ix.wrapErr(err)
	}
	defer rows.Close()
	var list []memory.EntityRow
	for rows.Next() {
		var r memory.EntityRow
		var last int64
		if err := rows.Scan(&r.Key, &r.Slug, &r.Name, &r.Page, &r.Items, &last, &r.FirstEntities); err != nil {
			return nil, ix.wrapErr(err)
		}
		r.LastDay = dayText(last)
		list = append(list, r)
	}
	if err := rows.Err(); err != nil {
		return nil, ix.wrapErr(err)
	}
	return memory.SummarizeEntities(list), nil
}
