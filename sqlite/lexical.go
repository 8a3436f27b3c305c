package sqlite

import (
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

	"memoria/bm25"
)

// A long-lived Index (one that has synced twice: the MCP server, a
// program using the library) ranks full-text queries in memory with
// package bm25, which computes the very scores FTS5's bm25() does without
// its per-row docsize lookups. The postings are loaded in the background
// from the same rows the full-text table is filled from (ftsInsert);
// until they are ready, and in one-shot processes, FTS5 ranks. After a
// write (this process's Sync, or another process's: PRAGMA data_version),
// the files whose hash changed in the manifest are reloaded.

var errStalePostings = errors.New("in-memory postings are stale")

// ftsSelect is the SELECT that fills the full-text table: what the
// in-memory postings are made from, so they hold the same text.
var ftsSelect = ftsInsert[strings.Index(ftsInsert, "SELECT"):]

// fieldTable holds memoryFields by item id in a slice (ids are small and
// dense): a filtered search looks up every candidate.
type fieldTable struct{ byID []memoryFields }

func (t *fieldTable) get(id int64) (memoryFields, bool) {
	if id < 0 || id >= int64(len(t.byID)) || !t.byID[id].present {
		return memoryFields{}, false
	}
	return t.byID[id], true
}

func (t *fieldTable) set(id int64, f memoryFields) {
	if id < 0 {
		return
	}
	for id >= int64(len(t.byID)) {
		t.byID = append(t.byID, memoryFields{})
	}
	f.present = true
	t.byID[id] = f
}

func (t *fieldTable) del(id int64) {
	if id >= 0 && id < int64(len(t.byID)) {
		t.byID[id] = memoryFields{}
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
}

type lexical struct {
	mu sync.Mutex
	lexState

	// The background load: Close cancels it and waits, so no goroutine
	// opens the index file after it was closed.
	loads  sync.WaitGroup
	stop   context.Context
	cancel context.CancelFunc
}

type lexState struct {
	state    int // lexNone, lexBuilding, lexReady
	eng      *bm25.Index
	fields   *fieldTable
	files    map[string]lexFile // path → what the postings hold of it
	version  int64              // PRAGMA data_version when last compared
	ownGen   uint64             // bumped by this process's writes
	seenGen  uint64
	checked  bool // the manifest was compared since the postings were loaded
	buildErr error

	// For EntityItems in memory: items by entity key, entity pages by
	// entity key, paths by file row.
	byEntity map[string][]int64
	pages    map[string][]int64
	pathOf   map[int64]string
}

// add records one row's fields and entity links.
func (l *lexState) add(r lexRow) {
	l.fields.set(r.id, r.fields)
	l.pathOf[r.fields.fileID] = r.path
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
	fileID int64
	hash   string
	ids    []int64
}

func newLexicalEngine() *bm25.Index {
	return bm25.New(weightContent, weightSection, weightEntities, weightContext)
}

// lexRow is one row as the full-text table receives it, with the fields
// filters need and its file.
type lexRow struct {
	id     int64
	cols   [4]string
	fields memoryFields
	path   string
}

const lexRowsQuery = `SELECT q.*, i.kind, i.written, i.event_start, i.event_end, i.file_id, i.start_line, i.entities, f.path FROM (%s%s%s) q
	JOIN items i ON i.id = q.id JOIN files f ON f.id = i.file_id`

func scanLexRows(rows *sql.Rows, fn func(r lexRow)) error {
	defer rows.Close()
	for rows.Next() {
		var r lexRow
		if err := rows.Scan(&r.id, &r.cols[0], &r.cols[1], &r.cols[2], &r.cols[3],
			&r.fields.kind, &r.fields.written, &r.fields.evStart, &r.fields.evEnd,
			&r.fields.fileID, &r.fields.startLine, &r.fields.entities, &r.path); err != nil {
			return err
		}
		fn(r)
	}
	return rows.Err()
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
		ix.finishLexical(loadLexical(ctx, ix.path))
	}()
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
	if ix.lex.state != lexReady {
		ix.lex.state = lexBuilding
		ix.lex.loads.Add(1) // Close waits for it
		ix.lex.mu.Unlock()
		ix.finishLexical(loadLexical(ctx, ix.path))
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
	ix.lex.lexState = loaded
	ix.lex.state, ix.lex.checked = lexReady, false
}

// loadLexical reads every row of the index through a connection of its
// own, in one read transaction, so searches go on meanwhile.
func loadLexical(ctx context.Context, path string) (lexState, error) {
	var l lexState
	// Not dsn(): its transactions take the write lock at BEGIN.
	db, err := sql.Open("sqlite", "file:"+(&url.URL{Path: path}).EscapedPath()+"?_pragma=busy_timeout(10000)&_pragma=query_only(1)")
	if err != nil {
		return l, err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	tx, err := db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return l, err
	}
	defer tx.Rollback()
	var manifest string
	if err := tx.QueryRowContext(ctx, `SELECT coalesce((SELECT value FROM meta WHERE key = 'manifest'), '')`).Scan(&manifest); err != nil {
		return l, err
	}
	m, err := decodeManifest(manifest)
	if err != nil {
		return l, err
	}
	if l.pages, err = entityPages(ctx, tx); err != nil {
		return l, err
	}
	rows, err := tx.QueryContext(ctx, fmt.Sprintf(lexRowsQuery, ftsSelect, "", ftsWindow))
	if err != nil {
		return l, err
	}
	l.eng, l.fields, l.files = newLexicalEngine(), &fieldTable{}, map[string]lexFile{}
	l.byEntity, l.pathOf = map[string][]int64{}, map[int64]string{}
	// Tokenizing is most of the cost: the rows are read here and
	// tokenized on the other CPUs (bm25.Index.Add is safe for concurrent
	// use and tokenizes outside its lock).
	work := make(chan lexRow, 256)
	var wg sync.WaitGroup
	for range max(1, runtime.GOMAXPROCS(0)-1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := range work {
				l.eng.Add(r.id, r.cols[:]...)
			}
		}()
	}
	err = scanLexRows(rows, func(r lexRow) {
		work <- r
		l.add(r)
		f := l.files[r.path]
		f.ids = append(f.ids, r.id)
		l.files[r.path] = f
	})
	close(work)
	wg.Wait()
	if err != nil {
		return l, err
	}
	for p, s := range m {
		f := l.files[p]
		f.fileID, f.hash = s.id, s.hash
		l.files[p] = f
	}
	return l, nil
}

