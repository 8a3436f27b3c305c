package postgres

import (
	"cmp"
	"context"
	"fmt"
	"time"

	"memoria/ingest"
	"memoria/memory"
	"memoria/workspace"
)

// Status reports what the workspace's index holds and whether it is fresh
// (without updating it). Bytes is the size of the workspace's own rows.
func (ix *Index) Status(ctx context.Context) (memory.Status, error) {
	st := memory.Status{Backend: "postgres", Path: ix.db.url + "#" + ix.name, Files: map[memory.FileKind]int{}, Skipped: map[string]string{}, Facts: map[memory.Kind]int{}}
	var manifest map[string]storedFile
	err := ix.read(ctx, func(tx querier) error {
		// From nothing, each time: a lost connection runs this again.
		st.Files, st.Imported, st.Skipped, st.Facts, st.Passages = map[memory.FileKind]int{}, nil, map[string]string{}, map[memory.Kind]int{}, 0
		var built, synced *time.Time
		if err := tx.QueryRow(ctx, `SELECT built, synced, vector_model FROM memoria_workspaces WHERE id = $1`, ix.id).Scan(&built, &synced, &st.VectorModel); err != nil {
			return err
		}
		if built != nil {
			st.Built = *built
		}
		if synced != nil {
			st.Synced = *synced
		}
		rows, err := tx.Query(ctx, `SELECT kind, path, status FROM memoria_files WHERE ws = $1`, ix.id)
		if err != nil {
			return err
		}
		for rows.Next() {
			var kind, path, status string
			if err := rows.Scan(&kind, &path, &status); err != nil {
				rows.Close()
				return err
			}
			st.Files[memory.FileKind(kind)]++
			if memory.FileKind(kind) == memory.FileImport {
				if st.Imported == nil {
					st.Imported = map[string]int{}
				}
				st.Imported[cmp.Or(memory.ImportSource(path), "unknown")]++
			}
			if status != "" {
				st.Skipped[path] = status
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		rows, err = tx.Query(ctx, `SELECT kind, count(*) FROM memoria_items WHERE ws = $1 GROUP BY kind`, ix.id)
		if err != nil {
			return err
		}
		for rows.Next() {
			var kind string
			var n int
			if err := rows.Scan(&kind, &n); err != nil {
				rows.Close()
				return err
			}
			if memory.Kind(kind) == memory.KindPassage {
				st.Passages = n
			} else {
				st.Facts[memory.Kind(kind)] = n
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		var first, last string
		err = tx.QueryRow(ctx, fmt.Sprintf(`SELECT
			(SELECT count(*) FROM (SELECT slug_key FROM memoria_item_entities WHERE ws = $1 UNION SELECT lower(slug) FROM memoria_entity_pages WHERE ws = $1) e),
			(SELECT count(*) FROM memoria_entity_pages WHERE ws = $1),
			coalesce((SELECT min(day) FROM memoria_files WHERE ws = $1 AND day != '' AND kind = 'log'), ''),
			coalesce((SELECT max(day) FROM memoria_files WHERE ws = $1 AND day != '' AND kind = 'log'), ''),
			(SELECT count(DISTINCT text_id) FROM memoria_items WHERE ws = $1),
			(SELECT count(*) FROM memoria_vectors v WHERE ws = $1 AND EXISTS (SELECT 1 FROM memoria_items i WHERE i.ws = $1 AND i.text_id = v.text_id)),
			pg_total_relation_size('memoria_items_%d')`, ix.id), ix.id).Scan(&st.Entities, &st.EntityPages, &first, &last, &st.Texts, &st.Embedded, &st.Bytes)
		if err != nil {
			return err
		}
		st.FirstDay, _ = time.Parse(ingest.DateLayout, first)
		st.LastDay, _ = time.Parse(ingest.DateLayout, last)
		manifest, err = readManifest(ctx, tx, ix.id)
		return err
	})
	if err != nil {
		return st, err
	}
	if !ix.db.indexedSearch {
		st.Advice = append(st.Advice, "full-text search reads every item of the workspace: row-level security keeps PostgreSQL from using its GIN index "+
			"until a superuser runs, once in this database: "+LeakproofAdvice+" (docs/team.md)")
	}
	st.VectorSearch, err = ix.vectorSearch(ctx)
	if err != nil {
		return st, err
	}
	if ix.db.vectorAdvice != "" {
		st.Advice = append(st.Advice, "semantic recall scans every vector in the asking process: the server has pgvector, "+
			"which a superuser turns on, once in this database: "+ix.db.vectorAdvice+" (docs/team.md)")
	}
	if ix.dir != "" {
		files, _, err := workspace.List(ix.dir)
		if err != nil {
			return st, err
		}
		todo, gone := diff(files, manifest)
		st.Pending = len(todo) + len(gone)
	}
	return st, nil
}

// Verify checks the workspace's rows against each other: every item and
// entity row belongs to a file of the workspace, and the item count and
// token count kept for it are its items' (the count, the sum of their
// lengths). A problem wraps memory.ErrCorrupt.
func (ix *Index) Verify(ctx context.Context) error {
	return ix.read(ctx, func(tx querier) error {
		var orphans int
		err := tx.QueryRow(ctx, `SELECT
			(SELECT count(*) FROM memoria_items i WHERE ws = $1 AND NOT EXISTS (SELECT 1 FROM memoria_files f WHERE f.ws = $1 AND f.id = i.file_id)) +
			(SELECT count(*) FROM memoria_item_entities e WHERE ws = $1 AND NOT EXISTS (SELECT 1 FROM memoria_items i WHERE i.ws = $1 AND i.id = e.item_id)) +
			(SELECT count(*) FROM memoria_entity_names n WHERE ws = $1 AND NOT EXISTS (SELECT 1 FROM memoria_files f WHERE f.ws = $1 AND f.id = n.file_id))`, ix.id).Scan(&orphans)
		if err != nil {
			return err
		}
		if orphans > 0 {
			return fmt.Errorf("%w: %d rows belong to no file", memory.ErrCorrupt, orphans)
		}
		var kept, counted, keptTokens, countedTokens int
		if err := tx.QueryRow(ctx, `SELECT w.items, i.n, w.tokens, i.tokens FROM memoria_workspaces w,
			(SELECT count(*) AS n, coalesce(sum(tokens), 0) AS tokens FROM memoria_items WHERE ws = $1) i WHERE w.id = $1`, ix.id).Scan(&kept, &counted, &keptTokens, &countedTokens); err != nil {
			return err
		}
		if kept != counted {
			return fmt.Errorf("%w: the workspace counts %d items and holds %d", memory.ErrCorrupt, kept, counted)
		}
		if keptTokens != countedTokens {
			return fmt.Errorf("%w: the workspace counts %d tokens and its items %d", memory.ErrCorrupt, keptTokens, countedTokens)
		}
		return nil
	})
}
