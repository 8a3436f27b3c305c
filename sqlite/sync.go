package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"memoria/ingest"
	"memoria/memory"
	"memoria/workspace"
)

// storedFile is what the index remembers of a file.
type storedFile struct {
	id          int64
	size, mtime int64
	hash        string
}

// Sync brings the index up to date with the workspace: the cheap freshness
// check (one stat per file, compared with the stored size and mtime) and,
// for files that differ, a re-read; only files whose content hash changed
// are re-parsed. Deleted files leave the index. Safe to call from several
// processes at once: writes are serialised by SQLite and are idempotent.
//
// An index file deleted or replaced since it was opened is an error
// wrapping memory.ErrCorrupt (checkFile): Reopen mends it.
func (ix *Index) Sync(ctx context.Context) (memory.Stats, error) {
	if err := ix.checkFile(); err != nil {
		return memory.Stats{}, err
	}
	return ix.syncOpen(ctx)
}

// syncOpen is Sync once checkFile passed.
func (ix *Index) syncOpen(ctx context.Context) (memory.Stats, error) {
	start := time.Now()
	// The monitor vouches for the files; data_version for the index: a
	// rebuild in another process puts the state it was built from in
	// place, which only a check of every file catches up with.
	v, err := ix.dataVersion(ctx)
	if err != nil {
		return memory.Stats{}, ix.wrapErr(err)
	}
	n, ok, epoch := ix.fresh.quiet(ix.ws, v)
	if ok {
		return memory.Stats{Files: n, Unchanged: n, Duration: time.Since(start)}, nil
	}
	return ix.sync(ctx, start, ix.list(), &epoch)
}

// dataVersion is PRAGMA data_version: it changes whenever another
// connection commits to the index.
func (ix *Index) dataVersion(ctx context.Context) (int64, error) {
	var v int64
	err := ix.queryRow(ctx, `PRAGMA data_version`).Scan(&v)
	return v, err
}

// listing is the workspace's files as the freshness check sees them.
type listing struct {
	files   []workspace.File
	skipped []workspace.Skipped
	err     error
	at      time.Time // when the listing began (racy)
}

func (ix *Index) list() listing {
	l := listing{at: time.Now()}
	l.files, l.skipped, l.err = workspace.List(ix.ws)
	return l
}

// SyncAround is Sync around a query: in a process that has synced only
// once or never (a one-shot command), it lists the workspace's files while
// the query runs on the index as it stands, and only when the listing
// shows a change does the index catch up and the query run again. A
// long-lived process syncs first (its change monitor makes that cheap).
//
// Either way the answer must be of the index as it is after the last
// check: when another process committed while the query ran (PRAGMA
// data_version moved), the check and the query run again, at most a few
// times. A rebuild elsewhere can put in place the state of the Markdown it
// was built from, older than a fact retained meanwhile, and only the next
// check finds that fact again; a query that ran across that commit would
// have missed it.
func (ix *Index) SyncAround(ctx context.Context, query func() error) (memory.Stats, error) {
	if err := ix.checkFile(); err != nil {
		return memory.Stats{}, err
	}
	v, err := ix.dataVersion(ctx)
	if err != nil {
		return memory.Stats{}, ix.wrapErr(err)
	}
	var st memory.Stats
	var qerr error
	stale := false // the answer came before a check that changed the index
	if ix.fresh.longLived() {
		if st, err = ix.syncOpen(ctx); err != nil {
			return st, err
		}
		qerr = query()
	} else {
		// The answer is stale if the index changed after the query began:
		// by this sync, or by another goroutine's commit (a server's first
		// recalls take this path together), which data_version does not
		// show on the connection they share, and after which this sync
		// finds nothing to do.
		writes := ix.writes.Load()
		listed := make(chan listing, 1)
		go func() { listed <- ix.list() }()
		qerr = query()
		ix.fresh.count()
		if st, err = ix.sync(ctx, time.Now(), <-listed, nil); err != nil {
			return st, err
		}
		stale = st.Changed() || ix.writes.Load() != writes
	}
	// The answer stands when it came after the last check and no other
	// process committed since that check began; else check and answer
	// again, a few times at most.
	for round := 0; round < 5; round++ {
		now, err := ix.dataVersion(ctx)
		if err != nil {
			return st, ix.wrapErr(err)
		}
		if now == v && !stale {
			break
		}
		v = now
		if st, err = ix.sync(ctx, time.Now(), ix.list(), nil); err != nil {
			return st, err
		}
		qerr = query()
		stale = false
	}
	return st, qerr
}

