package postgres

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"

	"memoria/ingest"
	"memoria/lang"
	"memoria/markdown"
	"memoria/memory"
	"memoria/workspace"
)

// WorkspaceOptions tune one workspace's index.
type WorkspaceOptions struct {
	Rows     ingest.Options        // how files are cut into items
	Warn     func(msg string)      // skipped files, malformed lines; nil discards them
	Progress func(done, total int) // called while a build reads files; may be nil
}

// Index is one workspace's index in a shared database: a memory.Store.
// Its rows carry the workspace's id, and every transaction it runs may
// see that workspace only (row-level security). It is safe for
// concurrent use, and several processes, on several machines, may hold
// one for the same workspace: syncs of one workspace take turns (an
// advisory lock on its id), syncs of different workspaces never wait for
// each other.
type Index struct {
	db   *DB
	id   int64
	name string
	dir  string // the workspace's Markdown; "" where it is not mounted (read only)
	opts WorkspaceOptions

	// Rebuilt says why Workspace built the index from scratch ("" if it
	// did not): "new" or "outdated".
	Rebuilt    string
	BuildStats memory.Stats

	mu    sync.Mutex
	cache cache // what the database answered, as of one generation

	// statements, if set, is told the statements of Search, EntityItems,
	// Items and NearestItems, with their arguments, before they run (tests
	// read their plans).
	statements func(sql string, args []any)
	// filterScan, if not 0, replaces filterScanMax; below 0, no filter
	// is answered by scoring its items (tests take every filter through
	// the widening search).
	filterScan int
}

// cache holds values the database computed for the workspace as of one
// generation (any sync that changes it bumps it): the manifest and the
// entity names, exact, are read again after a change. The counts of
// items containing each term are kept as memory.KeepTermCounts says: they
// weigh terms and plan queries, where a line more or less changes
// nothing, and counting a common word reads much of the workspace (a
// quarter of the database's time under writes, when every sync dropped
// them).
type cache struct {
	generation int64
	items      int // items in the workspace (the writer keeps the count)
	tokens     int // their lengths in tokens, summed (kept likewise)
	manifest   map[string]storedFile
	names      []memory.KnownName
	terms      map[string]int // term → items containing it
	termsAt    int            // items when terms began to be counted
	vectors    *vectorCache
}

type storedFile struct {
	id          int64
	size, mtime int64
	hash        string
}

var _ memory.Store = (*Index)(nil)

// identity says how an index's rows were made; an index made otherwise is
// rebuilt.
func identity(o ingest.Options) string {
	return fmt.Sprintf("schema=%d rows=%d parser=%d passage_lines=%d alt=%d/%s", rowSchema, ingest.Version, markdown.Version, o.Passage(), lang.Version, lang.Unicode)
}

// rowSchema is the last schema version that changed what a workspace's
// rows hold. One that only adds an index (6) or changes the policies (7)
// leaves the rows as they are, and rebuilds no workspace.
const rowSchema = 8

// Workspace returns the index of the workspace called name, whose
// Markdown is in dir ("" for a process that serves the index without the
// files: it reads, and its Sync does nothing). A new workspace, or one
// indexed by another version of the rows, is built from the Markdown.
func (db *DB) Workspace(ctx context.Context, name, dir string, o WorkspaceOptions) (*Index, error) {
	if dir != "" {
		if err := workspace.Check(dir); err != nil {
			return nil, err
		}
	}
	id, ident, err := db.register(ctx, name)
	if err != nil {
		return nil, fmt.Errorf("index %s: workspace %s: %w", db.url, name, err)
	}
	ix := &Index{db: db, id: id, name: name, dir: dir, opts: o}
	if dir != "" && ident != identity(o.Rows) {
		reason := "outdated"
		if ident == "" {
			reason = "new"
		}
		st, err := ix.Rebuild(ctx)
		if err != nil {
			return nil, err
		}
		ix.Rebuilt, ix.BuildStats = reason, st
	}
	return ix, nil
}

// ID is the workspace's id in the database.
func (ix *Index) ID() int64 { return ix.id }

// Name is the workspace's name in the database.
func (ix *Index) Name() string { return ix.name }

// Close releases the index (the database stays open).
func (ix *Index) Close() error { return nil }

