package sqlite

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
)

// A build's writer lays the items out as B-trees straight into the file
// (build_trees.go), and gathers the smaller tables (files, entity pages
// and names, item–entity links) to insert through SQLite once the trees
// are written. Files get their ids here, as SQLite would have given
// them, in order from 1.

// itemRow is one row of items.
type itemRow struct {
	id, fileID                                                         int64
	kind                                                               string
	factID, confidence                                                 any // string or nil; float64 or nil
	start, end                                                         int64
	written, evStart, evEnd, section, entities, content, textHash, alt string
}

// bulkRows is what a build's writer gathers.
type bulkRows struct {
	items        *itemTrees
	nextFile     int64
	files        []any // the rows of files, flattened, as are those below
	pages        []any // of entity_pages
	names        []any // of entity_names
	itemEntities []any // of item_entities
}

// file gathers a row of files and returns its id.
func (b *bulkRows) file(path, kind, day string, size, mtime int64, hash string, lines int, status string) int64 {
	id := b.nextFile
	b.nextFile++
	b.files = append(b.files, id, path, kind, day, size, mtime, hash, int64(lines), status)
	return id
}

// insert inserts the gathered tables.
func (b *bulkRows) insert(ctx context.Context, tx *sql.Tx) error {
	// In key order, the links are appended to their B-tree (WITHOUT ROWID,
	// keyed by entity then item) instead of inserted all over it: 16,700
	// links of ten years took 45–70 ms in item order.
	sortPairs(b.itemEntities)
	for _, t := range []struct {
		insert string
		cols   int
		rows   []any
	}{
		{`INSERT INTO files(id, path, kind, day, size, mtime, hash, lines, status)`, 9, b.files},
		{`INSERT INTO entity_pages(file_id, slug, name, aliases)`, 4, b.pages},
		{`INSERT INTO entity_names(key, slug, file_id)`, 3, b.names},
		{`INSERT OR IGNORE INTO item_entities(slug_key, item_id)`, 2, b.itemEntities}, // an item may name an entity twice
	} {
		if err := streamRows(ctx, tx, flatRows{t.cols, t.rows}, t.cols, t.insert+` SELECT * FROM temp.%s`); err != nil {
			return fmt.Errorf("%s: %w", t.insert, err)
		}
	}
	return nil
}

// sortPairs sorts flattened (string, int64) pairs.
func sortPairs(vals []any) {
	type pair struct {
		key string
		id  int64
	}
	pairs := make([]pair, len(vals)/2)
	for i := range pairs {
		pairs[i] = pair{vals[2*i].(string), vals[2*i+1].(int64)}
	}
	slices.SortFunc(pairs, func(a, b pair) int {
		if c := strings.Compare(a.key, b.key); c != 0 {
			return c
		}
		return cmp.Compare(a.id, b.id)
	})
	for i, p := range pairs {
		vals[2*i], vals[2*i+1] = p.key, p.id
	}
}