// sync applies a listing. A non-nil epoch says the listing was taken
// after the change monitor was armed and drained at that epoch
// (freshness.quiet), so a successful sync lets the monitor vouch for the
// next ones unless it reported a change since.
func (ix *Index) sync(ctx context.Context, start time.Time, l listing, epoch *uint64) (memory.Stats, error) {
	var st memory.Stats
	// The version the check starts from: a commit elsewhere during it
	// leaves the monitor's trust for a later check to earn.
	version, err := ix.dataVersion(ctx)
	if err != nil {
		return st, ix.wrapErr(err)
	}
	d, err := ix.diff(ctx, l)
	if err != nil {
		return st, err
	}
	files, todo, gone, stored := d.files, d.todo, d.gone, d.stored
	markRacy(todo, l.at)
	st.Files = len(files)
	// Files skipped by the listing (symlinks out of the workspace…) are not
	// indexed; if they were before, they go.
	for _, s := range d.skipped {
		if _, ok := stored.get(s.Rel); ok {
			ix.opts.warn("%s: skipped: %s", s.Rel, s.Reason)
			st.Warnings++
		}
	}
	st.Unchanged = len(files) - len(todo)
	if len(todo) == 0 && len(gone) == 0 && len(d.settle) == 0 {
		if epoch != nil {
			ix.fresh.checked(files, version, *epoch)
		}
		st.Duration = time.Since(start)
		return st, nil
	}
	tx, err := ix.db().BeginTx(ctx, nil) // BEGIN IMMEDIATE (see dsn)
	if err != nil {
		return st, ix.wrapErr(err)
	}
	defer tx.Rollback()
	if len(gone) > 0 {
		gone = stillGone(ix.ws, gone)
	}
	for _, p := range gone {
		if err := deleteFile(ctx, tx, p); err != nil {
			return st, ix.wrapErr(err)
		}
		st.Removed++
	}
	w, err := newWriter(ctx, tx, "items_fts")
	if err != nil {
		return st, ix.wrapErr(err)
	}
	// The manifest as it is now, under the write lock (another process may
	// have changed it since the freshness check); this sync's changes are
	// applied to it rather than re-reading the whole files table.
	var text string
	if err := tx.QueryRowContext(ctx, `SELECT coalesce((SELECT value FROM meta WHERE key = 'manifest'), '')`).Scan(&text); err != nil {
		return st, ix.wrapErr(err)
	}
	current, err := decodeManifest(text)
	if err != nil {
		return st, ix.wrapErr(err)
	}
	manifest := current.edit()
	for _, p := range gone {
		delete(manifest, p)
	}
	// Settled files: their content is the one indexed (diff read it), so
	// only their mtime is stored, unless another process indexed them
	// anew since, when they are read as any changed file is.
	for _, f := range d.settle {
		s, ok := manifest[f.Rel]
		old, _ := stored.get(f.Rel)
		if !ok || s.hash != old.hash || s.size != f.Size {
			todo = append(todo, f)
			continue
		}
		s.mtime = f.ModTime
		manifest[f.Rel] = s
		if _, err := tx.ExecContext(ctx, `UPDATE files SET mtime=? WHERE id=?`, f.ModTime, s.id); err != nil {
			return st, ix.wrapErr(err)
		}
	}
	err = ingest.LoadAll(ctx, ix.ws, todo, ix.opts.rows(), func(i int, l ingest.Loaded) error {
		// Compared with the manifest as it is under the write lock: another
		// process may have indexed the file anew since the listing.
		if s, ok := manifest[l.File.Rel]; ok && l.Status == "" && s.hash == l.Hash {
			// Touched but not changed: remember the new stat, keep the items.
			st.Unchanged++
			s.size, s.mtime = l.File.Size, l.File.ModTime
			manifest[l.File.Rel] = s
			_, err := tx.ExecContext(ctx, `UPDATE files SET size=?, mtime=? WHERE id=?`, l.File.Size, l.File.ModTime, s.id)
			return err
		}
		note(&st, l, ix.opts)
		if s, ok := manifest[l.File.Rel]; ok {
			if err := w.update(ctx, s.id, l); err != nil {
				return fmt.Errorf("update %s: %w", l.File.Rel, err)
			}
			manifest[l.File.Rel] = storedFile{id: s.id, size: l.File.Size, mtime: l.File.ModTime, hash: l.Hash}
			return nil
		}
		if err := deleteFile(ctx, tx, l.File.Rel); err != nil {
			return err
		}
		if err := w.add(ctx, l); err != nil {
			return err
		}
		s := storedFile{size: l.File.Size, mtime: l.File.ModTime, hash: l.Hash}
		if err := tx.QueryRowContext(ctx, `SELECT id FROM files WHERE path = ?`, l.File.Rel).Scan(&s.id); err != nil {
			return err
		}
		manifest[l.File.Rel] = s
		return nil
	})
	if err != nil {
		return st, ix.wrapErr(err)
	}
	if err := w.flush(ctx); err != nil {
		return st, ix.wrapErr(err)
	}
	if err := writeSummaries(ctx, tx, manifest); err != nil {
		return st, ix.wrapErr(err)
	}
	if _, err := tx.ExecContext(ctx, ftsMerge); err != nil {
		return st, ix.wrapErr(err)
	}
	if err := tx.Commit(); err != nil {
		return st, ix.wrapErr(err)
	}
	ix.forgetCaches()
	if epoch != nil {
		ix.fresh.checked(files, version, *epoch)
	}
	st.Items = w.count
	st.Duration = time.Since(start)
	return st, nil
}

