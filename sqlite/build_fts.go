package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"

	"modernc.org/sqlite/vtab"
)

// A full build fills the full-text table on a second connection, into a
// database file of its own beside the index being built, while the main
// connection writes the relational tables: tokenizing is the larger half
// of a build's work, and the two halves then run on two CPUs. The rows
// are computed in Go from the parsed documents (ftsRows), the same rows
// ftsInsert and ftsWindow compute in SQL (a test holds them equal), which
// spares the window function's sort of every item. At the end the
// finished table's shadow tables are copied into the index (moveFTS).

// ftsItem is what the full-text row of one item is made from, as the
// writer inserts it into items.
type ftsItem struct {
	id        int64
	passage   bool // kind = 'passage'
	startLine int
	section   string
	entities  string // items.entities
	content   string
	alt       string // items.alt
}

// ftsRow is one row of items_fts.
type ftsRow struct {
	id                                  int64
	content, section, entities, context string
}

// ftsContext is how many characters of each neighbour a passage's context
// column takes (the 200 in ftsInsert).
const ftsContext = 200

// ftsRows appends to dst the full-text rows of one file's items, given in
// id order, as ftsInsert and ftsWindow make them: the window partitions
// the file's items by section (facts have none, so they share a partition
// with the passages before the first heading) and orders each partition
// by start line; ties keep id order.
func ftsRows(items []ftsItem, dst []ftsRow) []ftsRow {
	// order holds the item indexes sorted by (section, start line, id):
	// each partition is then a run, in window order.
	order := make([]int, len(items))
	sorted := true
	for i := range items {
		order[i] = i
		if i > 0 && (items[i].section < items[i-1].section ||
			items[i].section == items[i-1].section && items[i].startLine < items[i-1].startLine) {
			sorted = false
		}
	}
	if !sorted {
		slices.SortStableFunc(order, func(a, b int) int {
			if c := strings.Compare(items[a].section, items[b].section); c != 0 {
				return c
			}
			return items[a].startLine - items[b].startLine
		})
	}
	prev := make([]int, len(items))
	next := make([]int, len(items))
	for k, i := range order {
		prev[i], next[i] = -1, -1
		if k > 0 && items[order[k-1]].section == items[i].section {
			prev[i] = order[k-1]
		}
		if k+1 < len(order) && items[order[k+1]].section == items[i].section {
			next[i] = order[k+1]
		}
	}
	var b strings.Builder
	for i, it := range items {
		own, altCtx := splitAlt(it.alt)
		r := ftsRow{id: it.id, section: it.section, entities: ftsEntities(it.entities), content: it.content}
		if it.alt != "" {
			r.content = it.content + " " + own
		}
		b.Reset()
		if it.passage {
			if j := prev[i]; j >= 0 {
				b.WriteString(sqlTail(items[j].content, ftsContext))
			}
			b.WriteByte(' ')
			if j := next[i]; j >= 0 {
				b.WriteString(sqlHead(items[j].content, ftsContext))
			}
		}
		if it.alt != "" {
			b.WriteByte(' ')
			b.WriteString(altCtx)
		}
		r.context = b.String()
		dst = append(dst, r)
	}
	return dst
}

// ftsEntities is replace(replace(entities, '-', ' '), '_', ' ').
func ftsEntities(s string) string {
	if strings.IndexByte(s, '-') < 0 && strings.IndexByte(s, '_') < 0 {
		return s
	}
	b := []byte(s)
	for i, c := range b {
		if c == '-' || c == '_' {
			b[i] = ' '
		}
	}
	return string(b)
}

// splitAlt splits a non-empty items.alt value as ftsInsert does with
// instr(alt, char(1)): the item's own tokens before U+0001, its
// neighbours' after. Without the separator, SQLite's substr gives an
// empty own part and the whole value as the neighbours'.
func splitAlt(alt string) (own, context string) {
	i := strings.IndexByte(alt, 1)
	if i < 0 {
		return "", sqlHead(alt, len(alt))
	}
	if strings.IndexByte(alt[:i], 0) >= 0 {
		// substr stops skipping characters at the NUL.
		return sqlHead(alt, len(alt)), ""
	}
	return alt[:i], sqlHead(alt[i+1:], len(alt))
}

