package sqlite

import (
	"bytes"
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"memoria/bm25"
	"memoria/memory"
)

// A long-lived Index (one that has synced twice: the MCP server, a
// program using the library) ranks full-text queries in memory with
// package bm25, which computes the very scores FTS5's bm25() does without
// its per-row docsize lookups. The postings come from the postings
// snapshot when there is a current one (lexsnap.go), which one-shot
// processes use too; otherwise they are loaded in the background from the
// same rows the full-text table is filled from (ftsInsert, or ftsRows in
// Go), and FTS5 ranks until they are ready. After a write (this process's
// Sync, or another process's: PRAGMA data_version), the files whose hash
// changed in the manifest are reloaded.

var errStalePostings = errors.New("in-memory postings are stale")

// ftsSelect is the SELECT that fills the full-text table: what the
// in-memory postings are made from, so they hold the same text.
var ftsSelect = ftsInsert[strings.Index(ftsInsert, "SELECT"):]

// fieldTable holds memoryFields by item id in a slice (ids are small and
// dense): a filtered search looks up every candidate.
// Over a postings snapshot, the snapshot's items are read from it (base;
// gone lists those deleted since) and the few reloaded since are kept in
// a map (over): a slice by id would grow to the highest id for them.
type fieldTable struct {
	byID []memoryFields
	base *lexSnapshot
	over map[int64]memoryFields
	gone map[int64]bool
}

// own returns the fields this table holds itself (not the snapshot's).
func (t *fieldTable) own(id int64) (memoryFields, bool) {
	if t.base != nil {
		f, ok := t.over[id]
		return f, ok
	}
	if id >= 0 && id < int64(len(t.byID)) && t.byID[id].present {
		return t.byID[id], true
	}
	return memoryFields{}, false
}

func (t *fieldTable) get(id int64) (memoryFields, bool) { return t.lookup(id, false) }

// full is get with the item's text (memoryFields.text).
func (t *fieldTable) full(id int64) (memoryFields, bool) { return t.lookup(id, true) }

// lookup finds an item's fields, held here or in the snapshot; text says
// whether a snapshot item's text is decoded too (the fields held here
// always have it).
func (t *fieldTable) lookup(id int64, text bool) (memoryFields, bool) {
	if f, ok := t.own(id); ok {
		return f, true
	}
	switch {
	case t.base == nil || t.gone[id]:
		return memoryFields{}, false
	case text:
		return t.base.full(id)
	}
	return t.base.fields(id)
}

func (t *fieldTable) set(id int64, f memoryFields) {
	f.present = true
	if t.base != nil {
		if t.over == nil {
			t.over = map[int64]memoryFields{}
		}
		t.over[id] = f
		return
	}
	if id < 0 {
		return
	}
	for id >= int64(len(t.byID)) {
		t.byID = append(t.byID, memoryFields{})
	}
	t.byID[id] = f
}

func (t *fieldTable) del(id int64) {
	if id >= 0 && id < int64(len(t.byID)) {
		t.byID[id] = memoryFields{}
	}
	if t.base != nil {
		delete(t.over, id)
		if _, ok := t.base.find(id); ok {
			if t.gone == nil {
				t.gone = map[int64]bool{}
			}
			t.gone[id] = true
		}
	}
}

// memoryFields are the item fields a Filter looks at, kept beside the
// postings so a filtered search needs no query per candidate.
type memoryFields struct {
	present                 bool
	kind                    string
	written, evStart, evEnd string
	fileID                  int64
	startLine               int
	entities                string // slugs as in items.entities
	text                    *itemText
}

// itemText is the rest of an item, kept so that the items a query returns
// are read from memory too (from a snapshot, only when asked for).
type itemText struct {
	factID           string
	confidence       float64
	hasConfidence    bool
	endLine          int
	section, content string
	alt              string // items.alt
}

type lexical struct {
	mu sync.Mutex
	lexState

	// The background load: Close cancels it and waits, so no goroutine
	// opens the index file after it was closed.
	loads  sync.WaitGroup
	stop   context.Context
	cancel context.CancelFunc

	snapTried bool // a one-shot process looked for a postings snapshot
}

