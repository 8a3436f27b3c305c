package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"sync"
)

// TermStat is a query word as the full-text index sees it: its term (by
// the index's own tokenizer) and how many items contain it.
type TermStat struct {
	Word string
	Stem string // "" when the word has no indexable token
	Rows int    // items containing it (for a word of several tokens, the rarest)
}

// TermStats cuts words into terms with the index's own tokenizer and
// counts the items that contain each, so recall can plan a query before
// running it: FTS5 scores every row an OR-query matches, and a common
// word can match most of the index.
func (ix *Index) TermStats(ctx context.Context, words []string) (stats []TermStat, total int, err error) {
	if err := ix.queryRow(ctx, `SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'items'`).Scan(&total); err != nil {
		return nil, 0, ix.wrapErr(err)
	}
	tokens, err := ix.terms.tokens(ctx, ix.db, words)
	if err != nil {
		return nil, 0, ix.wrapErr(err)
	}
	stats = make([]TermStat, len(words))
	// One lookup per term: fts5vocab answers "term = ?" by seeking its
	// index, but scans every term for an IN list.
	rows := map[string]int{}
	for _, ts := range tokens {
		for _, t := range ts {
			if _, ok := rows[t]; ok {
				continue
			}
			var n int
			err := ix.queryRow(ctx, `SELECT doc FROM items_vocab WHERE term = ?`, t).Scan(&n)
			if err != nil && !errors.Is(err, sql.ErrNoRows) {
				return nil, 0, ix.wrapErr(err)
			}
			rows[t] = n
		}
	}
	for i, ts := range tokens {
		stats[i].Word = words[i]
		for j, t := range ts {
			if n := rows[t]; j == 0 || n < stats[i].Rows {
				stats[i].Stem, stats[i].Rows = t, n
			}
		}
	}
	return stats, total, nil
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
		} else if !contains(todo, w) {
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