// sqlSkip returns the index after the character of s starting at i, as
// SQLite's SQLITE_SKIP_UTF8 counts characters (substr counts in these).
func sqlSkip(s string, i int) int {
	c := s[i]
	i++
	if c >= 0xc0 {
		for i < len(s) && s[i]&0xc0 == 0x80 {
			i++
		}
	}
	return i
}

// sqlHead is SQLite's substr(s, 1, n) for text: the first n characters,
// stopping at a NUL byte as SQLite's character loops do.
func sqlHead(s string, n int) string {
	i := 0
	for ; n > 0 && i < len(s) && s[i] != 0; n-- {
		i = sqlSkip(s, i)
	}
	return s[:i]
}

// sqlTail is SQLite's substr(s, -n) for text: the last n characters of
// the part before any NUL byte.
func sqlTail(s string, n int) string {
	if k := strings.IndexByte(s, 0); k >= 0 {
		s = s[:k]
	}
	// Count characters from the start only when the text could be longer
	// than n characters; most neighbours are shorter.
	if len(s) <= n {
		return s
	}
	chars := 0
	for i := 0; i < len(s); chars++ {
		i = sqlSkip(s, i)
	}
	skip := chars - n
	i := 0
	for ; skip > 0; skip-- {
		i = sqlSkip(s, i)
	}
	return s[i:]
}

// ftsBuilder fills items_fts in a database file of its own, on its own
// connection and goroutine, from the rows streamed to it (build_rows.go):
// the whole fill is one INSERT … SELECT. A statement per row added about
// half the tokenizing's cost again, and a statement per batch would open
// a savepoint per batch, at each of which FTS5 writes its pending terms
// as a new segment.
//
// The fill is the slowest part of a build. The writer must not wait for
// it, or the relational tables' indexes would be created only once it is
// nearly done, one CPU idle meanwhile: the items are queued (they share
// their text with the parsed documents, so the queue costs little), and
// a goroutine of their own makes the rows, with their neighbours' text,
// as the fill takes them.
type ftsBuilder struct {
	rows    *stream
	items   chan ftsFiles
	done    chan struct{} // closed when the rows are all made
	aborted atomic.Bool
	pending ftsFiles // not yet queued
}

// ftsFiles are the items of whole files: file k's are
// items[ends[k-1]:ends[k]].
type ftsFiles struct {
	items []ftsItem
	ends  []int
}

// ftsBatch is a batch of ftsRows for a stream.
type ftsBatch []ftsRow

func (b ftsBatch) rows() int { return len(b) }

func (b ftsBatch) column(i, col int) vtab.Value {
	r := &b[i]
	switch col {
	case 0:
		return r.id
	case 1:
		return r.content
	case 2:
		return r.section
	case 3:
		return r.entities
	}
	return r.context
}

const ftsBatchRows = 512

// startFTS creates the full-text table in a new database at path and
// starts filling it.
func startFTS(ctx context.Context, path string) (*ftsBuilder, error) {
	// A small page cache: the pages are written once, at the commit, and
	// read once, by moveFTS through a connection of its own.
	db, err := openBuildDB(path, "cache_size(-8192)")
	if err != nil {
		return nil, fmt.Errorf("full-text %s: %w", path, err)
	}
	rows, table := newStream(`CREATE TABLE x(id INTEGER, content TEXT, section TEXT, entities TEXT, context TEXT)`, "temp.build_fts")
	// One bulk insert with merging deferred to the final 'optimize': FTS5's
	// incremental merges would otherwise rewrite the segments many times.
	// The settings are stored in items_fts_config, copied with the table
	// (as they were when the table was filled in the index itself).
	setup := ftsTable + `;
INSERT INTO items_fts(items_fts, rank) VALUES('automerge', 0);
INSERT INTO items_fts(items_fts, rank) VALUES('hashsize', 268435456);
` + table
	if _, err := db.ExecContext(ctx, setup); err != nil {
		rows.drop()
		db.Close()
		return nil, fmt.Errorf("full-text %s: %w", path, err)
	}
	rows.start(func() error {
		const fill = `BEGIN;
INSERT INTO items_fts(rowid, content, section, entities, context) SELECT id, content, section, entities, context FROM temp.build_fts;
COMMIT;
DROP TABLE temp.build_fts;
INSERT INTO items_fts(items_fts) VALUES('optimize');
INSERT INTO items_fts(items_fts, rank) VALUES('automerge', 4)`
		_, err := db.ExecContext(ctx, fill)
		if cerr := db.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("full-text %s: %w", path, err)
		}
		return nil
	})
	b := &ftsBuilder{rows: rows, items: make(chan ftsFiles, 256), done: make(chan struct{})}
	go b.makeRows(b.items)
	return b, nil
}

