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

// putHeld stores the vectors of a batch of texts, but not of those no
// item holds any more: a text `memoria forget` removed while the batch
// was embedded. A forget that lands between the check and the store is
// caught by a second check after it (its sync drops the items before it
// removes the vectors, so one of the two sees them gone).
func (ix *Index) putHeld(ctx context.Context, hashes []string, vecs [][]float32) error {
	gone, err := ix.unheld(ctx, hashes)
	if err != nil {
		return err
	}
	if len(gone) > 0 {
		hashes, vecs = without(hashes, vecs, gone)
	}
	if len(hashes) == 0 {
		return nil
	}
	if err := ix.vec.Put(ctx, hashes, vecs); err != nil {
		return err
	}
	if gone, err = ix.unheld(ctx, hashes); err != nil || len(gone) == 0 {
		return err
	}
	_, err = ix.vec.Remove(ctx, gone)
	return err
}

// without drops the texts gone (and their vectors) from a batch.
func without(hashes []string, vecs [][]float32, gone []string) ([]string, [][]float32) {
	drop := map[string]bool{}
	for _, h := range gone {
		drop[h] = true
	}
	var hs []string
	var vs [][]float32
	for i, h := range hashes {
		if !drop[h] {
			hs, vs = append(hs, h), append(vs, vecs[i])
		}
	}
	return hs, vs
}
