package sqlite

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"

	"memoria/btree"
)

// A build writes the tables' trees itself: items and its five indexes,
// files, the entity tables and links with their indexes, and the
// full-text index's %_data and %_docsize. SQLite creates the schema
// (every table and index empty, with its root page) and, once the trees
// are in, adds the full-text structure record, its %_idx rows and the
// summaries; in between no connection has the file open, and package
// btree appends the trees' pages to it. Inserting 85,000 items through
// SQLite, each into six B-trees, was the larger part of a 10-year build,
// on one CPU (docs/index.md, "B-trees written from Go"). The trees are
// ordinary SQLite B-trees from then on; TestBuildMatchesSync holds them
// to SQLite's integrity check and to the rows an incremental sync
// inserts.

// readRoots returns the root page of every table and index.
func readRoots(ctx context.Context, tx *sql.Tx) (map[string]uint32, error) {
	rows, err := tx.QueryContext(ctx, `SELECT name, rootpage FROM sqlite_schema WHERE rootpage > 0`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	roots := map[string]uint32{}
	for rows.Next() {
		var name string
		var root uint32
		if err := rows.Scan(&name, &root); err != nil {
			return nil, err
		}
		roots[name] = root
	}
	return roots, rows.Err()
}

// tree starts the tree of the table or index named name.
func tree(x *btree.File, roots map[string]uint32, name string, index bool) (*btree.Tree, error) {
	root, ok := roots[name]
	if !ok {
		return nil, fmt.Errorf("no %s in the schema", name)
	}
	if index {
		return x.Index(root)
	}
	return x.Table(root)
}

// itemTrees writes the items as they come, in id order, and gathers the
// keys of their indexes, written by finish.
type itemTrees struct {
	x       *btree.File
	roots   map[string]uint32
	items   *btree.Tree
	rec     btree.Record
	file    []lineKey // items_file
	written []textKey // items_written
	event   []eventKey
	day     []textKey
	hash    []textKey // items_text_hash
}

type lineKey struct{ file, line, id int64 }
type textKey struct {
	text string
	id   int64
}
type eventKey struct {
	start, end string
	id         int64
}

func newItemTrees(x *btree.File, roots map[string]uint32) (*itemTrees, error) {
	items, err := tree(x, roots, "items", false)
	if err != nil {
		return nil, err
	}
	return &itemTrees{x: x, roots: roots, items: items}, nil
}

// add writes a row of items; ids ascend.
func (t *itemTrees) add(r itemRow) error {
	rec := &t.rec
	rec.Reset()
	rec.Null() // id, the rowid
	rec.Int(r.fileID)
	rec.Text(r.kind)
	if s, ok := r.factID.(string); ok {
		rec.Text(s)
	} else {
		rec.Null()
	}
	if f, ok := r.confidence.(float64); ok {
		realValue(rec, f)
	} else {
		rec.Null()
	}
	rec.Int(r.start)
	rec.Int(r.end)
	for _, s := range [...]string{r.written, r.evStart, r.evEnd, r.section, r.entities, r.content, r.textHash, r.alt} {
		rec.Text(s)
	}
	if err := t.items.AddRow(r.id, rec); err != nil {
		return fmt.Errorf("items: %w", err)
	}
	t.file = append(t.file, lineKey{r.fileID, r.start, r.id})
	t.written = append(t.written, textKey{r.written, r.id})
	if r.evStart != "" {
		t.event = append(t.event, eventKey{r.evStart, r.evEnd, r.id})
	}
	day := r.evStart
	if day == "" {
		day = r.written
	}
	t.day = append(t.day, textKey{day, r.id})
	t.hash = append(t.hash, textKey{r.textHash, r.id})
	return nil
}

// realValue appends a value of a REAL column as SQLite stores it: a
// whole number as an integer, read back as a REAL.
func realValue(rec *btree.Record, f float64) {
	if f == math.Trunc(f) && math.Abs(f) < 1<<62 {
		rec.Int(int64(f))
		return
	}
	rec.Float(f)
}

// finish ends the items and writes their indexes. The keys are sorted
// as SQLite orders them: the indexed values, then the rowid; texts by
// BINARY collation, which is Go's string order.
func (t *itemTrees) finish() error {
	if err := t.items.Finish(); err != nil {
		return fmt.Errorf("items: %w", err)
	}
	byText := func(a, b textKey) int { return cmp.Or(strings.Compare(a.text, b.text), cmp.Compare(a.id, b.id)) }
	var wg sync.WaitGroup
	wg.Go(func() {
		slices.SortFunc(t.file, func(a, b lineKey) int {
			return cmp.Or(cmp.Compare(a.file, b.file), cmp.Compare(a.line, b.line), cmp.Compare(a.id, b.id))
		})
	})
	wg.Go(func() { slices.SortFunc(t.written, byText) })
	wg.Go(func() {
		slices.SortFunc(t.event, func(a, b eventKey) int {
			return cmp.Or(strings.Compare(a.start, b.start), strings.Compare(a.end, b.end), cmp.Compare(a.id, b.id))
		})
	})
	wg.Go(func() { slices.SortFunc(t.day, byText) })
	wg.Go(func() { slices.SortFunc(t.hash, byText) })
	wg.Wait()
	indexes := []struct {
		name string
		rows int
		key  func(rec *btree.Record, i int)
	}{
		{"items_file", len(t.file), func(rec *btree.Record, i int) {
			k := t.file[i]
			rec.Int(k.file)
			rec.Int(k.line)
			rec.Int(k.id)
		}},
		{"items_written", len(t.written), textKeys(t.written)},
		{"items_event", len(t.event), func(rec *btree.Record, i int) {
			k := t.event[i]
			rec.Text(k.start)
			rec.Text(k.end)
			rec.Int(k.id)
		}},
		{"items_day", len(t.day), textKeys(t.day)},
		{"items_text_hash", len(t.hash), textKeys(t.hash)},
	}
	for _, ix := range indexes {
		tr, err := tree(t.x, t.roots, ix.name, true)
		if err != nil {
			return err
		}
		for i := range ix.rows {
			t.rec.Reset()
			ix.key(&t.rec, i)
			if err := tr.AddKey(&t.rec); err != nil {
				return fmt.Errorf("%s: %w", ix.name, err)
			}
		}
		if err := tr.Finish(); err != nil {
			return fmt.Errorf("%s: %w", ix.name, err)
		}
	}
	t.file, t.written, t.event, t.day, t.hash = nil, nil, nil, nil, nil
	return nil
}

func textKeys(keys []textKey) func(rec *btree.Record, i int) {
	return func(rec *btree.Record, i int) {
		rec.Text(keys[i].text)
		rec.Int(keys[i].id)
	}
}

// writeTrees writes the trees of the gathered tables and their indexes.
// Their keys are sorted as the items' are (itemTrees.finish).
func (b *bulkRows) writeTrees(x *btree.File, roots map[string]uint32) error {
	// The parser lists an entity once per item; a link is kept once
	// anyway, as INSERT OR IGNORE did: a key twice would corrupt the tree.
	slices.SortFunc(b.links, func(p, q linkRow) int { return cmp.Or(strings.Compare(p.key, q.key), cmp.Compare(p.item, q.item)) })
	b.links = slices.Compact(b.links)
	byPath := slices.Clone(b.files)
	slices.SortFunc(byPath, func(p, q fileRow) int { return cmp.Or(strings.Compare(p.path, q.path), cmp.Compare(p.id, q.id)) })
	// entity_names has no INTEGER PRIMARY KEY: its rowids are 1, 2, … in
	// insertion order, as SQLite would have given them.
	type nameKey struct {
		text  string
		id    int64
		rowid int64
	}
	byKey, byFile := make([]nameKey, len(b.names)), make([]nameKey, len(b.names))
	for i, n := range b.names {
		byKey[i], byFile[i] = nameKey{text: n.key, rowid: int64(i) + 1}, nameKey{id: n.fileID, rowid: int64(i) + 1}
	}
	slices.SortFunc(byKey, func(p, q nameKey) int { return cmp.Or(strings.Compare(p.text, q.text), cmp.Compare(p.rowid, q.rowid)) })
	slices.SortFunc(byFile, func(p, q nameKey) int { return cmp.Or(cmp.Compare(p.id, q.id), cmp.Compare(p.rowid, q.rowid)) })
	byItem := slices.Clone(b.links)
	slices.SortFunc(byItem, func(p, q linkRow) int { return cmp.Or(cmp.Compare(p.item, q.item), strings.Compare(p.key, q.key)) })

	var rec btree.Record
	trees := []struct {
		name   string
		index  bool
		rows   int
		rowid  func(i int) int64 // a table's
		record func(i int)
	}{
		{"files", false, len(b.files), func(i int) int64 { return b.files[i].id }, func(i int) {
			f := &b.files[i]
			rec.Null()
			rec.Text(f.path)
			rec.Text(f.kind)
			rec.Text(f.day)
			rec.Int(f.size)
			rec.Int(f.mtime)
			rec.Text(f.hash)
			rec.Int(f.lines)
			rec.Text(f.status)
		}},
		{"sqlite_autoindex_files_1", true, len(byPath), nil, func(i int) {
			rec.Text(byPath[i].path)
			rec.Int(byPath[i].id)
		}},
		{"entity_pages", false, len(b.pages), func(i int) int64 { return b.pages[i].fileID }, func(i int) {
			p := &b.pages[i]
			rec.Null()
			rec.Text(p.slug)
			rec.Text(p.name)
			rec.Text(p.aliases)
		}},
		{"entity_names", false, len(b.names), func(i int) int64 { return int64(i) + 1 }, func(i int) {
			n := &b.names[i]
			rec.Text(n.key)
			rec.Text(n.slug)
			rec.Int(n.fileID)
		}},
		{"entity_names_key", true, len(byKey), nil, func(i int) {
			rec.Text(byKey[i].text)
			rec.Int(byKey[i].rowid)
		}},
		{"entity_names_file", true, len(byFile), nil, func(i int) {
			rec.Int(byFile[i].id)
			rec.Int(byFile[i].rowid)
		}},
		// A WITHOUT ROWID table is an index of its rows; its index holds
		// the indexed column, then the primary key's other columns.
		{"item_entities", true, len(b.links), nil, func(i int) {
			rec.Text(b.links[i].key)
			rec.Int(b.links[i].item)
		}},
		{"item_entities_item", true, len(byItem), nil, func(i int) {
			rec.Int(byItem[i].item)
			rec.Text(byItem[i].key)
		}},
	}
	for _, tr := range trees {
		t, err := tree(x, roots, tr.name, tr.index)
		if err != nil {
			return err
		}
		for i := range tr.rows {
			rec.Reset()
			tr.record(i)
			if tr.index {
				err = t.AddKey(&rec)
			} else {
				err = t.AddRow(tr.rowid(i), &rec)
			}
			if err != nil {
				return fmt.Errorf("%s: %w", tr.name, err)
			}
		}
		if err := t.Finish(); err != nil {
			return fmt.Errorf("%s: %w", tr.name, err)
		}
	}
	return nil
}