// makeRows turns the queued items into rows for the fill.
func (b *ftsBuilder) makeRows(items <-chan ftsFiles) {
	defer close(b.done)
	for f := range items {
		if b.aborted.Load() {
			continue
		}
		rows := make(ftsBatch, 0, len(f.items))
		start := 0
		for _, end := range f.ends {
			rows = ftsRows(f.items[start:end], rows)
			start = end
		}
		b.rows.send(rows)
	}
}

// ftsTable is the full-text table's definition in schema.
var ftsTable = func() string {
	i := strings.Index(schema, "CREATE VIRTUAL TABLE items_fts ")
	if i < 0 {
		panic("sqlite: no items_fts in the schema")
	}
	return schema[i : i+strings.IndexByte(schema[i:], ';')]
}()

// add queues the items of one file.
func (b *ftsBuilder) add(items []ftsItem) {
	b.pending.items = append(b.pending.items, items...)
	b.pending.ends = append(b.pending.ends, len(b.pending.items))
	if len(b.pending.items) >= ftsBatchRows {
		b.items <- b.pending
		b.pending = ftsFiles{items: make([]ftsItem, 0, ftsBatchRows+64)}
	}
}

// finish queues what is pending and waits for the table to be complete.
func (b *ftsBuilder) finish() error {
	if b.items == nil {
		return errors.New("full-text: already ended")
	}
	if len(b.pending.items) > 0 {
		b.items <- b.pending
		b.pending = ftsFiles{}
	}
	close(b.items)
	b.items = nil
	<-b.done
	return b.rows.finish()
}

// abort stops the filling after an error elsewhere and waits for it.
func (b *ftsBuilder) abort() {
	if b.items == nil {
		return
	}
	b.aborted.Store(true)
	close(b.items)
	b.items = nil
	<-b.done
	b.rows.abort()
}

// ftsShadow are the shadow tables of items_fts: copying their rows copies
// the table.
var ftsShadow = []string{"items_fts_data", "items_fts_idx", "items_fts_docsize", "items_fts_config"}

// moveFTS replaces the content of the index's (empty) items_fts with that
// of the finished table in the database at path. The connection must not
// have used items_fts since the table was created: FTS5 caches its
// structure record per connection.
func moveFTS(ctx context.Context, db *sql.DB, path string) error {
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `ATTACH DATABASE ? AS fts`, path); err != nil {
		return fmt.Errorf("full-text %s: %w", path, err)
	}
	var q strings.Builder
	q.WriteString("BEGIN;")
	for _, t := range ftsShadow {
		fmt.Fprintf(&q, "DELETE FROM main.%[1]s; INSERT INTO main.%[1]s SELECT * FROM fts.%[1]s;", t)
	}
	q.WriteString("COMMIT;")
	_, err = conn.ExecContext(ctx, q.String())
	if err != nil {
		conn.ExecContext(ctx, "ROLLBACK")
	}
	if _, derr := conn.ExecContext(ctx, `DETACH DATABASE fts`); err == nil && derr != nil {
		err = derr
	}
	if err != nil {
		return fmt.Errorf("full-text %s: %w", path, err)
	}
	return nil
}
