package sqlite

import (
	"context"
	"fmt"
	"strings"

	"memoria/vector"
)

// Forgotten removes what the index keeps of text `memoria forget` took
// out of the Markdown, once a sync has dropped its items: the vectors of
// the texts with these hashes that no item holds any more (vector.Store.
// Remove, which leaves no copy of them), and every trace of the items in
// the index file: the full-text index's segments are merged (the tokens
// of deleted rows otherwise stay in older segments until a merge), the
// file is vacuumed (freed pages would keep bytes of the deleted rows) and
// its write-ahead log truncated. It returns how many vectors went.
//
// The merge, the vacuum and the truncation are best effort (another
// process reading the index may hold old pages): a failure is a warning
// (Options.Warn), the items being gone from the index already, and
// `memoria index --rebuild` writes the file afresh.
func (ix *Index) Forgotten(ctx context.Context, hashes []string) (int, error) {
	gone, err := ix.unheld(ctx, hashes)
	if err != nil {
		return 0, fmt.Errorf("index %s: %w", ix.path, err)
	}
	n, err := ix.vec.Remove(ctx, gone)
	if err != nil {
		return n, err
	}
	db := ix.db()
	for _, stmt := range []string{
		`INSERT INTO items_fts(items_fts) VALUES('optimize')`,
		`VACUUM`,
		`PRAGMA wal_checkpoint(TRUNCATE)`,
	} {
		if _, err := db.ExecContext(ctx, stmt); err != nil {
			ix.opts.warn("index %s: the forgotten items are gone, but %s failed (memoria index --rebuild writes the file afresh): %v", ix.path, strings.Fields(stmt)[0], err)
			break
		}
	}
	ix.forgetCaches()
	return n, nil
}

// unheld returns the hashes no item of the index holds.
func (ix *Index) unheld(ctx context.Context, hashes []string) ([]string, error) {
	var out []string
	st, err := ix.db().PrepareContext(ctx, `SELECT EXISTS(SELECT 1 FROM items WHERE text_hash = ?)`)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	for _, h := range hashes {
		id, ok := vector.TextID(h)
		if !ok {
			continue
		}
		var held bool
		if err := st.QueryRowContext(ctx, id).Scan(&held); err != nil {
			return nil, err
		}
		if !held {
			out = append(out, h)
		}
	}
	return out, nil
}
