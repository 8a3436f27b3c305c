package sqlite

import (
	"context"
	"fmt"
)

// TermStat is a query word as the full-text index sees it: its stem (by
// the index's own tokenizer) and how many items contain it.
type TermStat struct {
	Word string
	Stem string // "" when the word has no indexable token
	Rows int    // items containing it (for a word of several tokens, the rarest)
}

// TermStats stems words with the index's tokenizer and counts the items
// that contain each, so recall can plan a query before running it: FTS5
// scores every row an OR-query matches, and a common word can match most
// of the index.
func (ix *Index) TermStats(ctx context.Context, words []string) (stats []TermStat, total int, err error) {
	if !ix.scratch {
		// A per-connection scratch table stems words exactly as the index
		// does (porter, diacritics), with no stemmer of our own to drift.
		_, err := ix.db.ExecContext(ctx, `
			CREATE VIRTUAL TABLE IF NOT EXISTS temp.query_words USING fts5(w, tokenize='`+tokenizer+`');
			CREATE VIRTUAL TABLE IF NOT EXISTS temp.query_stems USING fts5vocab(temp, query_words, instance);`)
		if err != nil {
			return nil, 0, ix.wrapErr(fmt.Errorf("query scratch table: %w", err))
		}
		ix.scratch = true
	}
	if err := ix.queryRow(ctx, `SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'items'`).Scan(&total); err != nil {
		return nil, 0, ix.wrapErr(err)
	}
	conn, err := ix.db.Conn(ctx)
	if err != nil {
		return nil, 0, ix.wrapErr(err)
	}
	defer conn.Close()
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return nil, 0, ix.wrapErr(err)
	}
	defer tx.Rollback() // the scratch rows never need to be kept
	ins, err := tx.PrepareContext(ctx, `INSERT INTO temp.query_words(rowid, w) VALUES(?, ?)`)
	if err != nil {
		return nil, 0, ix.wrapErr(err)
	}
	for i, w := range words {
		if _, err := ins.ExecContext(ctx, i+1, w); err != nil {
			return nil, 0, ix.wrapErr(err)
		}
	}
	stats = make([]TermStat, len(words))
	for i, w := range words {
		stats[i] = TermStat{Word: w, Rows: -1}
	}
	rows, err := tx.QueryContext(ctx, `SELECT s.doc, s.term, coalesce(v.doc, 0)
		FROM temp.query_stems s LEFT JOIN items_vocab v ON v.term = s.term`)
	if err != nil {
		return nil, 0, ix.wrapErr(err)
	}
	defer rows.Close()
	for rows.Next() {
		var doc, n int
		var term string
		if err := rows.Scan(&doc, &term, &n); err != nil {
			return nil, 0, ix.wrapErr(err)
		}
		st := &stats[doc-1]
		if st.Rows < 0 || n < st.Rows {
			st.Stem, st.Rows = term, n
		}
	}
	if err := rows.Err(); err != nil {
		return nil, 0, ix.wrapErr(err)
	}
	for i := range stats {
		stats[i].Rows = max(stats[i].Rows, 0)
	}
	return stats, total, nil
}
