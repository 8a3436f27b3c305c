package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"
)

// Forgotten removes the vectors of the texts with these hashes that no
// item of the workspace holds any more, once a sync has dropped the items
// `memoria forget` took out of the Markdown, and returns how many went.
// The workspace's vector generation moves on, so that every process that
// keeps its vectors in memory reads them again. (PostgreSQL reclaims the
// deleted rows' space at its next vacuum, as it does for every delete.)
func (ix *Index) Forgotten(ctx context.Context, hashes []string) (int, error) {
	var ids []int64
	for _, h := range hashes {
		if id := textID(h); id != 0 {
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		return 0, nil
	}
	var n int64
	err := ix.db.tx(ctx, []int64{ix.id}, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `DELETE FROM memoria_vectors v WHERE v.ws = $1 AND v.text_id = ANY($2)
			AND NOT EXISTS (SELECT 1 FROM memoria_items i WHERE i.ws = $1 AND i.text_id = v.text_id)`, ix.id, ids)
		if err != nil {
			return err
		}
		if n = tag.RowsAffected(); n == 0 {
			return nil
		}
		_, err = tx.Exec(ctx, `UPDATE memoria_workspaces SET vector_generation = vector_generation + 1 WHERE id = $1`, ix.id)
		return err
	})
	if err != nil {
		return 0, ix.errorf(err)
	}
	return int(n), nil
}