func (ix *Index) warn(format string, args ...any) {
	if ix.opts.Warn != nil {
		ix.opts.Warn(fmt.Sprintf(format, args...))
	}
}

func (ix *Index) errorf(err error) error {
	return fmt.Errorf("index %s (workspace %s): %w", ix.db.url, ix.name, err)
}

// read runs f on a connection that sees this workspace only.
func (ix *Index) read(ctx context.Context, f func(q querier) error) error {
	if err := ix.db.read(ctx, []int64{ix.id}, f); err != nil {
		return ix.errorf(err)
	}
	return nil
}

// current returns the cache for the workspace's generation now, emptied
// if the generation moved. The caller holds ix.mu.
func (ix *Index) current(ctx context.Context, tx querier) (*cache, error) {
	var gen int64
	var items, tokens int
	if err := tx.QueryRow(ctx, `SELECT generation, items, tokens FROM memoria_workspaces WHERE id = $1`, ix.id).Scan(&gen, &items, &tokens); err != nil {
		return nil, err
	}
	c := &ix.cache
	if gen != c.generation {
		c.advance(gen, items, tokens)
	}
	return c, nil
}

// advance empties the cache for another generation of the workspace,
// which holds items items of tokens tokens in all; the term counts stay
// as memory.KeepTermCounts says.
func (c *cache) advance(gen int64, items, tokens int) {
	c.generation, c.items, c.tokens, c.manifest, c.names = gen, items, tokens, nil, nil
	c.terms, c.termsAt = memory.KeepTermCounts(c.terms, c.termsAt, items)
}

// storedManifest returns the workspace's files as the index has them, read
// again when the generation moved. The caller holds ix.mu.
func (ix *Index) storedManifest(ctx context.Context, tx querier) (map[string]storedFile, error) {
	c, err := ix.current(ctx, tx)
	if err != nil {
		return nil, err
	}
	if c.manifest == nil {
		if c.manifest, err = readManifest(ctx, tx, ix.id); err != nil {
			return nil, err
		}
	}
	return c.manifest, nil
}

func readManifest(ctx context.Context, tx querier, ws int64) (map[string]storedFile, error) {
	rows, err := tx.Query(ctx, `SELECT id, path, size, mtime, hash FROM memoria_files WHERE ws = $1`, ws)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	m := map[string]storedFile{}
	for rows.Next() {
		var s storedFile
		var p string
		if err := rows.Scan(&s.id, &p, &s.size, &s.mtime, &s.hash); err != nil {
			return nil, err
		}
		m[p] = s
	}
	return m, rows.Err()
}

// diff compares the files on disk with the manifest: those to read
// (new, or changed in size or time) and the paths gone.
func diff(files []workspace.File, m map[string]storedFile) (todo []workspace.File, gone []string) {
	seen := make(map[string]bool, len(files))
	for _, f := range files {
		seen[f.Rel] = true
		if s, ok := m[f.Rel]; !ok || s.size != f.Size || s.mtime != f.ModTime {
			todo = append(todo, f)
		}
	}
	for p := range m {
		if !seen[p] {
			gone = append(gone, p)
		}
	}
	return todo, gone
}

// Sync brings the workspace's index up to date with its Markdown, in one
// transaction: a sync stopped at any point (a killed process, a lost
// connection) leaves the index as it was before it, never half-way.
func (ix *Index) Sync(ctx context.Context) (memory.Stats, error) {
	start := time.Now()
	if ix.dir == "" {
		return memory.Stats{}, nil
	}
	files, _, err := workspace.List(ix.dir)
	if err != nil {
		return memory.Stats{}, err
	}
	var todo []workspace.File
	var gone []string
	err = ix.read(ctx, func(tx querier) error {
		ix.mu.Lock()
		defer ix.mu.Unlock()
		m, err := ix.storedManifest(ctx, tx)
		if err != nil {
			return err
		}
		todo, gone = diff(files, m)
		return nil
	})
	if err != nil {
		return memory.Stats{}, err
	}
	if len(todo) == 0 && len(gone) == 0 {
		return memory.Stats{Files: len(files), Duration: time.Since(start)}, nil
	}
	st, err := ix.write(ctx, files, false)
	st.Duration = time.Since(start)
	return st, err
}

