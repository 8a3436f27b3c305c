package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"
)

// The manifest and the entity-name list are kept in meta as single text
// values, rewritten whenever the index changes. Every recall reads both
// (the freshness check needs every file's size and mtime; query parsing
// needs every entity name), and one row decoded in Go costs a fraction of
// thousands of rows scanned through database/sql.

// refreshSummaries rewrites the manifest and the entity names from the
// tables, inside the transaction that changed them.
func refreshSummaries(ctx context.Context, tx *sql.Tx) error {
	var b strings.Builder
	rows, err := tx.QueryContext(ctx, `SELECT id, path, size, mtime, hash FROM files`)
	if err != nil {
		return fmt.Errorf("manifest: %w", err)
	}
	for rows.Next() {
		var id, size, mtime int64
		var path, hash string
		if err := rows.Scan(&id, &path, &size, &mtime, &hash); err != nil {
			rows.Close()
			return fmt.Errorf("manifest: %w", err)
		}
		fmt.Fprintf(&b, "%d\t%d\t%d\t%s\t%s\n", id, size, mtime, hash, path)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("manifest: %w", err)
	}
	var names strings.Builder
	rows, err = tx.QueryContext(ctx, `SELECT key, slug FROM entity_names
		UNION SELECT DISTINCT slug_key, slug_key FROM item_entities`)
	if err != nil {
		return fmt.Errorf("entity names: %w", err)
	}
	for rows.Next() {
		var key, slug string
		if err := rows.Scan(&key, &slug); err != nil {
			rows.Close()
			return fmt.Errorf("entity names: %w", err)
		}
		fmt.Fprintf(&names, "%s\t%s\n", key, slug)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("entity names: %w", err)
	}
	_, err = tx.ExecContext(ctx, `INSERT OR REPLACE INTO meta(key, value) VALUES('manifest', ?), ('entity_names', ?), ('items', (SELECT count(*) FROM items))`,
		b.String(), names.String())
	return err
}

func (ix *Index) metaValue(ctx context.Context, key string) (string, error) {
	var v string
	err := ix.queryRow(ctx, `SELECT value FROM meta WHERE key = ?`, key).Scan(&v)
	if err == sql.ErrNoRows {
		return "", nil
	}
	return v, err
}

// storedFiles decodes the manifest: what the index saw of each file.
func (ix *Index) storedFiles(ctx context.Context) (map[string]storedFile, error) {
	text, err := ix.metaValue(ctx, "manifest")
	if err != nil {
		return nil, err
	}
	m := make(map[string]storedFile, strings.Count(text, "\n"))
	for len(text) > 0 {
		line := text
		if i := strings.IndexByte(text, '\n'); i >= 0 {
			line, text = text[:i], text[i+1:]
		} else {
			text = ""
		}
		var f [5]string
		for k := range 4 {
			i := strings.IndexByte(line, '\t')
			if i < 0 {
				return nil, fmt.Errorf("manifest: bad line %q", line)
			}
			f[k], line = line[:i], line[i+1:]
		}
		f[4] = line
		var s storedFile
		var e1, e2, e3 error
		s.id, e1 = strconv.ParseInt(f[0], 10, 64)
		s.size, e2 = strconv.ParseInt(f[1], 10, 64)
		s.mtime, e3 = strconv.ParseInt(f[2], 10, 64)
		if e1 != nil || e2 != nil || e3 != nil {
			return nil, fmt.Errorf("manifest: bad line for %q", f[4])
		}
		s.hash = f[3]
		m[f[4]] = s
	}
	return m, nil
}
