package sqlite

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"memoria/btree"
	"memoria/markdown"
	"memoria/memory"
	"memoria/workspace"
)

// Stats describes one build or sync.
type Stats struct {
	Files     int           // indexable files found in the workspace
	Parsed    int           // files read and parsed
	Unchanged int           // files whose content was already indexed
	Removed   int           // files gone from the workspace, dropped from the index
	Skipped   int           // files not indexable (binary, too large, unreadable)
	Items     int           // facts and passages written
	Warnings  int           // warnings reported through Options.Warn
	Duration  time.Duration // wall time

	// What the index holds after a full build, as Status counts it; a
	// sync leaves these unset (Counted false).
	Counted     bool
	FilesByKind map[memory.FileKind]int
	Facts       map[memory.Kind]int
	Passages    int
	Entities    int
	// PostingsWritten says the build wrote the postings snapshot too.
	PostingsWritten bool
}

// Changed reports whether the index content changed.
func (s Stats) Changed() bool { return s.Parsed > 0 || s.Removed > 0 }

// loaded is one file read, hashed and parsed (or the reason it was not).
type loaded struct {
	file   workspace.File
	hash   string
	lines  int
	doc    *memory.Document
	status string // why the file is not indexed; "" when it is
}

const dateLayout = "2006-01-02"

func hashBytes(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:16])
}

// load reads and parses one file. Problems become a status, never an error:
// a bad file must not stop the index of a good workspace.
func load(ws string, f workspace.File, o Options) loaded {
	l := loaded{file: f}
	if f.Size > o.maxFileSize() {
		l.status = fmt.Sprintf("too large (%d MB > %d MB limit)", f.Size>>20, o.maxFileSize()>>20)
		return l
	}
	fh, err := os.Open(filepath.Join(ws, filepath.FromSlash(f.Rel)))
	if err != nil {
		l.status = "unreadable: " + errText(err)
		return l
	}
	// Read into a buffer of the listed size, one byte more to see the end
	// (io.ReadAll's doubling would copy each file a few times); a file
	// that grew since it was listed is read to its end, within the limit.
	data := make([]byte, f.Size+1)
	n, err := io.ReadFull(fh, data)
	switch {
	case err == io.EOF || err == io.ErrUnexpectedEOF:
		data, err = data[:n], nil
	case err == nil:
		var rest []byte
		rest, err = io.ReadAll(io.LimitReader(fh, o.maxFileSize()+1-int64(n)))
		data = append(data, rest...)
	}
	fh.Close()
	switch {
	case err != nil:
		l.status = "unreadable: " + errText(err)
		return l
	case int64(len(data)) > o.maxFileSize():
		l.status = fmt.Sprintf("too large (over the %d MB limit)", o.maxFileSize()>>20)
		return l
	}
	l.hash = hashBytes(data)
	l.lines = bytes.Count(data, []byte{'\n'})
	if len(data) > 0 && data[len(data)-1] != '\n' {
		l.lines++
	}
	doc, err := markdown.ParseWith(f.Rel, data, markdown.Options{MaxPassageLines: o.passageLines()})
	if err != nil {
		if errors.Is(err, markdown.ErrBinary) {
			l.status = "binary, not Markdown"
		} else {
			l.status = errText(err)
		}
		return l
	}
	l.doc = doc
	return l
}

