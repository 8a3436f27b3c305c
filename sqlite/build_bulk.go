package sqlite

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"

	"modernc.org/sqlite/vtab"
)

// A build's writer streams the items to one INSERT … SELECT running on
// the build's connection (build_rows.go), and gathers the smaller tables
// (files, entity pages and names, item-entity links) to insert once the
// items are in: the connection is busy until then. Files get their ids
// here, as SQLite would have given them, in order from 1.

// itemRow is one row of items.
type itemRow struct {
	id, fileID                                                         int64
	kind                                                               string
	factID, confidence                                                 any // string or nil; float64 or nil
	start, end                                                         int64
	written, evStart, evEnd, section, entities, content, textHash, alt string
}

// itemBatch is a batch of itemRows for a stream.
type itemBatch []itemRow

func (b itemBatch) rows() int { return len(b) }

func (b itemBatch) column(i, col int) vtab.Value {
	r := &b[i]
	switch col {
	case 0:
		return r.id
	case 1:
		return r.fileID
	case 2:
		return r.kind
	case 3:
		return r.factID
	case 4:
		return r.confidence
	case 5:
		return r.start
	case 6:
		return r.end
	case 7:
		return textOrNil(r.written)
	case 8:
		return textOrNil(r.evStart)
	case 9:
		return textOrNil(r.evEnd)
	case 10:
		return textOrNil(r.section)
	case 11:
		return textOrNil(r.entities)
	case 12:
		return r.content
	case 13:
		return r.textHash
	}
	return textOrNil(r.alt)
}

// textOrNil passes an empty text as NULL, which itemSelect turns back
// into ”: most items have no event dates, section, entities or alt, and
// a NULL costs the driver no allocation and copy, where every text value
// costs two of each.
func textOrNil(s string) vtab.Value {
	if s == "" {
		return nil
	}
	return s
}

// itemSelect reads the streamed items (itemBatch) back into items' columns.
const itemSelect = `id, file_id, kind, fact_id, confidence, start_line, end_line, coalesce(written, ''), coalesce(event_start, ''),
	coalesce(event_end, ''), coalesce(section, ''), coalesce(entities, ''), content, text_hash, coalesce(alt, '')`

const itemColumnNames = `id, file_id, kind, fact_id, confidence, start_line, end_line, written, event_start, event_end, section, entities, content, text_hash, alt`

const itemBatchRows = 512

// bulkRows is what a build's writer gathers.
type bulkRows struct {
	items        *stream
	batch        itemBatch
	nextFile     int64
	files        []any // the rows of files, flattened, as are those below
	pages        []any // of entity_pages
	names        []any // of entity_names
	itemEntities []any // of item_entities
}

// startBulk starts the statement inserting the items streamed to it.
func startBulk(ctx context.Context, tx *sql.Tx) (*bulkRows, error) {
	items, table := newStream(`CREATE TABLE x(`+itemColumnNames+`)`, "temp.build_items")
	if _, err := tx.ExecContext(ctx, table); err != nil {
		items.drop()
		return nil, fmt.Errorf("items: %w", err)
	}
	items.start(func() error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO items(`+itemColumnNames+`) SELECT `+itemSelect+` FROM temp.build_items`); err != nil {
			return fmt.Errorf("items: %w", err)
		}
		return nil
	})
	return &bulkRows{items: items, nextFile: 1}, nil
}

// file gathers a row of files and returns its id.
func (b *bulkRows) file(path, kind, day string, size, mtime int64, hash string, lines int, status string) int64 {
	id := b.nextFile
	b.nextFile++
	b.files = append(b.files, id, path, kind, day, size, mtime, hash, int64(lines), status)
	return id
}

// item queues a row of items.
func (b *bulkRows) item(r itemRow) {
	if b.batch == nil {
		b.batch = make(itemBatch, 0, itemBatchRows)
	}
	b.batch = append(b.batch, r)
	if len(b.batch) == itemBatchRows {
		b.items.send(b.batch)
		b.batch = nil
	}
}

// finish waits for the items to be in, then inserts the rest.
func (b *bulkRows) finish(ctx context.Context, tx *sql.Tx) error {
	if len(b.batch) > 0 {
		b.items.send(b.batch)
		b.batch = nil
	}
	if err := b.items.finish(); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `DROP TABLE temp.build_items`); err != nil {
		return fmt.Errorf("items: %w", err)
	}
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

// abort ends the items stream after an error elsewhere.
func (b *bulkRows) abort() {
	if b != nil {
		b.items.abort()
	}
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