type lexState struct {
	state    int // lexNone, lexBuilding, lexReady
	eng      *bm25.Index
	fields   *fieldTable
	files    fileList // what the postings hold of each file
	version  int64    // PRAGMA data_version when last compared
	ownGen   uint64   // bumped by this process's writes
	seenGen  uint64
	checked  bool // the manifest was compared since the postings were loaded
	buildErr error

	// For EntityItems in memory: items by entity key, entity pages by
	// entity key, paths by file row.
	byEntity map[string][]int64
	pages    map[string][]int64
	pathOf   map[int64]string // made on first use (pathOfFile)

	// The postings snapshot the state stands on (lexsnap.go), nil when it
	// was loaded from the index; dirty counts the items reloaded over it.
	snap  *lexSnapshot
	dirty int
	saved bool   // loaded from the index and written as the snapshot: like snap, the snapshot holds it but for the dirty items
	seg   []byte // the segment eng was opened over, when loaded from the index (not mapped)
}

// release unmaps the snapshot under the state; the state is not used
// again.
func (l *lexState) release() {
	if l.snap != nil && l.snap.unmap != nil {
		l.snap.unmap()
		l.snap.unmap = nil
	}
}

// fileIDs returns the items of file p.
func (l *lexState) fileIDs(p string) []int64 {
	f, _ := l.files.get(p)
	if f.inSnapshot {
		f.ids, f.inSnapshot, f.snapItems = l.snap.itemsOf(f.snapItems), false, nil
		l.files.set(p, f)
	}
	return f.ids
}

// pathOfFile returns the path of the file with row id fileID. The map is
// made on first use: a one-shot process that returns no item needs none.
func (l *lexState) pathOfFile(fileID int64) (string, bool) {
	if l.pathOf == nil {
		l.pathOf = make(map[int64]string, l.files.len())
		for i, p := range l.files.paths {
			l.pathOf[l.files.vals[i].fileID] = p
		}
	}
	p, ok := l.pathOf[fileID]
	return p, ok
}

// add records one row's fields and entity links.
func (l *lexState) add(r lexRow) {
	l.fields.set(r.id, r.fields)
	if l.pathOf != nil {
		l.pathOf[r.fields.fileID] = r.path
	}
	for _, e := range strings.Fields(r.fields.entities) {
		k := strings.ToLower(e)
		l.byEntity[k] = append(l.byEntity[k], r.id)
	}
}

// drop forgets one item's fields and entity links.
func (l *lexState) drop(id int64) {
	f, ok := l.fields.get(id)
	if !ok {
		return
	}
	for _, e := range strings.Fields(f.entities) {
		k := strings.ToLower(e)
		l.byEntity[k] = slices.DeleteFunc(l.byEntity[k], func(x int64) bool { return x == id })
	}
	l.fields.del(id)
}

const (
	lexNone = iota
	lexBuilding
	lexReady
)

// lexFile is what the postings hold of one file: its row in files and
// content hash when loaded (a file removed and written again gets a new
// row), and its items.
type lexFile struct {
	fileID     int64
	hash       string
	ids        []int64
	inSnapshot bool   // ids not listed yet: snapItems lists them in the snapshot
	snapItems  []byte // the file's records in the snapshot, as uvarint deltas
}

// lexWeights are bm25()'s column weights, in the full-text table's order.
var lexWeights = []float64{weightContent, weightSection, weightEntities, weightContext}

func newLexicalBuilder() *bm25.Builder {
	return bm25.NewBuilder(lexWeights...)
}

// lexRow is one row as the full-text table receives it, with the fields
// filters need and its file.
type lexRow struct {
	id     int64
	cols   [4]string
	fields memoryFields
	path   string
}

const lexRowsQuery = `SELECT q.*, i.kind, i.written, i.event_start, i.event_end, i.file_id, i.start_line, i.entities, f.path,
	coalesce(i.fact_id, ''), i.confidence, i.end_line, i.section, i.content, i.alt FROM (%s%s%s) q
	JOIN items i ON i.id = q.id JOIN files f ON f.id = i.file_id ORDER BY q.id`

func scanLexRows(rows *sql.Rows, fn func(r lexRow)) error {
	defer rows.Close()
	for rows.Next() {
		var r lexRow
		t := &itemText{}
		var conf sql.NullFloat64
		if err := rows.Scan(&r.id, &r.cols[0], &r.cols[1], &r.cols[2], &r.cols[3],
			&r.fields.kind, &r.fields.written, &r.fields.evStart, &r.fields.evEnd,
			&r.fields.fileID, &r.fields.startLine, &r.fields.entities, &r.path,
			&t.factID, &conf, &t.endLine, &t.section, &t.content, &t.alt); err != nil {
			return err
		}
		t.confidence, t.hasConfidence = conf.Float64, conf.Valid
		r.fields.text = t
		fn(r)
	}
	return rows.Err()
}

