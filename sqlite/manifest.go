package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"memoria/memory"
)

// The manifest and the entity-name list are kept in meta as single text
// values, rewritten whenever the index changes. Every recall reads both
// (the freshness check needs every file's size and mtime; query parsing
// needs every entity name), and one row decoded in Go costs a fraction of
// thousands of rows scanned through database/sql.

// refreshSummaries rewrites the manifest and the entity names from the
// tables, inside the transaction that changed them (a full build).
func refreshSummaries(ctx context.Context, tx *sql.Tx) error {
	m := map[string]storedFile{}
	rows, err := tx.QueryContext(ctx, `SELECT id, path, size, mtime, hash FROM files`)
	if err != nil {
		return fmt.Errorf("manifest: %w", err)
	}
	for rows.Next() {
		var s storedFile
		var path string
		if err := rows.Scan(&s.id, &path, &s.size, &s.mtime, &s.hash); err != nil {
			rows.Close()
			return fmt.Errorf("manifest: %w", err)
		}
		m[path] = s
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("manifest: %w", err)
	}
	return writeSummaries(ctx, tx, m)
}

// writeSummaries stores the manifest m, and the entity names and the item
// count from the tables.
func writeSummaries(ctx context.Context, tx *sql.Tx, m map[string]storedFile) error {
	// Two plain scans (the second walks item_entities' primary key in
	// order) and a merge in Go: a UNION of the two costs a temporary
	// B-tree and was most of an incremental sync's time.
	var names strings.Builder
	seen := map[[2]string]bool{}
	for _, q := range []string{`SELECT key, slug FROM entity_names`, `SELECT slug_key, slug_key FROM item_entities GROUP BY slug_key`} {
		rows, err := tx.QueryContext(ctx, q)
		if err != nil {
			return fmt.Errorf("entity names: %w", err)
		}
		for rows.Next() {
			var kv [2]string
			if err := rows.Scan(&kv[0], &kv[1]); err != nil {
				rows.Close()
				return fmt.Errorf("entity names: %w", err)
			}
			if !seen[kv] {
				seen[kv] = true
				fmt.Fprintf(&names, "%s\t%s\n", kv[0], kv[1])
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return fmt.Errorf("entity names: %w", err)
		}
	}
	var err error
	_, err = tx.ExecContext(ctx, `INSERT OR REPLACE INTO meta(key, value) VALUES('manifest', ?), ('entity_names', ?), ('items', (SELECT count(*) FROM items))`,
		encodeManifest(m), names.String())
	return err
}

// manifestPath is a path as the manifest writes it: as it is, unless it
// holds a byte that would end its line or field (any byte a file system
// allows may be in a name) or begins with a quote; then Go-quoted.
func manifestPath(p string) string {
	if strings.ContainsAny(p, "\n\r\t") || strings.HasPrefix(p, `"`) {
		return strconv.Quote(p)
	}
	return p
}

// encodeManifest writes a line per file, sorted by path (decodeManifest
// sorts the lines of an index written before they were).
func encodeManifest(m map[string]storedFile) string {
	sorted := byPathOf(m)
	var b strings.Builder
	b.Grow(len(m) * 64)
	for i, path := range sorted.paths {
		s := sorted.vals[i]
		b.WriteString(strconv.FormatInt(s.id, 10))
		b.WriteByte('\t')
		b.WriteString(strconv.FormatInt(s.size, 10))
		b.WriteByte('\t')
		b.WriteString(strconv.FormatInt(s.mtime, 10))
		b.WriteByte('\t')
		b.WriteString(s.hash)
		b.WriteByte('\t')
		b.WriteString(manifestPath(path))
		b.WriteByte('\n')
	}
	return b.String()
}

func (ix *Index) metaValue(ctx context.Context, key string) (string, error) {
	var v string
	err := ix.queryRow(ctx, `SELECT value FROM meta WHERE key = ?`, key).Scan(&v)
	if err == sql.ErrNoRows {
		return "", nil
	}
	return v, err
}

// storedFiles decodes the manifest: what the index saw of each file. The
// map is shared and must not be changed: a one-shot recall needs it for
// the freshness check and again for the in-memory postings, and reading
// and decoding thousands of lines is a visible share of its time, so the
// last one decoded is kept until the database changes (PRAGMA
// data_version, for other connections' commits) or this Index writes.
func (ix *Index) storedFiles(ctx context.Context) (*manifest, error) {
	version, err := ix.dataVersion(ctx)
	if err != nil {
		return nil, err
	}
	ix.manifestMu.Lock()
	defer ix.manifestMu.Unlock()
	if m := ix.heldAt(version); m != nil {
		return m, nil
	}
	text, err := ix.metaValue(ctx, "manifest")
	if err != nil {
		return nil, err
	}
	m, err := decodeManifest(text)
	if err != nil {
		return nil, err
	}
	ix.manifestVersion, ix.manifest = version, m
	return m, nil
}

// heldManifest is the manifest storedFiles keeps, if it is for the
// database as it is now (PRAGMA data_version); nil otherwise.
func (ix *Index) heldManifest(ctx context.Context) (*manifest, error) {
	version, err := ix.dataVersion(ctx)
	if err != nil {
		return nil, err
	}
	ix.manifestMu.Lock()
	defer ix.manifestMu.Unlock()
	return ix.heldAt(version), nil
}

// heldAt is the kept manifest if it was read at this data_version, else
// nil; manifestMu is held.
func (ix *Index) heldAt(version int64) *manifest {
	if ix.manifest != nil && version == ix.manifestVersion {
		return ix.manifest
	}
	return nil
}

func sameManifest(a, b *manifest) bool {
	return slices.Equal(a.paths, b.paths) && slices.Equal(a.vals, b.vals)
}

// forgetCaches drops what is kept while the database is unchanged (the
// decoded manifest, the term counts): this Index wrote, which data_version
// does not show to the connection that wrote.
func (ix *Index) forgetCaches() {
	ix.writes.Add(1)
	ix.manifestMu.Lock()
	ix.manifest = nil
	ix.manifestMu.Unlock()
	ix.counts.forget()
}

func decodeManifest(text string) (*manifest, error) {
	n := strings.Count(text, "\n")
	m := &manifest{paths: make([]string, 0, n), vals: make([]storedFile, 0, n)}
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
				return nil, fmt.Errorf("manifest: bad line %.60q: %w", line, memory.ErrCorrupt)
			}
			f[k], line = line[:i], line[i+1:]
		}
		f[4] = line
		if strings.HasPrefix(line, `"`) {
			p, err := strconv.Unquote(line)
			if err != nil {
				return nil, fmt.Errorf("manifest: bad path %.60s: %w", line, memory.ErrCorrupt)
			}
			f[4] = p
		}
		var s storedFile
		var ok1, ok2, ok3 bool
		s.id, ok1 = parseDecimal(f[0])
		s.size, ok2 = parseDecimal(f[1])
		s.mtime, ok3 = parseDecimal(f[2])
		if !ok1 || !ok2 || !ok3 {
			return nil, fmt.Errorf("manifest: bad line for %.60q: %w", f[4], memory.ErrCorrupt)
		}
		s.hash = f[3]
		m.paths = append(m.paths, f[4])
		m.vals = append(m.vals, s)
	}
	if err := sortByPath(m.paths, m.vals); err != nil {
		return nil, fmt.Errorf("manifest: %w: %w", err, memory.ErrCorrupt)
	}
	return m, nil
}

// parseDecimal is strconv.ParseInt(s, 10, 64) for the manifest's numbers,
// without its generality: decoding thousands of lines is on every
// one-shot recall's path.
func parseDecimal(s string) (int64, bool) {
	digits := strings.TrimPrefix(s, "-")
	if len(digits) == 0 || len(digits) > 18 { // 18 digits cannot overflow
		v, err := strconv.ParseInt(s, 10, 64)
		return v, err == nil
	}
	var v int64
	for i := 0; i < len(digits); i++ {
		d := digits[i] - '0'
		if d > 9 {
			return 0, false
		}
		v = v*10 + int64(d)
	}
	if len(digits) < len(s) {
		v = -v
	}
	return v, true
}
