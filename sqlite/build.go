package sqlite

import (
	"context"
	"database/sql"
	"encoding/binary"
	"fmt"
	"hash/maphash"
	"math"
	"runtime/debug"
	"strings"
	"time"

	"memoria/ingest"
	"memoria/memory"
	"memoria/workspace"
)

// writer inserts parsed files inside one transaction. Items, their
// full-text rows and their entity links are buffered and written many
// rows per statement: per-row statements through database/sql cost more
// than SQLite's own work. Item ids are assigned in order, so a build
// fills the full-text table in rowid order.
type writer struct {
	tx                       *sql.Tx
	file, page, name         *sql.Stmt
	items, fts, itemEntities *batch
	sections                 *sectionIDs
	nextID                   int64 // item ids are assigned here, so links need no round trip
	count                    int
}

// batch buffers rows for a multi-row INSERT.
type batch struct {
	head    string // INSERT … VALUES
	cols    int
	full    *sql.Stmt // a statement for batchRows rows
	pending []any
}

const batchRows = 64

func newBatch(ctx context.Context, tx *sql.Tx, head string, cols int) (*batch, error) {
	b := &batch{head: head, cols: cols}
	st, err := tx.PrepareContext(ctx, b.sql(batchRows))
	if err != nil {
		return nil, fmt.Errorf("prepare: %w", err)
	}
	b.full = st
	return b, nil
}

func (b *batch) sql(rows int) string {
	row := "(" + placeholders(b.cols) + ")"
	return b.head + strings.TrimSuffix(strings.Repeat(row+",", rows), ",")
}

func (b *batch) add(ctx context.Context, tx *sql.Tx, values ...any) error {
	b.pending = append(b.pending, values...)
	if len(b.pending) >= batchRows*b.cols {
		_, err := b.full.ExecContext(ctx, b.pending...)
		b.pending = b.pending[:0]
		return err
	}
	return nil
}

func (b *batch) flush(ctx context.Context, tx *sql.Tx) error {
	if len(b.pending) == 0 {
		return nil
	}
	_, err := tx.ExecContext(ctx, b.sql(len(b.pending)/b.cols), b.pending...)
	b.pending = b.pending[:0]
	return err
}

// newWriter prepares the inserts of a transaction. The full-text rows go
// to ftsTable: items_fts itself, or in a build a staging table that
// fillFTS copies in one statement (FTS5 writes its pending terms out as a
// new segment at the start of every statement that writes to it, and
// merges them: one per batch of rows cost half a build).
func newWriter(ctx context.Context, tx *sql.Tx, ftsTable string) (*writer, error) {
	w := &writer{tx: tx}
	if err := tx.QueryRowContext(ctx, `SELECT coalesce(max(id), 0) + 1 FROM items`).Scan(&w.nextID); err != nil {
		return nil, fmt.Errorf("prepare: %w", err)
	}
	stmts := []struct {
		dst **sql.Stmt
		sql string
	}{
		{&w.file, `INSERT INTO files(path, kind, day, size, mtime, hash, lines, status) VALUES(?,?,?,?,?,?,?,?)`},
		{&w.page, `INSERT INTO entity_pages(file_id, slug, name, aliases) VALUES(?,?,?,?)`},
		{&w.name, `INSERT INTO entity_names(key, slug, file_id) VALUES(?,?,?)`},
	}
	for _, s := range stmts {
		st, err := tx.PrepareContext(ctx, s.sql)
		if err != nil {
			return nil, fmt.Errorf("prepare: %w", err)
		}
		*s.dst = st
	}
	var err error
	if w.sections, err = newSectionIDs(ctx, tx); err != nil {
		return nil, err
	}
	if w.items, err = newBatch(ctx, tx, `INSERT INTO items(id, file_id, kind, fact_id, confidence, start_line, end_line, day, event_end, section, entities, content, text_hash, status) VALUES`, 14); err != nil {
		return nil, err
	}
	if w.fts, err = newBatch(ctx, tx, `INSERT INTO `+ftsTable+`(rowid, content, section, entities, context) VALUES`, 5); err != nil {
		return nil, err
	}
	if w.itemEntities, err = newBatch(ctx, tx, `INSERT OR IGNORE INTO item_entities(slug_key, item_id) VALUES`, 2); err != nil {
		return nil, err
	}
	return w, nil
}

