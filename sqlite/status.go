package sqlite

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"time"

	"memoria/ingest"
	"memoria/memory"
)

// Status reports the index's contents and freshness (without updating it).
//
// It fails, rather than say the index is fresh, where a sync would fail
// on it: a file replaced or removed since it was opened (checkFile),
// pages that read as damaged from the file, a manifest that does not
// decode (read afresh, not the copy kept while the database seems
// unchanged).
func (ix *Index) Status(ctx context.Context) (memory.Status, error) {
	st := memory.Status{Backend: "sqlite", Path: ix.path, Files: map[memory.FileKind]int{}, Skipped: map[string]string{}, Facts: map[memory.Kind]int{}}
	if err := ix.checkFile(); err != nil {
		return st, err
	}
	// The pages this connection keeps may hide damage that every other
	// reader of the file meets (a -wal or -shm overwritten under it):
	// status reads the file as they would. Recall reads cached pages
	// again after it, as after any commit elsewhere.
	if _, err := ix.db().ExecContext(ctx, `PRAGMA shrink_memory`); err != nil {
		return st, ix.wrapErr(err)
	}
	text, err := ix.metaValue(ctx, "manifest")
	if err != nil {
		return st, ix.wrapErr(err)
	}
	stored, err := decodeManifest(text)
	if err != nil {
		return st, ix.wrapErr(err)
	}
	// What this Index holds of the manifest for the same state of the
	// database must be what the file says now. A -shm whose page map sends
	// reads to older pages may send the manifest's and the files table's
	// alike (they then agree, below) while the freshness check reads the
	// manifest this Index decoded before the damage: status would say "up
	// to date" of a file every other reader finds older.
	if held, err := ix.heldManifest(ctx); err != nil {
		return st, ix.wrapErr(err)
	} else if held != nil && !sameManifest(held, stored) {
		return st, ix.wrapErr(fmt.Errorf("%w: the manifest read from the file is not the one this index holds for the same state", memory.ErrCorrupt))
	}
	for _, suffix := range []string{"", "-wal"} {
		if fi, err := os.Stat(ix.path + suffix); err == nil {
			st.Bytes += fi.Size()
		}
	}
	var built string
	if err := ix.db().QueryRowContext(ctx, `SELECT value FROM meta WHERE key='built'`).Scan(&built); err == nil {
		st.Built, _ = time.Parse(time.RFC3339, built)
	}
	// The files table must say what the manifest says: a -shm whose
	// header is sound but whose page map is not sends reads of some pages
	// to older versions of them, without an error, and the two then
	// disagree (a freshness check that read the manifest alone would say
	// "up to date" of a file another reader finds older).
	rows, err := ix.db().QueryContext(ctx, `SELECT kind, path, status, hash FROM files`)
	if err != nil {
		return st, ix.wrapErr(err)
	}
	n := 0
	for rows.Next() {
		var kind, path, status, hash string
		if err := rows.Scan(&kind, &path, &status, &hash); err != nil {
			rows.Close()
			return st, ix.wrapErr(err)
		}
		if s, ok := stored.get(path); !ok || s.hash != hash {
			rows.Close()
			return st, ix.wrapErr(fmt.Errorf("%w: the manifest and the files table disagree on %s", memory.ErrCorrupt, path))
		}
		n++
		st.Files[memory.FileKind(kind)]++
		countImport(&st, memory.FileKind(kind), path)
		if status != "" {
			st.Skipped[path] = status
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return st, ix.wrapErr(err)
	}
	if n != stored.len() {
		return st, ix.wrapErr(fmt.Errorf("%w: the manifest lists %d files, the files table %d", memory.ErrCorrupt, stored.len(), n))
	}
	rows, err = ix.db().QueryContext(ctx, `SELECT kind, count(*) FROM items GROUP BY kind`)
	if err != nil {
		return st, ix.wrapErr(err)
	}
	for rows.Next() {
		var code int64
		var n int
		if err := rows.Scan(&code, &n); err != nil {
			rows.Close()
			return st, ix.wrapErr(err)
		}
		if kind := kindOf(code); kind == memory.KindPassage {
			st.Passages = n
		} else {
			st.Facts[kind] = n
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return st, ix.wrapErr(err)
	}
	var first, last string
	err = ix.db().QueryRowContext(ctx, `SELECT
		(`+entityCount+`),
		(SELECT count(*) FROM entity_pages),
		coalesce((SELECT min(day) FROM files WHERE day != '' AND kind = 'log'), ''),
		coalesce((SELECT max(day) FROM files WHERE day != '' AND kind = 'log'), '')`).Scan(&st.Entities, &st.EntityPages, &first, &last)
	if err != nil {
		return st, ix.wrapErr(err)
	}
	st.FirstDay, _ = time.Parse(ingest.DateLayout, first)
	st.LastDay, _ = time.Parse(ingest.DateLayout, last)
	if st.VectorModel, err = ix.vec.Model(ctx); err != nil {
		return st, ix.wrapErr(err)
	}
	missing, texts, err := ix.textsWithoutVectors(ctx)
	if err != nil {
		return st, ix.wrapErr(err)
	}
	st.Texts, st.Embedded = texts, texts-len(missing)
	d, err := ix.diff(ctx, ix.list())
	if err != nil {
		return st, err
	}
	st.Pending = len(d.todo) + len(d.gone)
	return st, nil
}

// entityCount counts the entities: every slug items mention and every
// entity page's.
const entityCount = `SELECT count(*) FROM (SELECT slug_key FROM item_entities UNION SELECT lower(slug) FROM entity_pages)`

// Verify checks the index: PRAGMA quick_check of every ordinary table,
// FTS5's own integrity check of the full-text table, and quick_check of
// the vector store. A problem wraps memory.ErrCorrupt.
func (ix *Index) Verify(ctx context.Context) error {
	if err := quickCheck(ctx, ix.db()); err != nil {
		return ix.wrapErr(corruptIfNot(err))
	}
	if _, err := ix.db().ExecContext(ctx, `INSERT INTO items_fts(items_fts) VALUES('integrity-check')`); err != nil {
		return ix.wrapErr(corruptIfNot(fmt.Errorf("full-text index: %w", err)))
	}
	if err := ix.vec.Verify(ctx); err != nil {
		return fmt.Errorf("vectors %s: %w: %w", ix.vec.Path(), memory.ErrCorrupt, err)
	}
	return nil
}

// corruptIfNot marks a failed check as damage unless SQLite already said
// so in its own words (wrapErr recognises those).
func corruptIfNot(err error) error {
	if isCorrupt(err) {
		return err
	}
	return fmt.Errorf("%w: %w", memory.ErrCorrupt, err)
}

// countImport counts a file imported from another assistant by where it
// came from (memory.ImportSource).
func countImport(st *memory.Status, kind memory.FileKind, path string) {
	if kind != memory.FileImport {
		return
	}
	if st.Imported == nil {
		st.Imported = map[string]int{}
	}
	st.Imported[cmp.Or(memory.ImportSource(path), "unknown")]++
}
