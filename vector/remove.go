package vector

import (
	"context"
	"database/sql"
	"encoding/binary"
	"fmt"
	"os"
)

// Remove deletes the vectors of the texts with these hashes (the index's
// text hashes, as Put takes them), from every batch that holds one, and
// returns how many texts had one. `memoria forget` calls it for the texts
// it removed from the Markdown.
//
// Nothing of them is kept: the deletion runs with SQLite's secure_delete
// (freed space is overwritten), the write-ahead log is then checkpointed
// and truncated, and the saved HNSW graph, which holds its own copy of
// every vector, is deleted (memoria index builds it again, above
// FlatMaxVectors). The store's epoch is drawn afresh, so that every
// process that has the vectors in memory loads them again at its next
// search rather than find a removed one.
func (s *Store) Remove(ctx context.Context, hashes []string) (int, error) {
	gone := map[int64]bool{}
	for _, h := range hashes {
		if id, ok := TextID(h); ok {
			gone[id] = true
		}
	}
	if len(gone) == 0 {
		return 0, nil
	}
	conn, err := s.handle().Conn(ctx)
	if err != nil {
		return 0, fmt.Errorf("vectors %s: %w", s.path, err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `PRAGMA secure_delete=ON`); err != nil {
		return 0, fmt.Errorf("vectors %s: %w", s.path, err)
	}
	defer conn.ExecContext(context.WithoutCancel(ctx), `PRAGMA secure_delete=OFF`)
	n, changed, err := removeIn(ctx, conn, gone)
	if err != nil {
		return 0, fmt.Errorf("vectors %s: %w", s.path, err)
	}
	if !changed {
		return 0, nil
	}
	// Best effort: a reader of an older snapshot keeps the log from being
	// truncated now; the next checkpoint reuses it.
	conn.ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`)
	s.mu.Lock()
	s.mem, s.graphLoad = nil, nil
	s.mu.Unlock()
	if err := os.Remove(s.graphPath); err != nil && !os.IsNotExist(err) {
		return n, fmt.Errorf("vectors: the removed vectors are still in the graph %s: %w", s.graphPath, err)
	}
	return n, nil
}

// removeIn removes the vectors of the texts gone in one transaction: their
// rows of texts, and their entries of every batch (a batch left empty is
// deleted); a new epoch if anything changed.
func removeIn(ctx context.Context, conn *sql.Conn, gone map[int64]bool) (n int, changed bool, err error) {
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return 0, false, err
	}
	defer tx.Rollback()
	for id := range gone {
		res, err := tx.ExecContext(ctx, `DELETE FROM texts WHERE text_hash = ?`, TextHash(id))
		if err != nil {
			return 0, false, err
		}
		k, _ := res.RowsAffected()
		n += int(k)
	}
	edits, err := batchesWithout(ctx, tx, gone)
	if err != nil {
		return 0, false, err
	}
	for _, b := range edits {
		if len(b.ids) == 0 {
			_, err = tx.ExecContext(ctx, `DELETE FROM batches WHERE seq = ?`, b.seq)
		} else {
			_, err = tx.ExecContext(ctx, `UPDATE batches SET ids = ?, vecs = ? WHERE seq = ?`, b.idBytes(), b.vecs, b.seq)
		}
		if err != nil {
			return 0, false, err
		}
	}
	if n == 0 && len(edits) == 0 {
		return 0, false, nil
	}
	if _, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO meta(key, value) VALUES('epoch', ?)`, newEpoch()); err != nil {
		return 0, false, err
	}
	return n, true, tx.Commit()
}

// batchesWithout reads every batch and returns, rewritten without them,
// those that hold a vector of a text gone (a text embedded twice is in
// two batches).
func batchesWithout(ctx context.Context, tx *sql.Tx, gone map[int64]bool) ([]batch, error) {
	rows, err := tx.QueryContext(ctx, `SELECT seq, ids, vecs FROM batches ORDER BY seq`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []batch
	for rows.Next() {
		var seq int64
		var ids, vecs []byte
		if err := rows.Scan(&seq, &ids, &vecs); err != nil {
			return nil, err
		}
		n := len(ids) / 8
		if n == 0 || len(ids)%8 != 0 || len(vecs)%n != 0 {
			continue
		}
		size := len(vecs) / n
		keep := batch{seq: seq, size: size}
		hit := false
		for i := range n {
			id := int64(binary.LittleEndian.Uint64(ids[8*i:]))
			if gone[id] {
				hit = true
				continue
			}
			keep.ids = append(keep.ids, id)
			keep.vecs = append(keep.vecs, vecs[i*size:(i+1)*size]...)
		}
		if hit {
			out = append(out, keep)
		}
	}
	return out, rows.Err()
}

// idBytes is the batch's ids as stored.
func (b *batch) idBytes() []byte {
	out := make([]byte, 0, 8*len(b.ids))
	for _, id := range b.ids {
		out = binary.LittleEndian.AppendUint64(out, uint64(id))
	}
	return out
}