// stillGone keeps of the paths a listing did not find those a listing
// taken now does not find either. Checks overlap in a long-lived process,
// and a listing taken before a file was made, applied after another
// check indexed that file, would remove it from the index: a recall in
// between missed the file, written before it began. Under the write lock
// no other check commits, so a listing taken there is the newest; files
// are rarely deleted, so it is rarely taken. If it fails, the paths stay
// as they were.
func stillGone(ws string, gone []string) []string {
	files, _, err := workspace.List(ws)
	if err != nil {
		return gone
	}
	listed := make(map[string]bool, len(files))
	for _, f := range files {
		listed[f.Rel] = true
	}
	return slices.DeleteFunc(gone, func(p string) bool { return listed[p] })
}

// diffResult is the freshness check: what the disk holds against what the
// index saw.
type diffResult struct {
	files   []workspace.File
	skipped []workspace.Skipped
	stored  *manifest
	todo    []workspace.File // new, or stat differs
	gone    []string         // indexed, no longer on disk
	// settle are racy files whose content is still the indexed one and
	// that are racy no more: a sync stores their mtime at last, without
	// reading them again, and status does not count them as pending
	// (nothing in them changed).
	settle []workspace.File
}

func (ix *Index) diff(ctx context.Context, l listing) (diffResult, error) {
	var d diffResult
	var err error
	if d.files, d.skipped, err = l.files, l.skipped, l.err; err != nil {
		return d, err
	}
	if d.stored, err = ix.storedFiles(ctx); err != nil {
		return d, ix.wrapErr(err)
	}
	var rd *workspace.Reader // for racy files, opened at the first
	defer func() {
		if rd != nil {
			rd.Close()
		}
	}()
	// Both lists are sorted by path (workspace.List sorts its own).
	if !slices.IsSortedFunc(d.files, func(a, b workspace.File) int { return strings.Compare(a.Rel, b.Rel) }) {
		d.files = slices.Clone(d.files)
		slices.SortFunc(d.files, func(a, b workspace.File) int { return strings.Compare(a.Rel, b.Rel) })
	}
	listed := make([]string, len(d.files))
	for i, f := range d.files {
		listed[i] = f.Rel
	}
	joinPaths(listed, d.stored.paths, func(i, j int) {
		switch {
		case i < 0:
			d.gone = append(d.gone, d.stored.paths[j])
		case j < 0:
			d.todo = append(d.todo, d.files[i])
		default:
			s, f := d.stored.vals[j], d.files[i]
			switch {
			case s.mtime == racyMtime && s.size == f.Size:
				switch same, racy := ix.sameContent(&rd, f, s.hash, l.at); {
				case !same:
					d.todo = append(d.todo, f)
				case !racy:
					d.settle = append(d.settle, f)
				}
			case s.size != f.Size || s.mtime != f.ModTime:
				d.todo = append(d.todo, f)
			}
		}
	})
	return d, nil
}