// lexRowsInGo is false in a test that compares with the rows SQL makes.
var lexRowsInGo = true

// scanLexItems reads every item in id order and hands fn its full-text
// row made in Go (ftsRows). ok is false, and fn may have seen some rows,
// when a file's items are not consecutive in id order.
func scanLexItems(ctx context.Context, tx *sql.Tx, fn func(r lexRow)) (ok bool, err error) {
	paths := map[int64]string{}
	rows, err := tx.QueryContext(ctx, `SELECT id, path FROM files`)
	if err != nil {
		return false, err
	}
	for rows.Next() {
		var id int64
		var p string
		if err := rows.Scan(&id, &p); err != nil {
			rows.Close()
			return false, err
		}
		paths[id] = p
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return false, err
	}
	rows, err = tx.QueryContext(ctx, `SELECT id, kind, written, event_start, event_end, file_id, start_line, entities,
		coalesce(fact_id, ''), confidence, end_line, section, content, alt FROM items ORDER BY id`)
	if err != nil {
		return false, err
	}
	defer rows.Close()
	var group []ftsItem
	var fields []memoryFields
	var out []ftsRow
	done := map[int64]bool{}
	flush := func() {
		if len(group) == 0 {
			return
		}
		out = ftsRows(group, out[:0])
		for i, r := range out {
			fn(lexRow{id: r.id, cols: [4]string{r.content, r.section, r.entities, r.context}, fields: fields[i], path: paths[fields[i].fileID]})
		}
		done[fields[0].fileID] = true
		group, fields = group[:0], fields[:0]
	}
	for rows.Next() {
		var f memoryFields
		t := &itemText{}
		var id int64
		var conf sql.NullFloat64
		var alt string
		if err := rows.Scan(&id, &f.kind, &f.written, &f.evStart, &f.evEnd, &f.fileID, &f.startLine, &f.entities,
			&t.factID, &conf, &t.endLine, &t.section, &t.content, &alt); err != nil {
			return false, err
		}
		t.confidence, t.hasConfidence, t.alt = conf.Float64, conf.Valid, alt
		f.text = t
		if len(fields) > 0 && fields[0].fileID != f.fileID {
			flush()
		}
		if done[f.fileID] {
			return false, nil
		}
		group = append(group, ftsItem{id: id, passage: f.kind == string(memory.KindPassage), startLine: f.startLine,
			section: t.section, entities: f.entities, content: t.content, alt: alt})
		fields = append(fields, f)
	}
	if err := rows.Err(); err != nil {
		return false, err
	}
	flush()
	return true, nil
}

// startLexical starts loading the postings in the background, once.
func (ix *Index) startLexical() {
	ix.lex.mu.Lock()
	defer ix.lex.mu.Unlock()
	ix.startLexicalLocked()
}

// startLexicalLocked is startLexical with ix.lex.mu held.
func (ix *Index) startLexicalLocked() {
	if ix.lex.state != lexNone || ix.lex.buildErr != nil {
		return
	}
	ix.lex.state = lexBuilding
	if ix.lex.stop == nil {
		ix.lex.stop, ix.lex.cancel = context.WithCancel(context.Background())
	}
	ctx := ix.lex.stop
	ix.lex.loads.Add(1)
	go func() {
		defer ix.lex.loads.Done()
		ix.finishLexical(ix.loadAndSave(ctx))
	}()
}

// loadAndSave loads the postings from the index and writes them as the
// postings snapshot, for the next process to start from.
func (ix *Index) loadAndSave(ctx context.Context) (lexState, error) {
	l, built, err := loadLexical(ctx, ix.path)
	if err == nil {
		if err := ix.writeLexSnapshot(identity(ix.opts)+"\x00"+built, &l); err != nil {
			ix.opts.warn("%s: not written: %v", ix.lexSnapFile(), err)
		}
	}
	return l, err
}

// stopLexical cancels a background load and waits for it.
func (ix *Index) stopLexical() {
	ix.lex.mu.Lock()
	if ix.lex.cancel != nil {
		ix.lex.cancel()
	}
	ix.lex.mu.Unlock()
	ix.lex.loads.Wait()
}

