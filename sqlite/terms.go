package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"memoria/memory"
)

// TermStats cuts words into terms with the index's own tokenizer and
// counts the items that contain each, so recall can plan a query before
// running it: FTS5 scores every row an OR-query matches, and a common
// word can match most of the index.
func (ix *Index) TermStats(ctx context.Context, words []string) (stats []memory.TermStat, total int, err error) {
	tokens, err := ix.terms.tokens(ctx, ix.db(), words)
	if err != nil {
		return nil, 0, ix.wrapErr(err)
	}
	counts, total, err := ix.docCounts(ctx)
	if err != nil {
		return nil, 0, ix.wrapErr(err)
	}
	stats = make([]memory.TermStat, len(words))
	for i, ts := range tokens {
		stats[i].Word = words[i]
		for j, t := range ts {
			n, err := counts.rows(ctx, ix, t)
			if err != nil {
				return nil, 0, ix.wrapErr(err)
			}
			if j == 0 || n < stats[i].Rows {
				stats[i].Stem, stats[i].Rows = t, n
			}
		}
	}
	return stats, total, nil
}

// docCounts keeps what the full-text index answered of its terms' row
// counts: fts5vocab counts a term's rows by reading its whole doclist,
// which for a common word costs as much as the search. When the database
// changes (PRAGMA data_version, and this Index's own writes), they are
// kept as memory.KeepTermCounts says: they only plan queries.
type docCounts struct {
	mu      sync.Mutex
	version int64 // data_version the counts were checked at
	changed bool  // this Index wrote since
	total   int   // items in the index
	at      int   // items when counting began
	byTerm  map[string]int
}

// docCounts returns the counts of the database as it is now, and how
// many items it holds.
func (ix *Index) docCounts(ctx context.Context) (*docCounts, int, error) {
	var version int64
	if err := ix.queryRow(ctx, `PRAGMA data_version`).Scan(&version); err != nil {
		return nil, 0, err
	}
	c := &ix.counts
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.byTerm != nil && c.version == version && !c.changed {
		return c, c.total, nil
	}
	var total int
	if err := ix.queryRow(ctx, `SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'items'`).Scan(&total); err != nil {
		return nil, 0, err
	}
	c.byTerm, c.at = memory.KeepTermCounts(c.byTerm, c.at, total)
	c.version, c.changed, c.total = version, false, total
	return c, total, nil
}

// forget marks the counts as of before a change: this Index wrote, which
// data_version does not show to the connection that wrote.
func (c *docCounts) forget() {
	c.mu.Lock()
	c.changed = true
	c.mu.Unlock()
}

// rows is the number of items containing term.
func (c *docCounts) rows(ctx context.Context, ix *Index, term string) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if n, ok := c.byTerm[term]; ok {
		return n, nil
	}
	// One lookup per term: fts5vocab answers "term = ?" by seeking its
	// index, but scans every term for an IN list.
	var n int
	err := ix.queryRow(ctx, `SELECT doc FROM items_vocab WHERE term = ?`, term).Scan(&n)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return 0, err
	}
	if c.byTerm == nil || len(c.byTerm) >= maxCachedWords {
		c.byTerm, c.at = map[string]int{}, c.total
	}
	c.byTerm[term] = n
	return n, nil
}

// queryTerms turns query words into the index's terms with SQLite's own
// tokenizer: the words are written to a scratch full-text table in the
// connection's temp schema, configured as items_fts is, and read back
// through its vocabulary. What SQLite answered is kept (the terms of a
// word never change), so a long-lived process asks once per word.
type queryTerms struct {
	mu    sync.Mutex
	cache map[string][]string
}

// maxCachedWords bounds the cache; past it, it starts again.
const maxCachedWords = 20000

const scratchTables = `
CREATE VIRTUAL TABLE IF NOT EXISTS temp.query_words USING fts5(w, tokenize='` + ftsTokenizer + `');
CREATE VIRTUAL TABLE IF NOT EXISTS temp.query_terms USING fts5vocab(temp, query_words, instance);`

// tokens returns the terms of each word, in order.
func (q *queryTerms) tokens(ctx context.Context, db *sql.DB, words []string) ([][]string, error) {
	out := make([][]string, len(words))
	q.mu.Lock()
	defer q.mu.Unlock()
	var todo []string
	for i, w := range words {
		if ts, ok := q.cache[w]; ok {
			out[i] = ts
		} else if !slices.Contains(todo, w) {
			todo = append(todo, w)
		}
	}
	if len(todo) == 0 {
		return out, nil
	}
	found, err := tokenize(ctx, db, todo)
	if err != nil {
		return nil, fmt.Errorf("tokenize: %w", err)
	}
	if q.cache == nil || len(q.cache)+len(todo) > maxCachedWords {
		q.cache = map[string][]string{}
	}
	for i, w := range todo {
		q.cache[w] = found[i]
	}
	for i, w := range words {
		out[i] = q.cache[w]
	}
	return out, nil
}

// tokenize runs the index's tokenizer over words, on one connection (the
// scratch tables live in its temp schema).
func tokenize(ctx context.Context, db *sql.DB, words []string) ([][]string, error) {
	conn, err := db.Conn(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, scratchTables); err != nil {
		return nil, err
	}
	args := make([]any, 0, 2*len(words))
	for i, w := range words {
		args = append(args, i+1, w)
	}
	insert := `INSERT INTO temp.query_words(rowid, w) VALUES` + strings.TrimSuffix(strings.Repeat("(?,?),", len(words)), ",")
	if _, err := conn.ExecContext(ctx, insert, args...); err != nil {
		return nil, err
	}
	defer conn.ExecContext(context.WithoutCancel(ctx), `DELETE FROM temp.query_words`)
	rows, err := conn.QueryContext(ctx, `SELECT doc, term FROM temp.query_terms ORDER BY doc, offset`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := make([][]string, len(words))
	for rows.Next() {
		var doc int
		var term string
		if err := rows.Scan(&doc, &term); err != nil {
			return nil, err
		}
		if doc >= 1 && doc <= len(words) {
			out[doc-1] = append(out[doc-1], term)
		}
	}
	return out, rows.Err()
}