// A file written twice within the granularity of its file system's
// timestamps (a second on some, a clock tick of a few milliseconds on
// Linux's own, which take the time at the last tick) may keep its size
// and mtime: a check of size and mtime alone would keep the first
// content indexed, and a recall would miss the second, although its
// write completed before the recall began (it did, about once in 500
// rewrites of a log under a server). So a file whose mtime is too close
// to the moment it was listed to tell a later write apart is "racy" (as
// git names its own case of this): the index stores racyMtime for it,
// and each check compares its content's hash instead, until a check
// finds its mtime old enough to store.

// racyMtime is the mtime stored for a racy file. No file has it.
const racyMtime = math.MinInt64

// racyWindow bounds how far behind the clock a file system's timestamps
// may be: FAT's are in steps of two seconds, ext3's and HFS+'s of one,
// Linux's in clock ticks (at most 10 ms).
const racyWindow = 2 * time.Second

// markRacy stores racyMtime for the files, listed from at on, whose mtime
// is too close to at: a later write may leave it as it is.
func markRacy(files []workspace.File, at time.Time) {
	limit := at.Add(-racyWindow).UnixNano()
	for i := range files {
		if files[i].ModTime > limit {
			files[i].ModTime = racyMtime
		}
	}
}

// sameContent reports whether the file f, stored as racy and listed from
// at on, still holds the content of the hash stored for it, and whether it
// is still racy (when it is no longer, the sync that reads it stores its
// mtime at last). It reads the file, as the sync would: only files
// written in the last seconds are racy.
func (ix *Index) sameContent(rd **workspace.Reader, f workspace.File, hash string, at time.Time) (same, racy bool) {
	racy = f.ModTime > at.Add(-racyWindow).UnixNano()
	if hash == "" || f.Size > ix.opts.rows().MaxSize() {
		return false, racy
	}
	// Read as the sync would read it (ingest.Load): through the
	// workspace's reader, which refuses what is not a memory file; one
	// reader for the check's files (*rd, opened at the first).
	if *rd == nil {
		r, err := workspace.NewReader(ix.ws)
		if err != nil {
			return false, racy
		}
		*rd = r
	}
	data, err := (*rd).ReadFile(f.Rel)
	return err == nil && ingest.HashBytes(data) == hash, racy
}

// wrapErr names the index in an error, and marks SQLite's report of a
// damaged file or a broken handle on it (unusable) with memory.ErrCorrupt.
func (ix *Index) wrapErr(err error) error {
	if errors.Is(err, memory.ErrCorrupt) {
		return fmt.Errorf("index %s: %w", ix.path, err)
	}
	// Unusable, or failing because a Reopen that failed left the database
	// closed, or because one under way closed it: the remedy is to open or
	// build it again, or to wait for the one under way (the caller's
	// repair waits for it, then asks again).
	if unusable(err) || ix.lost.Load() != nil || ix.reopening.Load() {
		return fmt.Errorf("index %s: %w: %w", ix.path, memory.ErrCorrupt, err)
	}
	return fmt.Errorf("index %s: %w", ix.path, err)
}