// resetLexical drops the postings (the index file was rebuilt).
func (ix *Index) resetLexical() {
	ix.lex.mu.Lock()
	ix.lex.lexState = lexState{ownGen: ix.lex.ownGen}
	ix.lex.mu.Unlock()
}

// wroteItems tells the postings that this process changed the items.
func (ix *Index) wroteItems() {
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
		if err == nil {
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
		ix.startLexical()
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
	if err := ix.refreshLexical(ctx, l); err != nil {
		return nil, ix.wrapErr(err)
	}
	l.version, l.seenGen, l.checked = version, l.ownGen, true
	if l.eng.Dead() > l.eng.Len() {
		// More deleted postings than live ones: load afresh.
		l.lexState = lexState{ownGen: l.ownGen}
		ix.startLexicalLocked()
		return nil, nil
	}
	return l, nil
}

// refreshLexical reloads the files whose hash in the manifest differs from
// what the postings hold, and drops files gone from it.
func (ix *Index) refreshLexical(ctx context.Context, l *lexical) error {
	text, err := ix.metaValue(ctx, "manifest")
	if err != nil {
		return err
	}
	m, err := decodeManifest(text)
	if err != nil {
		return err
	}
	changed := false
	drop := func(p string) {
		changed = true
		for _, id := range l.files[p].ids {
			l.eng.Delete(id)
			l.drop(id)
		}
		delete(l.files, p)
	}
	for p := range l.files {
		if _, ok := m[p]; !ok {
			drop(p)
		}
	}
	for p, s := range m {
		if f, ok := l.files[p]; ok && f.hash == s.hash && f.fileID == s.id {
			continue
		}
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
		})
		if err != nil {
			return err
		}
		l.files[p] = f
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
		for _, id := range l.byEntity[strings.ToLower(s)] {
			set[id] = true
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
	type cand struct {
		id     int64
		page   bool
		fields memoryFields
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
		cands = append(cands, cand{id, page, fl})
	}
	day := func(c cand) string {
		switch {
		case c.page:
			return ""
		case c.fields.evStart != "":
			return c.fields.evStart
		}
		return c.fields.written
	}
	slices.SortFunc(cands, func(a, b cand) int {
		switch {
		case a.page != b.page:
			if a.page {
				return -1
			}
			return 1
		case day(a) != day(b):
			return -strings.Compare(day(a), day(b))
		}
		if c := strings.Compare(l.pathOf[a.fields.fileID], l.pathOf[b.fields.fileID]); c != 0 {
			return c
		}
		if a.fields.startLine != b.fields.startLine {
			return a.fields.startLine - b.fields.startLine
		}
		return int(a.id - b.id)
	})
	cands = cands[:min(limit, len(cands))]
	ids := make([]int64, len(cands))
	for i, c := range cands {
		ids[i] = c.id
	}
	items, err := ix.itemsWithIDs(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make([]EntityItem, 0, len(cands))
	for _, c := range cands {
		it, ok := items[c.id]
		if !ok {
			return nil, errStalePostings
		}
		out = append(out, EntityItem{Item: it, OnPage: c.page})
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
	items, err := ix.itemsWithIDs(ctx, ids)
	if err != nil {
		return nil, ix.wrapErr(err)
	}
	hits := make([]Hit, 0, len(ranked))
	for _, h := range ranked {
		it, ok := items[h.ID]
		if !ok {
			return nil, errStalePostings
		}
		hits = append(hits, Hit{Item: it, Score: h.Score})
	}
	return hits, nil
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
