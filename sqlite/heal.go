package sqlite

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"memoria/memory"
	"memoria/workspace"
)

// A long-lived process (memoria serve, watch, a program using the library)
// keeps the index open for days, and the derived files under it may be
// damaged meanwhile: the -shm truncated or overwritten, the -wal
// overwritten, .memory/ deleted, the file replaced by another process's
// rebuild. A one-shot command opens the files afresh and heals at Open;
// a long-lived one must find the damage in its calls' errors (unusable,
// checkFile) and heal through Reopen and RebuildDamaged, which the
// workspace calls (memoria.Workspace's repairing).

// SQLite's primary result codes that say the database cannot be used as
// it is open (sqlite3.h): its file is damaged (CORRUPT, NOTADB), cannot
// be read or written as opened (IOERR and its extended codes, such as
// IOERR_IN_PAGE for a truncated -shm, or CANTOPEN), or was moved or
// deleted under the connection (READONLY_DBMOVED, an extended code).
const (
	sqliteIOErr          = 10
	sqliteCantOpen       = 14
	sqliteReadonlyMoved  = 8 | 4<<8
	sqliteCodeMask       = 0xff
	sqliteExtendedMask   = 0xffff
	sqlitePrimaryCorrupt = sqliteCorrupt
)

// unusable reports whether err says the open database cannot serve: the
// damage isCorrupt recognises, or a broken handle that opening the file
// again may mend.
func unusable(err error) bool {
	var se sqliteError
	if !errors.As(err, &se) {
		return false
	}
	switch se.Code() & sqliteCodeMask {
	case sqlitePrimaryCorrupt, sqliteNotADB, sqliteIOErr, sqliteCantOpen:
		return true
	}
	return se.Code()&sqliteExtendedMask == sqliteReadonlyMoved
}

// errFileChanged is checkFile's finding.
var errFileChanged = errors.New("the file was replaced or removed since it was opened")

// checkFile reports, as damage, an index path that no longer names the
// file the database was opened on: deleted (rm -rf .memory), or replaced
// by a rebuild in another process that found it corrupt. The database
// would go on reading a file no one else sees. One stat, on every check
// of freshness.
func (ix *Index) checkFile() error {
	if p := ix.lost.Load(); p != nil {
		return fmt.Errorf("%w, and opening it again failed: %w", memory.ErrCorrupt, *p) // *p names the index
	}
	opened := ix.file.Load()
	if opened == nil {
		return nil
	}
	fi, err := os.Stat(ix.path)
	switch {
	case err == nil && os.SameFile(fi, *opened):
		return nil
	case err != nil && !errors.Is(err, os.ErrNotExist):
		// Not there as it was either (its folder replaced by a file, made
		// unreadable): opening it again is the remedy, or says why not.
		return fmt.Errorf("index %s: %w: %w", ix.path, memory.ErrCorrupt, err)
	}
	return fmt.Errorf("index %s: %w: %w", ix.path, memory.ErrCorrupt, errFileChanged)
}

// Opened counts the openings of the index's database. A caller whose call
// failed after the count moved had its database closed under it by a
// Reopen or RebuildDamaged, and may ask again.
func (ix *Index) Opened() int64 { return ix.opened.Load() }

// Reopen closes the index's database and opens the file at its path
// again, or builds one from the Markdown where there is none usable (as
// Open does): for a long-lived process whose calls found the index
// unusable (their errors wrap memory.ErrCorrupt). Opening afresh mends
// what was wrong with the connection rather than the file: a -shm
// truncated or overwritten (SQLite maps it afresh, and rebuilds it from
// the -wal when no other process has it open), a file replaced or
// deleted. Calls in progress on the old database fail, closed: Opened
// tells their callers to ask again. If it fails, calls fail as damaged
// until a later Reopen or RebuildDamaged succeeds.
func (ix *Index) Reopen(ctx context.Context) error {
	ix.reopenMu.Lock()
	defer ix.reopenMu.Unlock()
	ix.reopening.Store(true)
	defer ix.reopening.Store(false)
	ix.closeDB()
	if _, err := os.Stat(ix.path); errors.Is(err, os.ErrNotExist) {
		ix.opts.warn("index %s was removed; building it again from the Markdown", ix.path)
	}
	err := ix.reopenDir()
	if err == nil {
		err = ix.open(ctx, true)
	}
	if err == nil {
		// The vectors beside the index went with it (rm -rf .memory):
		// their store is opened again too, afresh where it is gone.
		err = ix.vec.Reopen(ctx)
	}
	ix.fail(err)
	return err
}

// RebuildDamaged builds the index afresh from the Markdown and puts the
// new file in the place of the old one (not into it, as Rebuild does: the
// old file, its -wal or its -shm is what is damaged), then opens it: for
// damage that Reopen did not mend. Other processes find the file replaced
// at their next check and open the new one.
func (ix *Index) RebuildDamaged(ctx context.Context) (memory.Stats, error) {
	ix.reopenMu.Lock()
	defer ix.reopenMu.Unlock()
	ix.reopening.Store(true)
	defer ix.reopening.Store(false)
	ix.closeDB()
	if err := ix.reopenDir(); err != nil {
		ix.fail(err)
		return memory.Stats{}, err
	}
	st, err := ix.build(ctx, "corrupt")
	if err == nil {
		err = ix.vec.Reopen(ctx)
	}
	ix.fail(err)
	return st, err
}

// reopenDir makes the index folder again where it was deleted.
func (ix *Index) reopenDir() error {
	dir := filepath.Dir(ix.path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("index %s: %w", ix.path, err)
	}
	if dir == filepath.Join(ix.ws, workspace.IndexDir) {
		workspace.IgnoreIndexDir(dir) // best effort, as at Open
	}
	return nil
}

// fail records why the database is not open after a failed Reopen or
// RebuildDamaged (nil: it is).
func (ix *Index) fail(err error) {
	if err == nil {
		ix.lost.Store(nil)
		return
	}
	ix.closeDB() // whatever was opened before the failure
	ix.lost.Store(&err)
}