// deleteFile drops a file and everything derived from it. The full-text
// rows go through FTS5's delete command, with the rows ftsRows made of
// the file's items when they were written: FTS5 then takes their tokens
// out of its statistics too (a plain DELETE on a contentless table left
// the row and token counts of deleted rows in bm25's averages).
func deleteFile(ctx context.Context, tx *sql.Tx, path string) error {
	var id int64
	err := tx.QueryRowContext(ctx, `SELECT id FROM files WHERE path=?`, path).Scan(&id)
	if err == sql.ErrNoRows {
		return nil
	}
	if err != nil {
		return err
	}
	ids, _, doc, err := storedItems(ctx, tx, id)
	if err != nil {
		return fmt.Errorf("delete %s: %w", path, err)
	}
	if err := deleteItemsFTS(ctx, tx, ids, doc, nil); err != nil {
		return fmt.Errorf("delete %s: full-text: %w", path, err)
	}
	if err := deleteItemEntities(ctx, tx, ids, doc, nil); err != nil {
		return fmt.Errorf("delete %s: %w", path, err)
	}
	for _, q := range []string{
		`DELETE FROM items WHERE file_id=?1`,
		`DELETE FROM entity_pages WHERE file_id=?1`,
		`DELETE FROM entity_names WHERE file_id=?1`,
		`DELETE FROM files WHERE id=?1`,
	} {
		if _, err := tx.ExecContext(ctx, q, id); err != nil {
			return fmt.Errorf("delete %s: %w", path, err)
		}
	}
	return nil
}

// storedItems reads a file's items back in the order the writer numbers
// them (the facts, then the passages, each in line order): their ids, the
// digests of their columns, and in doc what eachFTSRow needs to make their
// full-text rows again exactly as they were inserted.
func storedItems(ctx context.Context, tx *sql.Tx, fileID int64) (ids []int64, digests []itemKey, doc *memory.Document, err error) {
	rows, err := tx.QueryContext(ctx, `SELECT id, kind, fact_id, confidence, start_line, end_line, day, event_end, `+sectionColumn+`, entities, content, text_hash, status
		FROM items i WHERE file_id = ? ORDER BY kind = `+kindPassageSQL+`, start_line, id`, fileID)
	if err != nil {
		return nil, nil, nil, err
	}
	defer rows.Close()
	doc = &memory.Document{}
	for rows.Next() {
		var id int64
		var it ingest.Item
		var kind, day, eventEnd, hash, status int64
		var factID sql.NullString
		var conf sql.NullFloat64
		if err := rows.Scan(&id, &kind, &factID, &conf, &it.Start, &it.End, &day, &eventEnd, &it.Section, &it.Entities, &it.Content, &hash, &status); err != nil {
			return nil, nil, nil, err
		}
		it.Kind, it.FactID, it.Conf, it.HasConf, it.Status = kindOf(kind), factID.String, conf.Float64, conf.Valid, statusOf(status)
		it.Day, it.EventEnd, it.TextHash = dayText(day), dayText(eventEnd), hashText(hash)
		var ents []string
		if it.Entities != "" {
			ents = strings.Fields(it.Entities)
		}
		if it.Kind == memory.KindPassage {
			doc.Passages = append(doc.Passages, memory.Passage{Text: it.Content, Section: it.Section, Entities: ents})
		} else {
			doc.Facts = append(doc.Facts, memory.Fact{Text: it.Content, Entities: ents})
		}
		ids = append(ids, id)
		digests = append(digests, digest(&it))
	}
	return ids, digests, doc, rows.Err()
}

// deleteItemEntities deletes the entity links of the stored items (those
// gone says, or all) by their keys in item_entities' primary key, from the
// entities the items name: an index on item_id would cost 1% of the
// index for these deletes alone.
func deleteItemEntities(ctx context.Context, tx *sql.Tx, ids []int64, doc *memory.Document, gone func(i int) bool) error {
	st, err := tx.PrepareContext(ctx, `DELETE FROM item_entities WHERE slug_key = ? AND item_id = ?`)
	if err != nil {
		return err
	}
	defer st.Close()
	for i, id := range ids {
		if gone != nil && !gone(i) {
			continue
		}
		for _, e := range strings.Fields(ingest.DocItem(doc, i).Entities) { // as addItem linked them
			if _, err := st.ExecContext(ctx, strings.ToLower(e), id); err != nil {
				return err
			}
		}
	}
	return nil
}