// flush writes what is buffered.
func (w *writer) flush(ctx context.Context) error {
	for _, b := range []*batch{w.items, w.fts, w.itemEntities} {
		if err := b.flush(ctx, w.tx); err != nil {
			return err
		}
	}
	return nil
}

// add writes one loaded file and everything parsed from it.
func (w *writer) add(ctx context.Context, l ingest.Loaded) error {
	f := l.File
	day := ""
	if l.Doc != nil {
		day = ingest.DayString(l.Doc.Date)
	}
	res, err := w.file.ExecContext(ctx, f.Rel, string(f.Kind), day, f.Size, f.ModTime, l.Hash, l.Lines, l.Status)
	if err != nil {
		return fmt.Errorf("file %s: %w", f.Rel, err)
	}
	fileID, _ := res.LastInsertId()
	if l.Doc == nil {
		return nil
	}
	if err := w.addDoc(ctx, fileID, l.Doc, nil); err != nil {
		return fmt.Errorf("file %s: %w", f.Rel, err)
	}
	if err := w.addEntity(ctx, fileID, l.Doc.Entity); err != nil {
		return fmt.Errorf("file %s: %w", f.Rel, err)
	}
	return nil
}

// addEntity writes an entity page's row and the names it is known by.
func (w *writer) addEntity(ctx context.Context, fileID int64, e *memory.EntityPage) error {
	if e == nil {
		return nil
	}
	if _, err := w.page.ExecContext(ctx, fileID, e.Slug, e.Name, strings.Join(e.Aliases, "\n")); err != nil {
		return err
	}
	keys := map[string]bool{}
	for _, n := range append([]string{e.Slug, e.Name}, e.Aliases...) {
		k := memory.EntityKey(n)
		if k == "" || keys[k] {
			continue
		}
		keys[k] = true
		if _, err := w.name.ExecContext(ctx, k, e.Slug, fileID); err != nil {
			return err
		}
	}
	return nil
}

// itemKey digests everything stored of an item, its full-text row
// included: two items with the same key have the same rows in every
// table. It is made in two steps (columns, then the full-text row) so that
// a sync can digest stored items' columns as it reads them and their
// full-text rows once it has them all (a row depends on its neighbours).
type itemKey [16]byte

// digest is the first step: the item's own columns.
func digest(it *ingest.Item) itemKey { return digestStrings(it.Columns()...) }

// key is the second: the columns' digest with the full-text row.
func (d itemKey) key(r ingest.Row) itemKey {
	return digestStrings(append([]string{string(d[:])}, r.Fields()...)...)
}

// digestSeeds: two 64-bit maphash digests make the 128-bit key; keys are
// compared only within one process, so random seeds do.
var digestSeeds = [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}

func digestStrings(ss ...string) itemKey {
	var k itemKey
	for j, seed := range digestSeeds {
		var h maphash.Hash
		h.SetSeed(seed)
		for _, s := range ss {
			var n [8]byte
			binary.LittleEndian.PutUint64(n[:], uint64(len(s)))
			h.Write(n[:])
			h.WriteString(s)
		}
		binary.LittleEndian.PutUint64(k[8*j:], h.Sum64())
	}
	return k
}

// addDoc writes a document's items (those keep accepts, or all), their
// full-text rows and their entity links.
func (w *writer) addDoc(ctx context.Context, fileID int64, doc *memory.Document, keep func(i int) bool) error {
	return ingest.EachRow(doc, func(i int, r ingest.Row) error {
		if keep != nil && !keep(i) {
			return nil
		}
		it := ingest.DocItem(doc, i)
		return w.addItem(ctx, fileID, &it, r)
	})
}