// Rebuild builds the workspace's index afresh from the Markdown, in one
// transaction: readers see the old index until it commits.
func (ix *Index) Rebuild(ctx context.Context) (memory.Stats, error) {
	start := time.Now()
	if ix.dir == "" {
		return memory.Stats{}, ix.errorf(fmt.Errorf("the workspace's Markdown is not here to build from"))
	}
	files, _, err := workspace.List(ix.dir)
	if err != nil {
		return memory.Stats{}, err
	}
	st, err := ix.write(ctx, files, true)
	st.Duration = time.Since(start)
	return st, err
}

// write applies the files on disk to the index (all of them with full),
// under the workspace's advisory lock.
func (ix *Index) write(ctx context.Context, files []workspace.File, full bool) (memory.Stats, error) {
	var st memory.Stats
	// What the workspace's files are once the write commits, and the
	// generation and item count it commits: the cache starts there, so
	// that the next sync need not read the manifest again.
	var after map[string]storedFile
	var gen int64
	var items, tokens int
	err := ix.db.tx(ctx, []int64{ix.id}, func(tx pgx.Tx) error {
		st = memory.Stats{Files: len(files)}
		after, gen = nil, 0
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1, $2::int)`, int32(migrateLock), ix.id); err != nil {
			return err
		}
		var manifest map[string]storedFile
		if full {
			for _, t := range []string{"memoria_items", "memoria_item_entities", "memoria_entity_pages", "memoria_entity_names", "memoria_files"} {
				if _, err := tx.Exec(ctx, `DELETE FROM `+t+` WHERE ws = $1`, ix.id); err != nil {
					return err
				}
			}
			manifest = map[string]storedFile{}
		} else {
			// Read again under the lock: another process may have synced.
			var err error
			if manifest, err = readManifest(ctx, tx, ix.id); err != nil {
				return err
			}
		}
		todo, gone := diff(files, manifest)
		if !full && len(todo) == 0 && len(gone) == 0 {
			return nil
		}
		after = make(map[string]storedFile, len(files))
		for p, f := range manifest {
			after[p] = f
		}
		w := newWriter(ix.id)
		for _, p := range gone {
			if err := w.deleteFile(ctx, tx, manifest[p].id); err != nil {
				return err
			}
			delete(after, p)
			st.Removed++
		}
		err := ingest.LoadAll(ctx, ix.dir, todo, ix.opts.Rows, func(i int, l ingest.Loaded) error {
			if ix.opts.Progress != nil && full {
				ix.opts.Progress(i+1, len(todo))
			}
			s, known := manifest[l.File.Rel]
			if known && l.Status == "" && s.hash == l.Hash {
				st.Unchanged++
				after[l.File.Rel] = storedFile{id: s.id, size: l.File.Size, mtime: l.File.ModTime, hash: s.hash}
				_, err := tx.Exec(ctx, `UPDATE memoria_files SET size = $1, mtime = $2 WHERE ws = $3 AND id = $4`, l.File.Size, l.File.ModTime, ix.id, s.id)
				return err
			}
			ix.note(&st, l)
			if known && l.Doc != nil {
				n, err := w.updateFile(ctx, tx, s.id, l)
				after[l.File.Rel] = storedFile{id: s.id, size: l.File.Size, mtime: l.File.ModTime, hash: l.Hash}
				st.Items += n
				return err
			}
			if known {
				if err := w.deleteFile(ctx, tx, s.id); err != nil {
					return err
				}
			}
			id, n, err := w.addFile(ctx, tx, l)
			after[l.File.Rel] = storedFile{id: id, size: l.File.Size, mtime: l.File.ModTime, hash: l.Hash}
			st.Items += n
			return err
		})
		if err != nil {
			return err
		}
		if err := w.flush(ctx, tx); err != nil {
			return err
		}
		q := `UPDATE memoria_workspaces SET generation = generation + 1, synced = now(), items = items + $2, tokens = tokens + $3
			WHERE id = $1 RETURNING generation, items, tokens`
		if full {
			// A build leaves its rows in the full-text index's pending
			// list, which every search reads through and the next write
			// would merge: merged here, in bulk.
			if _, err := tx.Exec(ctx, `SELECT gin_clean_pending_list(i.indexrelid) FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
				JOIN pg_am a ON a.oid = c.relam WHERE i.indrelid = $1::regclass AND a.amname = 'gin'`, fmt.Sprintf("memoria_items_%d", ix.id)); err != nil {
				return err
			}
			// And the planner learns the new rows now rather than when
			// autovacuum comes by: without statistics it took a date
			// index over the full-text one for a rare word.
			if _, err := tx.Exec(ctx, fmt.Sprintf(`ANALYZE memoria_items_%d`, ix.id)); err != nil {
				return err
			}
			q = `UPDATE memoria_workspaces SET generation = generation + 1, synced = now(), built = now(), identity = $2,
				(items, tokens) = (SELECT count(*), coalesce(sum(tokens), 0) FROM memoria_items WHERE ws = $1) WHERE id = $1
				RETURNING generation, items, tokens`
			return tx.QueryRow(ctx, q, ix.id, identity(ix.opts.Rows)).Scan(&gen, &items, &tokens)
		}
		return tx.QueryRow(ctx, q, ix.id, w.added-w.deleted, w.addedTokens-w.deletedTokens).Scan(&gen, &items, &tokens)
	})
	if err != nil {
		return st, ix.errorf(err)
	}
	if after != nil {
		ix.mu.Lock()
		if c := &ix.cache; gen > c.generation {
			c.advance(gen, items, tokens)
			c.manifest = after
		}
		ix.mu.Unlock()
	}
	if full {
		// The tables every workspace shares learn of this one's rows too
		// (its items' partition was analyzed in the build). Autovacuum
		// analyzes a table once a tenth of it changed, which a workspace
		// added to many others may never be; until then the planner
		// takes the new workspace's files and entities for a handful, and
		// its recalls took 30 ms (p50) instead of 12 (docs/team.md).
		// Outside the build's transaction, so that concurrent builds do
		// not wait for each other's commit; a table being analyzed
		// already (autovacuum, another build) is left to that.
		if err := ix.exec(ctx, `ANALYZE (SKIP_LOCKED) memoria_files, memoria_item_entities, memoria_entity_pages, memoria_entity_names`); err != nil {
			ix.warn("analyzing the shared tables after the build: %v", err)
		}
		st.Counted = true
		status, err := ix.Status(ctx)
		if err != nil {
			return st, err
		}
		st.FilesByKind, st.Facts, st.Passages, st.Entities = status.Files, status.Facts, status.Passages, status.Entities
	}
	return st, nil
}

// note counts a file read in the stats and reports its warnings.
func (ix *Index) note(st *memory.Stats, l ingest.Loaded) {
	if l.Status != "" {
		st.Skipped++
		st.Warnings++
		ix.warn("%s: skipped: %s", l.File.Rel, l.Status)
		return
	}
	st.Parsed++
	for _, w := range l.Doc.Warnings {
		st.Warnings++
		ix.warn("%s:%d: %s", l.File.Rel, w.Line, w.Message)
	}
}

// writer inserts files' rows, the items many at a time: one statement per
// batch of rows, their full-text vectors made by the server from the
// columns of ingest.Row (content A, entities B, section C, context D).
type writer struct {
	ws                         int64
	items                      itemBatch
	added, deleted             int // items
	addedTokens, deletedTokens int // their lengths (the column tokens)
}

type itemBatch struct {
	ids, fileIDs, textIDs                                 []int64
	kinds, factIDs, days, eventEnds, sections, entities   []string
	statuses                                              []string
	contents, rowContent, rowSection, rowEntities, rowCtx []string
	rowHashes                                             []string
	confs                                                 []*float64
	starts, ends                                          []int32
	entityKeys                                            []string
	entityItems                                           []int64
}

const itemBatchRows = 1000

func newWriter(ws int64) *writer { return &writer{ws: ws} }

func (w *writer) deleteFile(ctx context.Context, tx pgx.Tx, fileID int64) error {
	if err := w.flush(ctx, tx); err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, `DELETE FROM memoria_item_entities WHERE ws = $1 AND item_id IN (SELECT id FROM memoria_items WHERE ws = $1 AND file_id = $2)`, w.ws, fileID); err != nil {
		return err
	}
	var n, tokens int
	if err := tx.QueryRow(ctx, `WITH d AS (DELETE FROM memoria_items WHERE ws = $1 AND file_id = $2 RETURNING tokens)
		SELECT count(*), coalesce(sum(tokens), 0) FROM d`, w.ws, fileID).Scan(&n, &tokens); err != nil {
		return err
	}
	w.deleted += n
	w.deletedTokens += tokens
	for _, q := range []string{
		`DELETE FROM memoria_entity_pages WHERE ws = $1 AND file_id = $2`,
		`DELETE FROM memoria_entity_names WHERE ws = $1 AND file_id = $2`,
		`DELETE FROM memoria_files WHERE ws = $1 AND id = $2`,
	} {
		if _, err := tx.Exec(ctx, q, w.ws, fileID); err != nil {
			return err
		}
	}
	return nil
}

// addFile writes a file's row, its items and its entity page; it returns
// the file's id and how many items.
func (w *writer) addFile(ctx context.Context, tx pgx.Tx, l ingest.Loaded) (fileID int64, n int, err error) {
	f := l.File
	day := ""
	if l.Doc != nil {
		day = ingest.DayString(l.Doc.Date)
	}
	err = tx.QueryRow(ctx, `INSERT INTO memoria_files(ws, path, kind, day, size, mtime, hash, lines, status)
		VALUES($1,$2,$3,$4,$5,$6,$7,$8,$9) RETURNING id`, w.ws, f.Rel, string(f.Kind), day, f.Size, f.ModTime, l.Hash, l.Lines, l.Status).Scan(&fileID)
	if err != nil || l.Doc == nil {
		return fileID, 0, err
	}
	doc := l.Doc
	n = len(doc.Facts) + len(doc.Passages)
	ids, err := nextIDs(ctx, tx, n)
	if err != nil {
		return fileID, 0, err
	}
	err = ingest.EachRow(doc, func(i int, r ingest.Row) error {
		it := ingest.DocItem(doc, i)
		return w.add(ctx, tx, ids[i], fileID, &it, r, rowHash(&it, r))
	})
	if err != nil {
		return fileID, 0, err
	}
	return fileID, n, w.addEntityPage(ctx, tx, fileID, doc.Entity)
}

// add queues an item's row, and writes the queue once it is full.
func (w *writer) add(ctx context.Context, tx pgx.Tx, id, fileID int64, it *ingest.Item, r ingest.Row, hash string) error {
	w.items.add(id, fileID, it, r, hash)
	if len(w.items.ids) >= itemBatchRows {
		return w.flush(ctx, tx)
	}
	return nil
}

// addEntityPage writes the entity page a file is (nil: none) and the names
// it is known under.
func (w *writer) addEntityPage(ctx context.Context, tx pgx.Tx, fileID int64, e *memory.EntityPage) error {
	if e == nil {
		return nil
	}
	if _, err := tx.Exec(ctx, `INSERT INTO memoria_entity_pages(ws, file_id, slug, name, aliases) VALUES($1,$2,$3,$4,$5)`,
		w.ws, fileID, e.Slug, e.Name, strings.Join(e.Aliases, "\n")); err != nil {
		return err
	}
	var keys []string
	seen := map[string]bool{}
	for _, name := range append([]string{e.Slug, e.Name}, e.Aliases...) {
		if k := memory.EntityKey(name); k != "" && !seen[k] {
			seen[k] = true
			keys = append(keys, k)
		}
	}
	_, err := tx.Exec(ctx, `INSERT INTO memoria_entity_names(ws, key, slug, file_id, n)
		SELECT $1, k, $2, $3, n FROM unnest($4::text[]) WITH ORDINALITY AS u(k, n)`, w.ws, e.Slug, fileID, keys)
	return err
}

// updateFile writes a changed file over its stored version, item by item:
// an item whose row is the same as one stored (rowHash) stays as it is,
// id and all, the stored items left over are deleted and the new ones
// inserted; the file's row and entity page are written again. An agent
// appends to today's log all day, and a sync that rewrote the whole file
// for each line wrote, and left to vacuum as dead rows, hundreds of items
// a line; a search reads through the dead rows that match it until
// vacuum comes by (20 ms against 15 after 150 appends to one log of a
// 21,000-item workspace). It returns the file's items.
func (w *writer) updateFile(ctx context.Context, tx pgx.Tx, fileID int64, l ingest.Loaded) (int, error) {
	f, doc := l.File, l.Doc
	if _, err := tx.Exec(ctx, `UPDATE memoria_files SET kind = $3, day = $4, size = $5, mtime = $6, hash = $7, lines = $8, status = $9 WHERE ws = $1 AND id = $2`,
		w.ws, fileID, string(f.Kind), ingest.DayString(doc.Date), f.Size, f.ModTime, l.Hash, l.Lines, l.Status); err != nil {
		return 0, err
	}
	for _, q := range []string{
		`DELETE FROM memoria_entity_pages WHERE ws = $1 AND file_id = $2`,
		`DELETE FROM memoria_entity_names WHERE ws = $1 AND file_id = $2`,
	} {
		if _, err := tx.Exec(ctx, q, w.ws, fileID); err != nil {
			return 0, err
		}
	}
	rows, err := tx.Query(ctx, `SELECT id, row_hash FROM memoria_items WHERE ws = $1 AND file_id = $2`, w.ws, fileID)
	if err != nil {
		return 0, err
	}
	stored := map[string][]int64{} // by row hash: identical rows are possible, and each is kept once
	var id int64
	var hash string
	if _, err := pgx.ForEachRow(rows, []any{&id, &hash}, func() error { stored[hash] = append(stored[hash], id); return nil }); err != nil {
		return 0, err
	}
	// Rows written before row hashes have "", which no new row hashes
	// to: they are never kept.
	type fresh struct {
		it   ingest.Item
		r    ingest.Row
		hash string
	}
	var todo []fresh
	err = ingest.EachRow(doc, func(i int, r ingest.Row) error {
		it := ingest.DocItem(doc, i)
		h := rowHash(&it, r)
		if ids := stored[h]; len(ids) > 0 {
			stored[h] = ids[1:]
			return nil
		}
		todo = append(todo, fresh{it, r, h})
		return nil
	})
	if err != nil {
		return 0, err
	}
	if err := w.deleteItems(ctx, tx, fileID, stored); err != nil {
		return 0, err
	}
	ids, err := nextIDs(ctx, tx, len(todo))
	if err != nil {
		return 0, err
	}
	for i := range todo {
		if err := w.add(ctx, tx, ids[i], fileID, &todo[i].it, todo[i].r, todo[i].hash); err != nil {
			return 0, err
		}
	}
	return len(doc.Facts) + len(doc.Passages), w.addEntityPage(ctx, tx, fileID, doc.Entity)
}

// deleteItems deletes the items of a file that a sync does not keep (the
// stored items no new row matched, by row hash).
func (w *writer) deleteItems(ctx context.Context, tx pgx.Tx, fileID int64, gone map[string][]int64) error {
	var ids []int64
	for _, g := range gone {
		ids = append(ids, g...)
	}
	if len(ids) == 0 {
		return nil
	}
	if _, err := tx.Exec(ctx, `DELETE FROM memoria_item_entities WHERE ws = $1 AND item_id = ANY($2)`, w.ws, ids); err != nil {
		return err
	}
	var n, tokens int
	if err := tx.QueryRow(ctx, `WITH d AS (DELETE FROM memoria_items WHERE ws = $1 AND file_id = $2 AND id = ANY($3) RETURNING tokens)
		SELECT count(*), coalesce(sum(tokens), 0) FROM d`, w.ws, fileID, ids).Scan(&n, &tokens); err != nil {
		return err
	}
	w.deleted += n
	w.deletedTokens += tokens
	return nil
}

// rowHash is what an item's stored row is made of, hashed: its columns
// and the full-text row its vector is made from, everything but its id
// and its file's. Two items of one hash are stored alike. It is kept
// with the item, so it is a digest whose value does not change from one
// process to the next (the SQLite index's keys are never stored, and
// are made with maphash).
func rowHash(it *ingest.Item, r ingest.Row) string {
	h := sha256.New()
	for _, s := range append(it.Columns(), r.Fields()...) {
		// Each field's length first: no two lists of fields hash alike.
		h.Write(binary.AppendUvarint(nil, uint64(len(s))))
		h.Write([]byte(s))
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// nextIDs takes n item ids from the items' sequence, so that entity links
// can be written with their items in one batch.
func nextIDs(ctx context.Context, tx pgx.Tx, n int) ([]int64, error) {
	if n == 0 {
		return nil, nil
	}
	rows, err := tx.Query(ctx, `SELECT nextval(pg_get_serial_sequence('memoria_items', 'id')) FROM generate_series(1, $1)`, n)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowTo[int64])
}

func (b *itemBatch) add(id, fileID int64, it *ingest.Item, r ingest.Row, hash string) {
	var conf *float64
	if it.HasConf {
		c := it.Conf
		conf = &c
	}
	factID := it.FactID
	b.ids = append(b.ids, id)
	b.fileIDs = append(b.fileIDs, fileID)
	b.textIDs = append(b.textIDs, textID(it.TextHash))
	b.kinds = append(b.kinds, string(it.Kind))
	b.factIDs = append(b.factIDs, factID)
	b.confs = append(b.confs, conf)
	b.starts = append(b.starts, int32(it.Start))
	b.ends = append(b.ends, int32(it.End))
	b.days = append(b.days, it.Day)
	b.eventEnds = append(b.eventEnds, it.EventEnd)
	b.sections = append(b.sections, it.Section)
	b.entities = append(b.entities, it.Entities)
	b.contents = append(b.contents, it.Content)
	b.statuses = append(b.statuses, string(it.Status))
	b.rowContent = append(b.rowContent, r.Content)
	b.rowSection = append(b.rowSection, r.Section)
	b.rowEntities = append(b.rowEntities, r.Entities)
	b.rowCtx = append(b.rowCtx, r.Context)
	b.rowHashes = append(b.rowHashes, hash)
	for _, e := range strings.Fields(it.Entities) {
		b.entityKeys = append(b.entityKeys, strings.ToLower(e))
		b.entityItems = append(b.entityItems, id)
	}
}

// insertItems is the one statement that writes items: the full-text
// vector is made here, by the server, with the weights Search ranks by,
// and its length in tokens (its positions, every column's), which bm25
// compares with the workspace's average. It answers the lengths' sum,
// which the writer adds to the workspace's.
const insertItems = `WITH ins AS (INSERT INTO memoria_items(ws, id, file_id, kind, fact_id, confidence, start_line, end_line, day, event_end, section, entities, content, text_id, tsv, tokens, row_hash, status)
SELECT $1, id, file_id, kind, nullif(fact_id, ''), conf, s, e, day, event_end, section, entities, content, text_id,
  v.tsv, (SELECT coalesce(sum(cardinality(positions)), 0) FROM unnest(v.tsv)), h, st
FROM unnest($2::bigint[], $3::bigint[], $4::text[], $5::text[], $6::float8[], $7::int[], $8::int[], $9::text[], $10::text[],
  $11::text[], $12::text[], $13::text[], $14::bigint[], $15::text[], $16::text[], $17::text[], $18::text[], $19::text[], $20::text[])
  AS u(id, file_id, kind, fact_id, conf, s, e, day, event_end, section, entities, content, text_id, rc, rs, re, rx, h, st)
CROSS JOIN LATERAL (SELECT setweight(to_tsvector('memoria', memoria_words(rc)), 'A') || setweight(to_tsvector('memoria', memoria_words(re)), 'B') ||
  setweight(to_tsvector('memoria', memoria_words(rs)), 'C') || setweight(to_tsvector('memoria', memoria_words(rx)), 'D') AS tsv) v
RETURNING tokens)
SELECT coalesce(sum(tokens), 0) FROM ins`

func (w *writer) flush(ctx context.Context, tx pgx.Tx) error {
	b := &w.items
	if len(b.ids) == 0 {
		return nil
	}
	w.added += len(b.ids)
	var tokens int
	if err := tx.QueryRow(ctx, insertItems, w.ws, b.ids, b.fileIDs, b.kinds, b.factIDs, b.confs, b.starts, b.ends, b.days, b.eventEnds,
		b.sections, b.entities, b.contents, b.textIDs, b.rowContent, b.rowSection, b.rowEntities, b.rowCtx, b.rowHashes, b.statuses).Scan(&tokens); err != nil {
		return fmt.Errorf("items: %w", err)
	}
	w.addedTokens += tokens
	if len(b.entityKeys) > 0 {
		if _, err := tx.Exec(ctx, `INSERT INTO memoria_item_entities(ws, slug_key, item_id)
			SELECT $1, k, i FROM unnest($2::text[], $3::bigint[]) AS u(k, i) ON CONFLICT DO NOTHING`, w.ws, b.entityKeys, b.entityItems); err != nil {
			return fmt.Errorf("entity links: %w", err)
		}
	}
	*b = itemBatch{}
	return nil
}