// deleteItemsFTS deletes the full-text rows of the stored items (those
// gone says, or all) through FTS5's delete command, which needs the rows
// as they were inserted.
func deleteItemsFTS(ctx context.Context, tx *sql.Tx, ids []int64, doc *memory.Document, gone func(i int) bool) error {
	del, err := newBatch(ctx, tx, `INSERT INTO items_fts(items_fts, rowid, content, section, entities, context) VALUES`, 6)
	if err != nil {
		return err
	}
	err = ingest.EachRow(doc, func(i int, r ingest.Row) error {
		if gone != nil && !gone(i) {
			return nil
		}
		return del.add(ctx, tx, "delete", ids[i], r.Content, r.Section, r.Entities, r.Context)
	})
	if err != nil {
		return err
	}
	return del.flush(ctx, tx)
}

// update writes a changed file that is indexed already, in place: its file
// row and entity page are written again, and of its items only those that
// differ from the stored ones in any column (their full-text row
// included) are deleted or inserted; the others keep their rows and ids.
// Appending a fact to a daily log of a million lines writes the new
// fact, not the million (it rewrote them all, holding the write lock for
// half a minute).
func (w *writer) update(ctx context.Context, fileID int64, l ingest.Loaded) error {
	f := l.File
	day := ""
	if l.Doc != nil {
		day = ingest.DayString(l.Doc.Date)
	}
	if _, err := w.tx.ExecContext(ctx, `UPDATE files SET kind=?, day=?, size=?, mtime=?, hash=?, lines=?, status=? WHERE id=?`,
		string(f.Kind), day, f.Size, f.ModTime, l.Hash, l.Lines, l.Status, fileID); err != nil {
		return err
	}
	for _, q := range []string{`DELETE FROM entity_pages WHERE file_id=?`, `DELETE FROM entity_names WHERE file_id=?`} {
		if _, err := w.tx.ExecContext(ctx, q, fileID); err != nil {
			return err
		}
	}
	oldIDs, digests, oldDoc, err := storedItems(ctx, w.tx, fileID)
	if err != nil {
		return err
	}
	// The stored items by key; an item of the new document with the same
	// key takes one of them over.
	// Equal keys (the same line twice cannot be, but a file may hold two
	// identical items after all) are chained through same.
	stored := make(map[itemKey]int32, len(oldIDs))
	same := make([]int32, len(oldIDs))
	ingest.EachRow(oldDoc, func(i int, r ingest.Row) error {
		k := digests[i].key(r)
		if j, ok := stored[k]; ok {
			same[i] = j
		} else {
			same[i] = -1
		}
		stored[k] = int32(i)
		return nil
	})
	digests = nil
	doc := l.Doc
	if doc == nil {
		doc = &memory.Document{}
	}
	kept := make([]bool, len(oldIDs))
	var fresh []bool // the new document's items to insert
	ingest.EachRow(doc, func(i int, r ingest.Row) error {
		it := ingest.DocItem(doc, i)
		k := digest(&it).key(r)
		j, ok := stored[k]
		if ok {
			kept[j] = true
			if same[j] >= 0 {
				stored[k] = same[j]
			} else {
				delete(stored, k)
			}
		}
		fresh = append(fresh, !ok)
		return nil
	})
	if err := deleteItemsFTS(ctx, w.tx, oldIDs, oldDoc, func(i int) bool { return !kept[i] }); err != nil {
		return err
	}
	if err := deleteItemEntities(ctx, w.tx, oldIDs, oldDoc, func(i int) bool { return !kept[i] }); err != nil {
		return err
	}
	st, err := w.tx.PrepareContext(ctx, `DELETE FROM items WHERE id = ?`)
	if err != nil {
		return err
	}
	defer st.Close()
	for i, id := range oldIDs {
		if kept[i] {
			continue
		}
		if _, err := st.ExecContext(ctx, id); err != nil {
			return err
		}
	}
	if err := w.addDoc(ctx, fileID, doc, func(i int) bool { return fresh[i] }); err != nil {
		return err
	}
	return w.addEntity(ctx, fileID, doc.Entity)
}