// addItem writes an item, its full-text row and its entity links.
func (w *writer) addItem(ctx context.Context, fileID int64, it *ingest.Item, r ingest.Row) error {
	id := w.nextID
	w.nextID++
	w.count++
	var factID, conf any
	if it.FactID != "" {
		factID = it.FactID
	}
	if it.HasConf {
		conf = it.Conf
	}
	kind, err := kindCode(it.Kind)
	if err != nil {
		return err
	}
	hash, err := hashNum(it.TextHash)
	if err != nil {
		return err
	}
	section, err := w.sections.id(ctx, it.Section)
	if err != nil {
		return err
	}
	status, err := statusCode(it.Status)
	if err != nil {
		return err
	}
	if err := w.items.add(ctx, w.tx, id, fileID, kind, factID, conf, it.Start, it.End, dayNum(it.Day), dayNum(it.EventEnd), section, it.Entities, it.Content, hash, status); err != nil {
		return err
	}
	if err := w.fts.add(ctx, w.tx, id, r.Content, r.Section, r.Entities, r.Context); err != nil {
		return err
	}
	for _, e := range strings.Fields(it.Entities) {
		if err := w.itemEntities.add(ctx, w.tx, strings.ToLower(e), id); err != nil {
			return err
		}
	}
	return nil
}

// build creates a complete index at path from the files listed in ws
// (workspace.List), in one transaction on a private file: the rows of
// every table, the full-text table's in rowid order, then the secondary
// indexes, which SQLite builds from sorted keys (with vectors, the text
// hashes' too: textHashIndex); last a quick_check of the result.
func build(ctx context.Context, path, ws string, files []workspace.File, skipped []workspace.Skipped, o Options, vectors bool) (st memory.Stats, err error) {
	start := time.Now()
	removeDB(path)
	for _, s := range skipped {
		st.Warnings++
		o.warn("%s: skipped: %s", s.Rel, s.Reason)
	}
	st.Files = len(files)
	db, err := openBuildDB(path, "page_size(16384)")
	if err != nil {
		return st, fmt.Errorf("index %s: %w", path, err)
	}
	defer db.Close()
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return st, fmt.Errorf("index %s: %w", path, err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, schema+ftsBuildConfig); err != nil {
		return st, fmt.Errorf("index %s: schema: %w", path, err)
	}
	if _, err := tx.ExecContext(ctx, ftsStaging); err != nil {
		return st, fmt.Errorf("index %s: %w", path, err)
	}
	w, err := newWriter(ctx, tx, "temp.fts_rows")
	if err != nil {
		return st, fmt.Errorf("index %s: %w", path, err)
	}
	err = ingest.LoadAll(ctx, ws, files, o.rows(), func(i int, l ingest.Loaded) error {
		note(&st, l, o)
		if o.Progress != nil {
			o.Progress(i+1, len(files))
		}
		return w.add(ctx, l)
	})
	if err == nil {
		err = w.flush(ctx)
	}
	if err != nil {
		return st, fmt.Errorf("index %s: %w", path, err)
	}
	st.Items = w.count
	built := time.Now().UTC().Format(time.RFC3339)
	meta := fmt.Sprintf(`INSERT INTO meta(key, value) VALUES('identity', %s), ('built', %s); PRAGMA application_id=%d;`,
		quote(identity(o)), quote(built), applicationID)
	steps := []string{fillFTS, ftsSyncConfig, indexes, meta}
	if vectors {
		steps = append(steps, textHashIndex)
	}
	for _, q := range steps {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return st, fmt.Errorf("index %s: %w", path, err)
		}
	}
	if err := refreshSummaries(ctx, tx); err != nil {
		return st, fmt.Errorf("index %s: %w", path, err)
	}
	if err := tx.QueryRowContext(ctx, entityCount).Scan(&st.Entities); err != nil {
		return st, fmt.Errorf("index %s: %w", path, err)
	}
	st.Counted = true
	if err := tx.Commit(); err != nil {
		return st, fmt.Errorf("index %s: %w", path, err)
	}
	if err := quickCheck(ctx, db); err != nil {
		return st, fmt.Errorf("index %s: freshly built: %w", path, err)
	}
	if _, err := db.ExecContext(ctx, "PRAGMA journal_mode=WAL"); err != nil {
		return st, fmt.Errorf("index %s: %w", path, err)
	}
	if err := db.Close(); err != nil {
		return st, fmt.Errorf("index %s: %w", path, err)
	}
	st.Duration = time.Since(start)
	return st, nil
}

