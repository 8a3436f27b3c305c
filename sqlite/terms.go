package sqlite

import (
	"context"
	"database/sql"
	"errors"

	"memoria/porter"
)

// TermStat is a query word as the full-text index sees it: its stem (by
// the index's own tokenizer) and how many items contain it.
type TermStat struct {
	Word string
	Stem string // "" when the word has no indexable token
	Rows int    // items containing it (for a word of several tokens, the rarest)
}

// TermStats stems words exactly as the index's tokenizer does (package
// porter reproduces FTS5's unicode61 + porter chain) and counts the items
// that contain each, so recall can plan a query before running it: FTS5
// scores every row an OR-query matches, and a common word can match most
// of the index.
func (ix *Index) TermStats(ctx context.Context, words []string) (stats []TermStat, total int, err error) {
	if ix.rankInMemory(ctx) {
		if stats, total, ok, err := ix.termStatsInMemory(ctx, words); ok || err != nil {
			return stats, total, err
		}
	}
	if err := ix.queryRow(ctx, `SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'items'`).Scan(&total); err != nil {
		return nil, 0, ix.wrapErr(err)
	}
	stats = make([]TermStat, len(words))
	tokens := make([][]string, len(words))
	var all []any
	seen := map[string]bool{}
	for i, w := range words {
		stats[i].Word = w
		tokens[i] = porter.Tokens(w)
		for _, t := range tokens[i] {
			if !seen[t] {
				seen[t] = true
				all = append(all, t)
			}
		}
	}
	// One lookup per term: fts5vocab answers "term = ?" by seeking its
	// index, but scans every term for an IN list.
	rows := map[string]int{}
	for _, t := range all {
		var n int
		err := ix.queryRow(ctx, `SELECT doc FROM items_vocab WHERE term = ?`, t).Scan(&n)
		switch {
		case err == nil:
			rows[t.(string)] = n
		case !errors.Is(err, sql.ErrNoRows):
			return nil, 0, ix.wrapErr(err)
		}
	}
	for i, ts := range tokens {
		for j, t := range ts {
			if n := rows[t]; j == 0 || n < stats[i].Rows {
				stats[i].Stem, stats[i].Rows = t, n
			}
		}
	}
	return stats, total, nil
}

// termStatsInMemory answers TermStats from the in-memory postings; ok is
// false when they are not loaded.
func (ix *Index) termStatsInMemory(ctx context.Context, words []string) (stats []TermStat, total int, ok bool, err error) {
	ix.lex.mu.Lock()
	defer ix.lex.mu.Unlock()
	l, err := ix.currentLexical(ctx)
	if err != nil || l == nil {
		return nil, 0, false, err
	}
	stats = make([]TermStat, len(words))
	for i, w := range words {
		stats[i].Word = w
		for j, t := range porter.Tokens(w) {
			if n := l.eng.DocCount(t); j == 0 || n < stats[i].Rows {
				stats[i].Stem, stats[i].Rows = t, n
			}
		}
	}
	return stats, l.eng.Len(), true, nil
}