func errText(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// loadAll loads files in parallel and hands them to fn in input order, so
// that a build is deterministic whatever the scheduling.
func loadAll(ctx context.Context, ws string, files []workspace.File, o Options, fn func(i int, l loaded) error) error {
	n := len(files)
	results := make([]loaded, n)
	done := make([]chan struct{}, n)
	for i := range done {
		done[i] = make(chan struct{})
	}
	next := make(chan int)
	var wg sync.WaitGroup
	ctx, cancel := context.WithCancel(ctx)
	defer func() { cancel(); wg.Wait() }()
	for range max(1, min(runtime.GOMAXPROCS(0), n)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				results[i] = load(ws, files[i], o)
				close(done[i])
			}
		}()
	}
	go func() {
		defer close(next)
		for i := range n {
			select {
			case next <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	for i := range n {
		select {
		case <-done[i]:
		case <-ctx.Done():
			return ctx.Err()
		}
		err := fn(i, results[i])
		results[i] = loaded{} // let the parsed document go
		if err != nil {
			return err
		}
	}
	return nil
}

// TextHash keys an item's text for its embedding: items whose text did
// not change keep their vector when their file is re-parsed.
func TextHash(text string) string {
	s := sha256.Sum256([]byte(text))
	return hex.EncodeToString(s[:8])
}

// ftsInsert fills the full-text index from items. Besides its own text, a
// passage is indexed with the text of its neighbours in the same section
// (column "context", weighted low; 200 bytes of each: docs/index.md has
// the measurements): a turn of a conversation is found by the words of the
// question before it or the answer after it, while the result still cites
// only its own lines. The tokens the tokenizer cannot make (CJK bigrams,
// folds, stems: alt.go) come from items.alt, empty for most text: its own
// part joins the content, its neighbours' part the context.
const ftsInsert = `INSERT INTO items_fts(rowid, content, section, entities, context)
	SELECT id, CASE WHEN alt = '' THEN content ELSE content || ' ' || substr(alt, 1, instr(alt, char(1)) - 1) END,
		section, replace(replace(entities, '-', ' '), '_', ' '),
		CASE WHEN kind = 'passage' THEN coalesce(substr(lag(content) OVER w, -200), '') || ' ' || coalesce(substr(lead(content) OVER w, 1, 200), '') ELSE '' END
		|| CASE WHEN alt = '' THEN '' ELSE ' ' || substr(alt, instr(alt, char(1)) + 1) END
	FROM items`

const ftsWindow = ` WINDOW w AS (PARTITION BY file_id, section ORDER BY start_line) ORDER BY id`

// writer inserts parsed files inside one transaction. Items and their
// entity links are buffered and written many rows per statement: per-row
// statements through database/sql cost more than SQLite's own work.
type writer struct {
	tx                    *sql.Tx
	file, page, name, fts *sql.Stmt
	items, itemEntities   *batch
	withFTS               bool        // insert FTS rows per file (sync) or in bulk at the end (build)
	bulk                  *bulkRows   // a build's: items written as B-trees, the rest gathered (build_bulk.go)
	ftsItems              []ftsItem   // a build's: what the full-text rows of the file added are made from
	lex                   *lexCollect // a build's that keeps its postings: the items' fields, the files
	nextID                int64       // item ids are assigned here, so links need no round trip
	count                 int
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

func newWriter(ctx context.Context, tx *sql.Tx, withFTS bool) (*writer, error) {
	w := &writer{tx: tx, withFTS: withFTS}
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
		{&w.fts, ftsInsert + ` WHERE file_id = ?` + ftsWindow},
	}
	for _, s := range stmts {
		st, err := tx.PrepareContext(ctx, s.sql)
		if err != nil {
			return nil, fmt.Errorf("prepare: %w", err)
		}
		*s.dst = st
	}
	var err error
	if w.items, err = newBatch(ctx, tx, `INSERT INTO items(id, file_id, kind, fact_id, confidence, start_line, end_line, written, event_start, event_end, section, entities, content, text_hash, alt) VALUES`, 15); err != nil {
		return nil, err
	}
	if w.itemEntities, err = newBatch(ctx, tx, `INSERT OR IGNORE INTO item_entities(slug_key, item_id) VALUES`, 2); err != nil {
		return nil, err
	}
	return w, nil
}

// flush writes what is buffered.
func (w *writer) flush(ctx context.Context) error {
	if err := w.items.flush(ctx, w.tx); err != nil {
		return err
	}
	return w.itemEntities.flush(ctx, w.tx)
}

func dayString(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Format(dateLayout)
}

// add writes one loaded file and everything parsed from it.
func (w *writer) add(ctx context.Context, l loaded) error {
	f := l.file
	day := ""
	if l.doc != nil {
		day = dayString(l.doc.Date)
	}
	var fileID int64
	if w.bulk != nil {
		fileID = w.bulk.file(f.Rel, string(f.Kind), day, f.Size, f.ModTime, l.hash, l.lines, l.status)
		if w.lex != nil {
			w.lex.path = f.Rel
			w.lex.files[f.Rel] = lexFile{fileID: fileID, hash: l.hash}
		}
	} else {
		res, err := w.file.ExecContext(ctx, f.Rel, string(f.Kind), day, f.Size, f.ModTime, l.hash, l.lines, l.status)
		if err != nil {
			return fmt.Errorf("file %s: %w", f.Rel, err)
		}
		fileID, _ = res.LastInsertId()
	}
	if l.doc == nil {
		return nil
	}
	for _, fact := range l.doc.Facts {
		var conf any
		if fact.HasConfidence {
			conf = fact.Confidence
		}
		var evStart, evEnd string
		if fact.Event != nil {
			evStart, evEnd = dayString(fact.Event.Start), dayString(fact.Event.End)
		}
		if err := w.addItem(ctx, fileID, fact.Kind, fact.ID, conf, fact.Source, fact.Written, evStart, evEnd, "", fact.Entities, fact.Text, joinAlt(altText(fact.Text), "")); err != nil {
			return fmt.Errorf("file %s: %w", f.Rel, err)
		}
	}
	alts := passageAlts(l.doc.Passages)
	for i, p := range l.doc.Passages {
		if err := w.addItem(ctx, fileID, memory.KindPassage, nil, nil, p.Source, p.Written, "", "", p.Section, p.Entities, p.Text, alts[i]); err != nil {
			return fmt.Errorf("file %s: %w", f.Rel, err)
		}
	}
	if w.withFTS {
		if err := w.flush(ctx); err != nil {
			return fmt.Errorf("file %s: %w", f.Rel, err)
		}
		if _, err := w.fts.ExecContext(ctx, fileID); err != nil {
			return fmt.Errorf("file %s: full-text: %w", f.Rel, err)
		}
	}
	if e := l.doc.Entity; e != nil {
		if w.bulk != nil {
			w.bulk.pages = append(w.bulk.pages, pageRow{fileID, e.Slug, e.Name, strings.Join(e.Aliases, "\n")})
		} else if _, err := w.page.ExecContext(ctx, fileID, e.Slug, e.Name, strings.Join(e.Aliases, "\n")); err != nil {
			return fmt.Errorf("file %s: %w", f.Rel, err)
		}
		keys := map[string]bool{}
		for _, n := range append([]string{e.Slug, e.Name}, e.Aliases...) {
			k := memory.EntityKey(n)
			if k == "" || keys[k] {
				continue
			}
			keys[k] = true
			if w.bulk != nil {
				w.bulk.names = append(w.bulk.names, nameRow{k, e.Slug, fileID})
			} else if _, err := w.name.ExecContext(ctx, k, e.Slug, fileID); err != nil {
				return fmt.Errorf("file %s: %w", f.Rel, err)
			}
		}
	}
	return nil
}

func (w *writer) addItem(ctx context.Context, fileID int64, kind memory.Kind, factID, conf any, src memory.Source, written time.Time, evStart, evEnd, section string, entities []string, content, alt string) error {
	id := w.nextID
	w.nextID++
	w.count++
	ents := strings.Join(entities, " ")
	if w.bulk != nil {
		err := w.bulk.items.add(itemRow{id: id, fileID: fileID, kind: string(kind), factID: factID, confidence: conf,
			start: int64(src.Start), end: int64(src.End), written: dayString(written), evStart: evStart, evEnd: evEnd,
			section: section, entities: ents, content: content, textHash: TextHash(content), alt: alt})
		if err != nil {
			return err
		}
		w.ftsItems = append(w.ftsItems, ftsItem{id: id, passage: kind == memory.KindPassage, startLine: src.Start,
			section: section, entities: ents, content: content, alt: alt})
		for _, e := range entities {
			w.bulk.links = append(w.bulk.links, linkRow{strings.ToLower(e), id})
		}
		if w.lex != nil {
			w.lex.item(id, memoryFields{kind: string(kind), written: dayString(written), evStart: evStart, evEnd: evEnd,
				fileID: fileID, startLine: src.Start, entities: ents}, factID, conf, src.End, section, content, alt)
		}
		return nil
	}
	if err := w.items.add(ctx, w.tx, id, fileID, string(kind), factID, conf, src.Start, src.End, dayString(written), evStart, evEnd, section, ents, content, TextHash(content), alt); err != nil {
		return err
	}
	for _, e := range entities {
		if err := w.itemEntities.add(ctx, w.tx, strings.ToLower(e), id); err != nil {
			return err
		}
	}
	return nil
}

// build creates a complete index at path from the workspace in ws, and
// the in-memory ranking state of it (unless o.NoPostings).
func build(ctx context.Context, path, ws string, o Options) (Stats, *builtLexical, error) {
	files, skipped, err := workspace.List(ws)
	if err != nil {
		return Stats{}, nil, err
	}
	return buildListed(ctx, path, ws, files, skipped, o)
}

// buildListed is build of the files listed in ws (workspace.List).
func buildListed(ctx context.Context, path, ws string, files []workspace.File, skipped []workspace.Skipped, o Options) (Stats, *builtLexical, error) {
	st, lc, err := buildIndex(ctx, path, ws, files, skipped, o)
	if err != nil || lc == nil {
		return st, nil, err
	}
	b, err := lc.finish()
	if err != nil {
		return st, nil, fmt.Errorf("index %s: postings: %w", path, err)
	}
	return st, b, nil
}

func buildIndex(ctx context.Context, path, ws string, files []workspace.File, skipped []workspace.Skipped, o Options) (st Stats, _ *lexCollect, err error) {
	start := time.Now()
	removeDB(path)
	for _, s := range skipped {
		st.Warnings++
		o.warn("%s: skipped: %s", s.Rel, s.Reason)
	}
	st.Files = len(files)
	// SQLite makes the file and its empty tables; their trees are then
	// written into it from Go (build_trees.go), and SQLite adds the
	// last rows and the summaries.
	roots, ftsStart, err := createSchema(ctx, path)
	if err != nil {
		return st, nil, fmt.Errorf("index %s: schema: %w", path, err)
	}
	x, err := btree.Open(path)
	if err != nil {
		return st, nil, fmt.Errorf("index %s: %w", path, err)
	}
	defer func() {
		if x != nil {
			x.Close()
		}
	}()
	w := &writer{nextID: 1, bulk: &bulkRows{nextFile: 1}}
	if w.bulk.items, err = newItemTrees(x, roots); err != nil {
		return st, nil, fmt.Errorf("index %s: %w", path, err)
	}
	// The full-text table's content is made in Go (build_fts.go), and
	// its postings are kept for the in-memory ranking unless asked not to.
	built := time.Now().UTC().Format(time.RFC3339)
	var lc *lexCollect
	if !o.NoPostings {
		lc = newLexCollect()
		w.lex = lc
	}
	fts := startFTS(lc != nil)
	defer fts.abort()
	if lc != nil {
		lc.fts, lc.key = fts, identity(o)+"\x00"+built
		defer func() {
			if err != nil {
				lc.abandon() // a snapshot written for a build that failed
			}
		}()
	}
	err = loadAll(ctx, ws, files, o, func(i int, l loaded) error {
		st.note(l, o)
		if o.Progress != nil {
			o.Progress(i+1, len(files))
		}
		if err := w.add(ctx, l); err != nil {
			return err
		}
		if len(w.ftsItems) > 0 {
			fts.add(w.ftsItems)
			w.ftsItems = w.ftsItems[:0]
		}
		return nil
	})
	if err != nil {
		return st, nil, err
	}
	// The full-text trees are written on their own goroutine while the
	// items' indexes are written here, and the postings snapshot on
	// another once the postings are encoded.
	fts.end(x, roots, ftsStart)
	if lc != nil && o.snapshotPath != "" {
		lc.startSnapshot(o.snapshotPath)
	}
	st.Items = w.count
	if err := w.bulk.items.finish(); err != nil {
		return st, nil, fmt.Errorf("index %s: %w", path, err)
	}
	if err := w.bulk.writeTrees(x, roots); err != nil {
		return st, nil, fmt.Errorf("index %s: %w", path, err)
	}
	if err := fts.wait(); err != nil {
		return st, nil, fmt.Errorf("index %s: full-text: %w", path, err)
	}
	err = x.Close()
	x = nil
	if err != nil {
		return st, nil, fmt.Errorf("index %s: %w", path, err)
	}

	db, err := openBuildDB(path)
	if err != nil {
		return st, nil, fmt.Errorf("index %s: %w", path, err)
	}
	defer db.Close()
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return st, nil, fmt.Errorf("index %s: %w", path, err)
	}
	defer tx.Rollback()
	if err := fts.writeStructure(ctx, tx); err != nil {
		return st, nil, fmt.Errorf("index %s: full-text: %w", path, err)
	}
	if err := refreshSummaries(ctx, tx); err != nil {
		return st, nil, fmt.Errorf("index %s: %w", path, err)
	}
	meta := fmt.Sprintf(`INSERT INTO meta(key, value) VALUES('identity', %s), ('built', %s); PRAGMA application_id=%d;`,
		quote(identity(o)), quote(built), applicationID)
	if _, err := tx.ExecContext(ctx, meta); err != nil {
		return st, nil, fmt.Errorf("index %s: %w", path, err)
	}
	if err := tx.QueryRowContext(ctx, entityCount).Scan(&st.Entities); err != nil {
		return st, nil, fmt.Errorf("index %s: %w", path, err)
	}
	st.Counted = true
	if lc != nil {
		if lc.state.pages, err = entityPages(ctx, tx); err != nil {
			return st, nil, fmt.Errorf("index %s: %w", path, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return st, nil, fmt.Errorf("index %s: %w", path, err)
	}
	if _, err := db.ExecContext(ctx, "PRAGMA journal_mode=WAL"); err != nil {
		return st, nil, fmt.Errorf("index %s: %w", path, err)
	}
	if err := db.Close(); err != nil {
		return st, nil, fmt.Errorf("index %s: %w", path, err)
	}
	st.Duration = time.Since(start)
	return st, lc, nil
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
// it is filled, a crash leaves only a temp file. The page cache is small
// (2 MB): the build writes its big trees itself (build_trees.go).
func openBuildDB(path string, pragmas ...string) (*sql.DB, error) {
	pragmas = append([]string{"journal_mode(OFF)", "synchronous(OFF)", "cache_size(-2048)", "locking_mode(EXCLUSIVE)", "temp_store(MEMORY)"}, pragmas...)
	db, err := sql.Open("sqlite", dsn(path, pragmas...))
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	return db, nil
}

// createSchema creates the file at path with every table and index,
// empty but for the full-text table's configuration, and returns their
// root pages and the rows of items_fts_data that configuration wrote.
func createSchema(ctx context.Context, path string) (map[string]uint32, []fts5Row, error) {
	// The file is private until renamed into place, so durability settings
	// can be off while it is filled; a crash leaves only a temp file.
	db, err := openBuildDB(path, "page_size(16384)")
	if err != nil {
		return nil, nil, err
	}
	defer db.Close()
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return nil, nil, err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, schema+ftsConfig+indexes); err != nil {
		return nil, nil, err
	}
	roots, err := readRoots(ctx, tx)
	if err != nil {
		return nil, nil, err
	}
	rows, err := tx.QueryContext(ctx, `SELECT id, block FROM items_fts_data ORDER BY id`)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	var data []fts5Row
	for rows.Next() {
		var r fts5Row
		if err := rows.Scan(&r.id, &r.block); err != nil {
			return nil, nil, err
		}
		data = append(data, r)
	}
	if err := rows.Err(); err != nil {
		return nil, nil, err
	}
	if err := tx.Commit(); err != nil {
		return nil, nil, err
	}
	return roots, data, db.Close()
}

// note counts a loaded file in the stats and reports its warnings.
func (st *Stats) note(l loaded, o Options) {
	if st.FilesByKind == nil {
		st.FilesByKind, st.Facts = map[memory.FileKind]int{}, map[memory.Kind]int{}
	}
	st.FilesByKind[l.file.Kind]++
	if l.status != "" {
		st.Skipped++
		st.Warnings++
		o.warn("%s: skipped: %s", l.file.Rel, l.status)
		return
	}
	st.Parsed++
	for _, f := range l.doc.Facts {
		st.Facts[f.Kind]++
	}
	st.Passages += len(l.doc.Passages)
	for _, w := range l.doc.Warnings {
		st.Warnings++
		o.warn("%s:%d: %s", l.file.Rel, w.Line, w.Message)
	}
}

func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