// ftsStaging is where a build writes the full-text rows, and fillFTS
// copies them into the full-text table in rowid order.
const (
	ftsStaging = `CREATE TEMP TABLE fts_rows(rowid INTEGER PRIMARY KEY, content, section, entities, context)`
	fillFTS    = `INSERT INTO items_fts(rowid, content, section, entities, context) SELECT rowid, content, section, entities, context FROM temp.fts_rows ORDER BY rowid;
DROP TABLE temp.fts_rows`
)

// quickCheck runs PRAGMA quick_check on every table but the full-text
// one: SQLite's own check of each page and record of the tables and
// their indexes. The full-text table's own check (which quick_check runs
// for it otherwise) re-reads every row's tokens, a fifth of a build, and
// checks what FTS5 itself wrote a moment before.
func quickCheck(ctx context.Context, db *sql.DB) error {
	rows, err := db.QueryContext(ctx, `SELECT name FROM sqlite_schema WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL TABLE%'`)
	if err != nil {
		return err
	}
	var tables []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			rows.Close()
			return err
		}
		tables = append(tables, name)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	var problems []string
	for _, t := range tables {
		var s string
		if err := db.QueryRowContext(ctx, "PRAGMA quick_check("+quote(t)+")").Scan(&s); err != nil {
			return err
		}
		if s != "ok" {
			problems = append(problems, s)
		}
	}
	if len(problems) > 0 {
		return fmt.Errorf("quick_check: %s", strings.Join(problems, "; "))
	}
	return nil
}

// A build's heap peaks, on the synthetic 10-year workspace, at some 85 MB
// live: 13 bytes per byte of Markdown read. Go's default pacing lets the
// heap grow to twice what was live at the last collection, and a build's
// peak RSS, with the postings snapshot written, reached 180-205 MB. A soft
// limit of 26 bytes per byte of Markdown, never below 160 MiB, held it to
// 170 MB, the build's time unchanged within the noise (10 runs each,
// medians 966 and 976 ms). It scales with the workspace, so that a larger
// one is not starved into collecting garbage all the time.
const (
	buildMemoryFloor   = 160 << 20
	buildMemoryPerByte = 26
)

// boundMemory sets the process's soft memory limit for a build of files,
// unless one is set already, and returns what restores the previous one.
func boundMemory(files []workspace.File) (restore func()) {
	prev := debug.SetMemoryLimit(-1)
	if prev != math.MaxInt64 {
		return func() {}
	}
	var size int64
	for _, f := range files {
		size += f.Size
	}
	debug.SetMemoryLimit(max(buildMemoryFloor, buildMemoryPerByte*size))
	return func() { debug.SetMemoryLimit(prev) }
}

// openBuildDB opens a database a build writes, at path, with the settings
// of a private file that is thrown away on failure: durability off while
// it is filled, a crash leaves only a temp file. The page cache (32 MB)
// holds the full-text table's hash flushes and the index sorts.
func openBuildDB(path string, pragmas ...string) (*sql.DB, error) {
	pragmas = append([]string{"journal_mode(OFF)", "synchronous(OFF)", "cache_size(-32768)", "locking_mode(EXCLUSIVE)", "temp_store(MEMORY)"}, pragmas...)
	db, err := sql.Open("sqlite", dsn(path, pragmas...))
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	return db, nil
}

// note counts a loaded file in the stats and reports its warnings.
func note(st *memory.Stats, l ingest.Loaded, o Options) {
	if st.FilesByKind == nil {
		st.FilesByKind, st.Facts = map[memory.FileKind]int{}, map[memory.Kind]int{}
	}
	st.FilesByKind[l.File.Kind]++
	if l.Status != "" {
		st.Skipped++
		st.Warnings++
		o.warn("%s: skipped: %s", l.File.Rel, l.Status)
		return
	}
	st.Parsed++
	for _, f := range l.Doc.Facts {
		st.Facts[f.Kind]++
	}
	st.Passages += len(l.Doc.Passages)
	for _, w := range l.Doc.Warnings {
		st.Warnings++
		o.warn("%s:%d: %s", l.File.Rel, w.Line, w.Message)
	}
}

func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