// entityPages maps each entity key to the rows in files of its pages.
func entityPages(ctx context.Context, q interface {
	QueryContext(context.Context, string, ...any) (*sql.Rows, error)
}) (map[string][]int64, error) {
	rows, err := q.QueryContext(ctx, `SELECT lower(slug), file_id FROM entity_pages`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	pages := map[string][]int64{}
	for rows.Next() {
		var k string
		var id int64
		if err := rows.Scan(&k, &id); err != nil {
			return nil, err
		}
		pages[k] = append(pages[k], id)
	}
	return pages, rows.Err()
}

// Warm prepares a long-lived Index now instead of on its second sync:
// it loads the in-memory postings and the vector index, and arms the
// change monitor. The MCP
// server calls it at start; a benchmark calls it before measuring.
func (ix *Index) Warm(ctx context.Context) error {
	ix.fresh.markLongLived(ix.ws)
	ix.lex.mu.Lock()
	if ix.lex.state == lexNone && ix.installSnapshotLocked(ctx) {
		// Brought up to date now; a snapshot too far behind is dropped
		// and loaded afresh below.
		if _, err := ix.currentLexical(ctx); err != nil {
			ix.lex.mu.Unlock()
			return err
		}
		if ix.lex.state == lexReady && ix.lex.dirty > maxSnapshotDirty {
			ix.lex.release()
			ix.lex.lexState = lexState{ownGen: ix.lex.ownGen}
		}
	}
	if ix.lex.state != lexReady {
		ix.lex.state = lexBuilding
		ix.lex.loads.Add(1) // Close waits for it
		ix.lex.mu.Unlock()
		ix.finishLexical(ix.loadAndSave(ctx))
		ix.lex.loads.Done()
		ix.lex.mu.Lock()
	}
	err := ix.lex.buildErr
	ix.lex.mu.Unlock()
	if err != nil {
		return ix.wrapErr(err)
	}
	// The vectors too, when there are any: the first semantic query then
	// pays nothing for them.
	if _, err := ix.vectorStore(ctx); err != nil {
		return ix.wrapErr(fmt.Errorf("vectors: %w", err))
	}
	return nil
}

// finishLexical installs postings loaded by startLexical.
func (ix *Index) finishLexical(loaded lexState, err error) {
	ix.lex.mu.Lock()
	defer ix.lex.mu.Unlock()
	if ix.lex.state != lexBuilding {
		return // reset meanwhile (a rebuild)
	}
	if err != nil {
		ix.lex.state, ix.lex.buildErr = lexNone, err
		if !errors.Is(err, context.Canceled) {
			ix.opts.warn("in-memory ranking unavailable, FTS5 ranks instead: %v", err)
		}
		return
	}
	loaded.ownGen, loaded.seenGen = ix.lex.ownGen, ix.lex.seenGen
	ix.lex.release()
	ix.lex.lexState = loaded
	ix.lex.state, ix.lex.checked = lexReady, false
}

// loadLexical reads every row of the index through a connection of its
// own, in one read transaction, so searches go on meanwhile.
// built is the index's build time, read in the same transaction: with the
// identity, it keys a snapshot of the state.
func loadLexical(ctx context.Context, path string) (l lexState, built string, err error) {
	// Not dsn(): its transactions take the write lock at BEGIN.
	db, err := sql.Open("sqlite", "file:"+(&url.URL{Path: path}).EscapedPath()+"?_pragma=busy_timeout(10000)&_pragma=query_only(1)")
	if err != nil {
		return l, "", err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	tx, err := db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return l, "", err
	}
	defer tx.Rollback()
	var manifest string
	if err := tx.QueryRowContext(ctx, `SELECT coalesce((SELECT value FROM meta WHERE key = 'manifest'), ''), coalesce((SELECT value FROM meta WHERE key = 'built'), '')`).Scan(&manifest, &built); err != nil {
		return l, "", err
	}
	m, err := decodeManifest(manifest)
	if err != nil {
		return l, "", err
	}
	if l.pages, err = entityPages(ctx, tx); err != nil {
		return l, "", err
	}
	var total int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM items`).Scan(&total); err != nil {
		return l, "", err
	}
	// Tokenizing is most of the cost: the rows are read here and
	// tokenized on the other CPUs, each part of a bm25.Builder taking a
	// run of consecutive rows. The rows are made in Go from the items
	// (ftsRows, as the build makes them), which spares the window
	// function's sort; when a file's items are not consecutive ids (the
	// build and sync write them so), SQL makes them after all.
	var builder *bm25.Builder
	var files map[string]lexFile
	for _, inGo := range []bool{lexRowsInGo, false} {
		l.fields, files = &fieldTable{}, map[string]lexFile{}
		l.byEntity, l.pathOf = map[string][]int64{}, nil
		builder = newLexicalBuilder()
		workers := max(1, runtime.GOMAXPROCS(0))
		work := make([]chan lexRow, workers)
		var wg sync.WaitGroup
		for k := range work {
			work[k] = make(chan lexRow, 256)
			part := builder.Part()
			wg.Go(func() {
				for r := range work[k] {
					part.Add(r.id, r.cols[:]...)
				}
			})
		}
		n := 0
		take := func(r lexRow) {
			work[min(workers-1, n*workers/max(1, total))] <- r
			n++
			l.add(r)
			f := files[r.path]
			f.ids = append(f.ids, r.id)
			files[r.path] = f
		}
		ok := true
		if inGo {
			ok, err = scanLexItems(ctx, tx, take)
		} else {
			var rows *sql.Rows
			if rows, err = tx.QueryContext(ctx, fmt.Sprintf(lexRowsQuery, ftsSelect, "", ftsWindow)); err == nil {
				err = scanLexRows(rows, take)
			}
		}
		for _, c := range work {
			close(c)
		}
		wg.Wait()
		if err != nil {
			return l, "", err
		}
		if ok {
			break
		}
	}
	var seg bytes.Buffer
	if err := builder.Segment(&seg); err != nil {
		return l, "", err
	}
	if l.eng, err = bm25.OpenSegment(seg.Bytes(), lexWeights...); err != nil {
		return l, "", err
	}
	l.seg = seg.Bytes()
	for i, p := range m.paths {
		f := files[p]
		f.fileID, f.hash = m.vals[i].id, m.vals[i].hash
		files[p] = f
	}
	l.files = byPathOf(files)
	return l, built, nil
}

// resetLexical drops the postings (the index file was rebuilt).
func (ix *Index) resetLexical() {
	ix.forgetManifest()
	ix.lex.mu.Lock()
	ix.lex.release()
	ix.lex.lexState = lexState{ownGen: ix.lex.ownGen}
	ix.lex.mu.Unlock()
}

// rankInMemory reports whether queries are ranked in memory: in a
// long-lived process, and in a one-shot one when a postings snapshot of
// this build of the index is there (looked for once).
func (ix *Index) rankInMemory(ctx context.Context) bool {
	if ix.fresh.longLived() {
		return true
	}
	ix.lex.mu.Lock()
	defer ix.lex.mu.Unlock()
	if !ix.lex.snapTried && ix.lex.state == lexNone {
		ix.lex.snapTried = true
		ix.installSnapshotLocked(ctx)
	}
	return ix.lex.state == lexReady
}

// installSnapshotLocked makes the postings snapshot the in-memory state,
// when there is a usable one. ix.lex.mu is held.
func (ix *Index) installSnapshotLocked(ctx context.Context) bool {
	st, ok, err := ix.openLexSnapshot(ctx)
	if err != nil || !ok {
		return false
	}
	st.ownGen, st.seenGen = ix.lex.ownGen, ix.lex.seenGen
	ix.lex.release()
	ix.lex.lexState = st
	return true
}

// wroteItems tells the postings that this process changed the items.
func (ix *Index) wroteItems() {
	ix.forgetManifest()
	ix.lex.mu.Lock()
	ix.lex.ownGen++
	ix.lex.mu.Unlock()
}

// searchInMemory ranks with the postings when they are loaded; done is
// false when FTS5 must rank instead (not loaded yet, or found stale).
func (ix *Index) searchInMemory(ctx context.Context, words []string, f Filter, limit int) (hits []Hit, done bool, err error) {
	done, err = ix.inMemory(ctx, func(l *lexical) error {
		hits, err = ix.searchMemory(ctx, l, words, f, limit)
		return err
	})
	return hits, done, err
}

// inMemory runs fn on the in-memory state brought up to date, under its
// lock. done is false when SQL must answer instead: the state is not
// loaded yet (its load is started), or fn found it stale (it is loaded
// afresh).
func (ix *Index) inMemory(ctx context.Context, fn func(l *lexical) error) (done bool, err error) {
	ix.lex.mu.Lock()
	l, err := ix.currentLexical(ctx)
	if err != nil || l == nil {
		ix.lex.mu.Unlock()
		if err == nil && ix.fresh.longLived() {
			ix.startLexical()
		}
		return err != nil, err
	}
	err = fn(l)
	ix.lex.mu.Unlock()
	if errors.Is(err, errStalePostings) {
		// The state names an item the index no longer has: it missed a
		// change.
		ix.resetLexical()
		if ix.fresh.longLived() {
			ix.startLexical()
		}
		return false, nil
	}
	return true, err
}

// currentLexical returns the postings brought up to date with the index,
// or nil when FTS5 must rank (not loaded, or loading). ix.lex.mu is held.
func (ix *Index) currentLexical(ctx context.Context) (*lexical, error) {
	l := &ix.lex
	if l.state != lexReady {
		return nil, nil
	}
	var version int64
	if err := ix.queryRow(ctx, `PRAGMA data_version`).Scan(&version); err != nil {
		return nil, ix.wrapErr(err)
	}
	if l.checked && version == l.version && l.ownGen == l.seenGen {
		return l, nil
	}
	// A one-shot process reloads only a few files over a snapshot: FTS5
	// ranks faster than a large reload.
	limit := -1
	if !ix.fresh.longLived() {
		limit = maxSnapshotDirty
	}
	err := ix.refreshLexical(ctx, l, limit)
	if errors.Is(err, errTooDirty) {
		l.release()
		l.lexState = lexState{ownGen: l.ownGen}
		return nil, nil
	}
	if err != nil {
		return nil, ix.wrapErr(err)
	}
	l.version, l.seenGen, l.checked = version, l.ownGen, true
	if l.eng.Dead() > l.eng.Len() {
		// More deleted postings than live ones: load afresh.
		l.release()
		l.lexState = lexState{ownGen: l.ownGen}
		if ix.fresh.longLived() {
			ix.startLexicalLocked()
		}
		return nil, nil
	}
	return l, nil
}

var errTooDirty = errors.New("too many changes over the postings snapshot")

// refreshLexical reloads the files whose hash in the manifest differs from
// what the postings hold, and drops files gone from it. Over a snapshot,
// when limit ≥ 0 and the items to drop or reload would bring l.dirty past
// it, it changes nothing and returns errTooDirty.
func (ix *Index) refreshLexical(ctx context.Context, l *lexical, limit int) error {
	m, err := ix.storedFiles(ctx)
	if err != nil {
		return err
	}
	var gone, stale []string
	joinPaths(l.files.paths, m.paths, func(i, j int) {
		switch {
		case j < 0:
			gone = append(gone, l.files.paths[i])
		case i < 0:
			stale = append(stale, m.paths[j])
		default:
			if f, s := l.files.vals[i], m.vals[j]; f.hash != s.hash || f.fileID != s.id {
				stale = append(stale, m.paths[j])
			}
		}
	})
	changed := len(gone)+len(stale) > 0
	if limit >= 0 && l.snap != nil && changed {
		// What a reload costs is the items dropped and read again; a file
		// new to the snapshot counts as an average one.
		n := l.dirty + (len(gone)+len(stale))*(1+l.eng.Len()/max(1, l.files.len()))
		if len(gone)+len(stale) > limit/16 || n > limit {
			return errTooDirty
		}
	}
	drop := func(p string) {
		// The postings are told the text of what they lose, made again
		// as the index made it (ftsRows): over a snapshot, its document
		// counts then stay exact without counting postings.
		ids := l.fileIDs(p)
		group := make([]ftsItem, 0, len(ids))
		for _, id := range ids {
			f, ok := l.fields.full(id)
			if !ok || f.text == nil {
				group = nil
				break
			}
			group = append(group, ftsItem{id: id, passage: f.kind == string(memory.KindPassage), startLine: f.startLine,
				section: f.text.section, entities: f.entities, content: f.text.content, alt: f.text.alt})
		}
		if group != nil {
			for _, r := range ftsRows(group, nil) {
				l.eng.DeleteText(r.id, r.content, r.section, r.entities, r.context)
			}
		}
		for _, id := range ids {
			l.eng.Delete(id) // when the text could not be made; else already gone
			l.drop(id)
			l.dirty++
		}
		l.files.remove(p)
	}
	for _, p := range gone {
		drop(p)
	}
	for _, p := range stale {
		s, _ := m.get(p)
		drop(p)
		rows, err := ix.query(ctx, fmt.Sprintf(lexRowsQuery, ftsSelect, " WHERE file_id = ?", ftsWindow), s.id)
		if err != nil {
			return err
		}
		f := lexFile{fileID: s.id, hash: s.hash}
		err = scanLexRows(rows, func(r lexRow) {
			l.eng.Add(r.id, r.cols[:]...)
			l.add(r)
			f.ids = append(f.ids, r.id)
			l.dirty++
		})
		if err != nil {
			return err
		}
		l.files.set(p, f)
	}
	if changed {
		pages, err := entityPages(ctx, ix.db)
		if err != nil {
			return err
		}
		l.pages = pages
	}
	return nil
}

// accepts is Filter.where evaluated in Go on the fields kept in memory;
// entity ids come from one query.
func (f Filter) accepts(fields *fieldTable, entityItems map[int64]bool) func(id int64) bool {
	if f.Since.IsZero() && f.Until.IsZero() && len(f.Kinds) == 0 && len(f.Entities) == 0 {
		return nil
	}
	lo, hi := "0000-00-00", "9999-99-99"
	if !f.Since.IsZero() {
		lo = f.Since.Format(dateLayout)
	}
	if !f.Until.IsZero() {
		hi = f.Until.Format(dateLayout)
	}
	window := !f.Since.IsZero() || !f.Until.IsZero()
	return func(id int64) bool {
		it, ok := fields.get(id)
		if !ok {
			return false
		}
		if window && !((it.written != "" && it.written >= lo && it.written <= hi) ||
			(it.evStart != "" && it.evStart <= hi && it.evEnd >= lo)) {
			return false
		}
		if len(f.Kinds) > 0 {
			found := false
			for _, k := range f.Kinds {
				found = found || string(k) == it.kind
			}
			if !found {
				return false
			}
		}
		return len(f.Entities) == 0 || entityItems[id]
	}
}

// entityItemSet is the set of items that mention any of the slugs.
func (l *lexState) entityItemSet(slugs []string) map[int64]bool {
	set := map[int64]bool{}
	for _, s := range slugs {
		k := strings.ToLower(s)
		for _, id := range l.byEntity[k] {
			set[id] = true
		}
		if l.snap != nil {
			for _, id := range l.snap.entityIDs(k) {
				if !l.fields.gone[id] {
					set[id] = true
				}
			}
		}
	}
	return set
}

// entityItemsInMemory is EntityItems ordered from the fields in memory:
// only the items returned are read from the index.
func (ix *Index) entityItemsInMemory(ctx context.Context, l *lexState, slugs []string, f Filter, limit int) ([]EntityItem, error) {
	onPage := map[int64]bool{}
	for _, s := range slugs {
		for _, id := range l.pages[strings.ToLower(s)] {
			onPage[id] = true
		}
	}
	var entityItems map[int64]bool
	if len(f.Entities) > 0 {
		entityItems = l.entityItemSet(f.Entities)
	}
	accept := f.accepts(l.fields, entityItems)
	// The sort keys are worked out once per item, not per comparison.
	type cand struct {
		id        int64
		page      bool
		day, path string
		startLine int
	}
	var cands []cand
	for id := range l.entityItemSet(slugs) {
		fl, ok := l.fields.get(id)
		if !ok {
			continue
		}
		page := onPage[fl.fileID]
		if !page && fl.kind == "passage" || accept != nil && !accept(id) {
			continue
		}
		path, _ := l.pathOfFile(fl.fileID)
		c := cand{id: id, page: page, path: path, startLine: fl.startLine}
		switch {
		case page:
		case fl.evStart != "":
			c.day = fl.evStart
		default:
			c.day = fl.written
		}
		cands = append(cands, c)
	}
	slices.SortFunc(cands, func(a, b cand) int {
		switch {
		case a.page != b.page:
			if a.page {
				return -1
			}
			return 1
		case a.day != b.day:
			return -strings.Compare(a.day, b.day)
		}
		if c := strings.Compare(a.path, b.path); c != 0 {
			return c
		}
		if a.startLine != b.startLine {
			return a.startLine - b.startLine
		}
		return cmp.Compare(a.id, b.id)
	})
	cands = cands[:min(limit, len(cands))]
	ids := make([]int64, len(cands))
	for i, c := range cands {
		ids[i] = c.id
	}
	items, err := ix.itemsInOrder(ctx, l, ids)
	if err != nil {
		return nil, err
	}
	out := make([]EntityItem, len(cands))
	for i, c := range cands {
		out[i] = EntityItem{Item: items[i], OnPage: c.page}
	}
	return out, nil
}

// searchMemory is Search ranked by the in-memory postings.
func (ix *Index) searchMemory(ctx context.Context, l *lexical, words []string, f Filter, limit int) ([]Hit, error) {
	var entityItems map[int64]bool
	if len(f.Entities) > 0 {
		entityItems = l.entityItemSet(f.Entities)
	}
	ranked, _ := l.eng.Search(bm25.Phrases(words), limit, f.accepts(l.fields, entityItems))
	if len(ranked) == 0 {
		return nil, nil
	}
	ids := make([]int64, len(ranked))
	for i, h := range ranked {
		ids[i] = h.ID
	}
	items, err := ix.itemsInOrder(ctx, &l.lexState, ids)
	if errors.Is(err, errStalePostings) {
		return nil, err
	}
	if err != nil {
		return nil, ix.wrapErr(err)
	}
	hits := make([]Hit, len(ranked))
	for i, h := range ranked {
		hits[i] = Hit{Item: items[i], Score: h.Score}
	}
	return hits, nil
}

// itemsInOrder is itemsInMemory as a list in the order of ids; an id it
// cannot find means the postings are behind the index (errStalePostings).
func (ix *Index) itemsInOrder(ctx context.Context, l *lexState, ids []int64) ([]Item, error) {
	byID, err := ix.itemsInMemory(ctx, l, ids)
	if err != nil {
		return nil, err
	}
	out := make([]Item, len(ids))
	for i, id := range ids {
		it, ok := byID[id]
		if !ok {
			return nil, errStalePostings
		}
		out[i] = it
	}
	return out, nil
}

// nearby is Nearby from the in-memory state: the passages of the item's
// file and section within n lines of it, in line order.
func (l *lexState) nearby(it Item, n int) ([]Item, error) {
	f, ok := l.fields.get(it.RowID)
	path, known := l.pathOfFile(f.fileID)
	if !ok || !known {
		return nil, errStalePostings
	}
	var out []Item
	for _, id := range l.fileIDs(path) {
		if id == it.RowID {
			continue
		}
		g, ok := l.fields.full(id)
		if !ok || g.text == nil {
			return nil, errStalePostings
		}
		t := g.text
		if g.kind != string(memory.KindPassage) || t.section != it.Section {
			continue
		}
		if t.endLine < it.Source.Start && t.endLine >= it.Source.Start-n || g.startLine > it.Source.End && g.startLine <= it.Source.End+n {
			out = append(out, g.item(id, path))
		}
	}
	slices.SortStableFunc(out, func(a, b Item) int { return a.Source.Start - b.Source.Start })
	return out, nil
}

// itemsInMemory is itemsWithIDs from the in-memory state: the items it
// holds with their text are made there, the others read from the index.
func (ix *Index) itemsInMemory(ctx context.Context, l *lexState, ids []int64) (map[int64]Item, error) {
	out := make(map[int64]Item, len(ids))
	var missing []int64
	for _, id := range ids {
		f, ok := l.fields.full(id)
		path, known := l.pathOfFile(f.fileID)
		if !ok || f.text == nil || !known {
			missing = append(missing, id)
			continue
		}
		out[id] = f.item(id, path)
	}
	if len(missing) > 0 {
		rest, err := ix.itemsWithIDs(ctx, missing)
		if err != nil {
			return nil, err
		}
		for id, it := range rest {
			out[id] = it
		}
	}
	return out, nil
}

// item makes the Item that scanItem would read from the index.
func (f memoryFields) item(id int64, path string) Item {
	t := f.text
	it := Item{
		RowID: id, Kind: memory.Kind(f.kind), FactID: t.factID,
		Source:  memory.Source{Path: path, Start: f.startLine, End: t.endLine},
		Section: t.section, Content: t.content,
	}
	if t.hasConfidence {
		c := t.confidence
		it.Confidence = &c
	}
	it.Written, _ = time.Parse(dateLayout, f.written)
	if f.evStart != "" {
		s, err1 := time.Parse(dateLayout, f.evStart)
		e, err2 := time.Parse(dateLayout, f.evEnd)
		if err1 == nil && err2 == nil {
			it.Event = &memory.TimeRange{Start: s, End: e}
		}
	}
	if f.entities != "" {
		it.Entities = strings.Fields(f.entities)
	}
	return it
}

// itemsWithIDs reads items by id, through one prepared statement (the
// ids travel as a JSON array).
func (ix *Index) itemsWithIDs(ctx context.Context, ids []int64) (map[int64]Item, error) {
	var b strings.Builder
	b.WriteByte('[')
	for i, id := range ids {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.FormatInt(id, 10))
	}
	b.WriteByte(']')
	rows, err := ix.query(ctx, `SELECT `+itemColumns+` FROM items i JOIN files f ON f.id = i.file_id
		WHERE i.id IN (SELECT value FROM json_each(?))`, b.String())
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := make(map[int64]Item, len(ids))
	for rows.Next() {
		var it Item
		if err := scanItem(rows, &it); err != nil {
			return nil, err
		}
		out[it.RowID] = it
	}
	return out, rows.Err()
}
