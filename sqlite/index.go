package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	msqlite "modernc.org/sqlite" // also registers the "sqlite" driver

	"memoria/flock"
	"memoria/ingest"
	"memoria/memory"
	"memoria/vector"
	"memoria/workspace"
)

// Options tune the index. The zero value is ready to use.
type Options struct {
	PassageLines int                   // longest passage in lines; 0 means ingest.DefaultPassageLines
	MaxFileSize  int64                 // larger files are skipped; 0 means ingest.DefaultMaxFileSize
	Warn         func(msg string)      // receives one-line warnings; nil discards them
	Progress     func(done, total int) // called while a build parses files; may be nil
	// BoundMemory has a rebuild set the process's soft memory limit
	// (runtime/debug.SetMemoryLimit) while it runs, unless one is set
	// already (GOMEMLIMIT): see boundMemory. A program that does little
	// else while it builds, as the CLI, keeps its peak memory lower for
	// a little more time collecting garbage.
	BoundMemory bool
	// Vector tunes the vector store beside the index (its Warn defaults
	// to Warn).
	Vector vector.Options
}

// rows are the options of the rows this index is made of.
func (o Options) rows() ingest.Options {
	return ingest.Options{PassageLines: o.PassageLines, MaxFileSize: o.MaxFileSize}
}

func (o Options) warn(format string, args ...any) {
	if o.Warn != nil {
		o.Warn(fmt.Sprintf(format, args...))
	}
}

// Index is an open derived index of one workspace. It is safe for
// concurrent use: database/sql serialises the queries on its one
// connection, and the caches below have their own locks.
type Index struct {
	// dbp is the open database. Reopen swaps it while other goroutines
	// query the old one (which then fail, closed, and are asked again by
	// the caller: Opened tells it the index was opened anew meanwhile).
	dbp  atomic.Pointer[sql.DB]
	ws   string // workspace folder
	path string // index file
	opts Options

	// file is the index file the database was opened on (os.Stat before
	// the opening): the path naming another file, or none, means another
	// process replaced the index or someone deleted it, and this one
	// reads a file no one else sees (checkFile).
	file atomic.Pointer[os.FileInfo]
	// opened counts the openings of the database (openExisting), so that
	// a caller can tell an error of a database closed under it from one of
	// the database it would be asked again on.
	opened atomic.Int64
	// lost is why the database is not open, after a Reopen that failed:
	// every call fails with it (as damage, memory.ErrCorrupt) until one
	// succeeds.
	lost atomic.Pointer[error]
	// reopenMu serialises Reopen and RebuildDamaged; reopening is set
	// while one runs, so that the calls it makes fail (their database
	// closed under them) say the index is being repaired (wrapErr).
	reopenMu  sync.Mutex
	reopening atomic.Bool

	stmts stmtCache // db's prepared statements

	// scorer is a second connection, opened at the second large search
	// (scorerReady), that ranks half of a large search's rows while db
	// ranks the other (searchSplit).
	scorerMu      sync.Mutex
	scorer        *sql.DB
	scorerStmts   stmtCache
	scorerOpening bool         // scorerReady started opening it
	scorerAsked   int          // times scorerReady was asked while it was closed
	searching     atomic.Int32 // unfiltered searches running (Search)
	splitPaused   atomic.Int32 // searches left before one may split again (splitBackoff)
	fresh         freshness    // lets a long-lived process skip the freshness check
	terms         queryTerms   // query words cut by the index's tokenizer
	counts        docCounts    // rows per term, while the database is unchanged

	// writes counts this Index's own commits (forgetCaches), which
	// PRAGMA data_version does not show to the connection that made them:
	// a query that ran while another goroutine committed is asked again
	// (SyncAround).
	writes atomic.Int64

	manifestMu      sync.Mutex
	manifestVersion int64 // PRAGMA data_version when manifest was read (storedFiles)
	manifest        *manifest

	namesMu   sync.Mutex
	names     []memory.KnownName // EntityNames's last answer, and the text it was decoded from
	namesText string

	// The vector store of semantic recall, beside the index: a file of its
	// own, so that a rebuild of the index keeps the vectors.
	vec *vector.Store

	// beforeReplace, when set (by tests), runs between a rebuild's build
	// and its replace: what another process does in that window is what
	// read-after-write must survive.
	beforeReplace func()

	// Rebuilt says why Open had to build the index from scratch ("" if it
	// did not): "new", "corrupt", "foreign" or "outdated".
	Rebuilt string
	// BuildStats describes that build.
	BuildStats memory.Stats
}

// Open opens (creating or rebuilding as needed) the index of the workspace
// in dir at dir/.memory/index.sqlite.
func Open(ctx context.Context, dir string, opts Options) (*Index, error) {
	return OpenAt(ctx, dir, filepath.Join(dir, filepath.FromSlash(workspace.IndexFile)), opts)
}

// OpenAt is Open with the index file somewhere else, for workspaces that
// are read-only (evaluation sets) or kept apart from their index.
func OpenAt(ctx context.Context, dir, indexPath string, opts Options) (*Index, error) {
	if err := workspace.Check(dir); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(indexPath), 0o755); err != nil {
		return nil, fmt.Errorf("index %s: %w", indexPath, err)
	}
	if filepath.Dir(indexPath) == filepath.Join(dir, workspace.IndexDir) {
		// Best effort: a read-only index folder is no reason to fail.
		workspace.IgnoreIndexDir(filepath.Dir(indexPath))
	}
	ix := &Index{ws: dir, path: indexPath, opts: opts}
	removeLeftovers(indexPath)
	vo := opts.Vector
	if vo.Warn == nil {
		vo.Warn = opts.Warn
	}
	vs, err := vector.Open(ctx, indexPath+".vectors", indexPath+".hnsw", vo)
	if err != nil {
		return nil, err
	}
	ix.vec = vs
	if err := ix.open(ctx, false); err != nil {
		ix.Close()
		return nil, err
	}
	return ix, nil
}

// open opens the index file, or builds it when there is none usable.
//
// healing (Reopen) takes a file that cannot even be checked (SQLite says
// it unusable: a disk I/O error on its -wal or -shm) for a corrupt one:
// it is built again rather than left failing.
func (ix *Index) open(ctx context.Context, healing bool) error {
	reason, err := ix.openHealing(ctx, healing)
	if err != nil || reason == "" {
		return err
	}
	// Of several processes that find no usable index at once, one builds
	// it and the others use it: they wait on the index folder's lock (no
	// file of its own to leave behind) and look again.
	lock, err := flock.ExclusiveDir(filepath.Dir(ix.path), buildWait)
	if err != nil {
		return fmt.Errorf("index %s: %w", ix.path, err)
	}
	defer lock.Unlock()
	if reason, err = ix.openHealing(ctx, healing); err != nil || reason == "" {
		return err
	}
	switch reason {
	case "corrupt":
		ix.opts.warn("index %s is corrupt; rebuilding it from the Markdown", ix.path)
	case "foreign":
		ix.opts.warn("index %s is not a Memoria index; moving it aside to %s and building the index from the Markdown", ix.path, filepath.Base(ix.path+foreignSuffix))
	}
	st, err := ix.build(ctx, reason)
	if err != nil {
		return err
	}
	ix.Rebuilt, ix.BuildStats = reason, st
	return nil
}

// openHealing is openExisting, with an unusable file taken for a
// corrupt one when healing (open).
func (ix *Index) openHealing(ctx context.Context, healing bool) (string, error) {
	reason, err := ix.openExisting(ctx)
	if healing && unusable(err) {
		ix.opts.warn("index %s cannot be opened (%v); rebuilding it from the Markdown", ix.path, err)
		return "corrupt", nil
	}
	return reason, err
}

// foreignSuffix names the file a foreign database found at the index's
// path is moved to.
const foreignSuffix = ".foreign"

// buildWait bounds how long Open waits for another process that builds
// the index.
const buildWait = 2 * time.Minute

// db is the open database.
func (ix *Index) db() *sql.DB { return ix.dbp.Load() }

// Path is the index file's path.
func (ix *Index) Path() string { return ix.path }

// Workspace is the workspace folder the index derives from.
func (ix *Index) Workspace() string { return ix.ws }

// Close releases the database.
func (ix *Index) Close() error {
	err := ix.closeDB()
	return errors.Join(err, ix.fresh.close(), ix.vec.Close())
}

func dsn(path string, pragmas ...string) string {
	v := url.Values{}
	for _, p := range pragmas {
		v.Add("_pragma", p)
	}
	v.Set("_txlock", "immediate")
	return "file:" + (&url.URL{Path: path}).EscapedPath() + "?" + v.Encode()
}

// openExisting opens the index file and checks it is a current Memoria
// index. It returns a rebuild reason, or "" when the file is usable.
func (ix *Index) openExisting(ctx context.Context) (string, error) {
	// Stat before the opening: if another process replaces the file in
	// between, checkFile finds the path's file differs from this one and
	// the index is opened again, rather than never.
	fi, statErr := os.Stat(ix.path)
	if errors.Is(statErr, os.ErrNotExist) {
		return "new", nil
	}
	// Reads are not memory-mapped: a truncation of the file under an open
	// read raised SIGBUS and killed the process; a read now fails, and the
	// damage is found and repaired.
	// A WAL file is kept (persistWAL) but emptied once checkpointed
	// (journal_size_limit 0): frames left in it would be found again by
	// the next process, and checkpointed again, with three fsyncs, at the
	// end of every one-shot recall.
	db, err := sql.Open("sqlite", dsn(ix.path, "busy_timeout(10000)", "journal_mode(WAL)", "synchronous(NORMAL)", "journal_size_limit(0)", "cache_size(-65536)", "temp_store(MEMORY)"))
	if err != nil {
		return "", fmt.Errorf("index %s: %w", ix.path, err)
	}
	db.SetMaxOpenConns(1)
	reason, err := check(ctx, db, ix.opts)
	if err != nil || reason != "" {
		db.Close()
		if isCorrupt(err) {
			return "corrupt", nil
		}
		return reason, err
	}
	ix.dbp.Store(db)
	ix.stmts.closeAll() // any prepared on the database before, in a race with closeDB
	if err := persistWAL(ctx, db, "main"); err != nil {
		ix.closeDB()
		return "", fmt.Errorf("index %s: %w", ix.path, err)
	}
	if statErr == nil {
		ix.file.Store(&fi)
	} else {
		ix.file.Store(nil) // cannot tell: checkFile does not look
	}
	// What was kept of the database before is of another file, or of this
	// one before its damage.
	ix.forgetCaches()
	ix.fresh.forget()
	ix.lost.Store(nil)
	ix.opened.Add(1)
	return "", nil
}

// persistWAL keeps the -wal and -shm files of the databases named when
// the last connection to them closes. Without it each one-shot process
// (memoria recall) made both files for the index and for the vector
// store, sized the shared memory page by page, and deleted all four at
// exit: a tenth of its time.
func persistWAL(ctx context.Context, db *sql.DB, names ...string) error {
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	return conn.Raw(func(dc any) error {
		fc, ok := dc.(msqlite.FileControl)
		if !ok {
			return nil
		}
		for _, name := range names {
			if _, err := fc.FileControlPersistWAL(name, 1); err != nil {
				return fmt.Errorf("persist WAL of %s: %w", name, err)
			}
		}
		return nil
	})
}

// check classifies an open database: "" when current, else a reason.
func check(ctx context.Context, db *sql.DB, o Options) (string, error) {
	var app int64
	if err := db.QueryRowContext(ctx, "PRAGMA application_id").Scan(&app); err != nil {
		return "", fmt.Errorf("check: %w", err)
	}
	if app != applicationID {
		var n int
		if err := db.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_schema").Scan(&n); err != nil {
			return "", fmt.Errorf("check: %w", err)
		}
		if n == 0 {
			return "new", nil // an empty file, e.g. left by a crash before the first build
		}
		return "foreign", nil
	}
	var id string
	err := db.QueryRowContext(ctx, "SELECT value FROM meta WHERE key='identity'").Scan(&id)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return "corrupt", nil
	case err != nil:
		return "", fmt.Errorf("check: %w", err)
	case id != identity(o):
		return "outdated", nil
	}
	return "", nil
}

// sqliteError is what modernc.org/sqlite's errors offer.
type sqliteError interface{ Code() int }

const (
	sqliteCorrupt = 11
	sqliteNotADB  = 26
)

func isCorrupt(err error) bool {
	var se sqliteError
	if errors.As(err, &se) {
		c := se.Code() & 0xff
		return c == sqliteCorrupt || c == sqliteNotADB
	}
	return false
}

// Rebuild builds the whole index afresh from the Markdown into a private
// file and puts it in place (replace): readers in other processes are
// never waited for, and go on reading the old content until it commits.
// If it fails, the index is as it was.
func (ix *Index) Rebuild(ctx context.Context) (memory.Stats, error) {
	return ix.build(ctx, "")
}

// build builds the index afresh; reason is why openExisting found the
// index unusable ("" when it is usable, for Rebuild).
func (ix *Index) build(ctx context.Context, reason string) (st memory.Stats, err error) {
	ix.fresh.forget()
	l := ix.list()
	files, skipped, err := l.files, l.skipped, l.err
	if err != nil {
		return st, err
	}
	markRacy(files, l.at)
	if ix.opts.BoundMemory {
		defer boundMemory(files)()
	}
	removeLeftovers(ix.path)
	tmp := fmt.Sprintf("%s%s%d", ix.path, buildSuffix, os.Getpid())
	defer removeDB(tmp)
	model, err := ix.vec.Model(ctx)
	if err != nil {
		return st, err
	}
	if st, err = build(ctx, tmp, ix.ws, files, skipped, ix.opts, model != ""); err != nil {
		return st, err
	}
	if ix.beforeReplace != nil {
		ix.beforeReplace()
	}
	if err := ix.replace(ctx, tmp, reason); err != nil {
		return st, fmt.Errorf("index %s: %w", ix.path, err)
	}
	// What was written to the Markdown while the build ran, and synced
	// into the live index by other processes, is older than the build
	// only in the index now: catch up at once (readers would at their next
	// check).
	if _, err := ix.sync(ctx, time.Now(), ix.list(), nil); err != nil {
		return st, err
	}
	return st, nil
}

// buildSuffix and the builder's pid name the private file a build writes
// beside the index.
const buildSuffix = ".build-"

// removeLeftovers removes the build files of processes that no longer run
// (killed in the middle of a build), and the files older versions kept
// beside the index: the postings snapshot, the lock, socket and release
// files of the recall server.
func removeLeftovers(path string) {
	matches, _ := filepath.Glob(path + buildSuffix + "*")
	for _, m := range matches {
		rest := strings.TrimSuffix(strings.TrimSuffix(m[len(path+buildSuffix):], "-journal"), "-wal")
		pid, err := strconv.Atoi(strings.TrimSuffix(rest, "-shm"))
		if err != nil || pid == os.Getpid() || processAlive(pid) {
			continue
		}
		os.Remove(m)
	}
	for _, old := range []string{".lex", ".lex.lock", ".lock", ".sock", ".release"} {
		os.Remove(path + old)
	}
}

// processAlive reports whether a process with this pid runs.
func processAlive(pid int) bool {
	p, err := os.FindProcess(pid)
	return err == nil && p.Signal(syscall.Signal(0)) == nil
}

// replace puts the freshly built index in tmp in place. Into a valid
// SQLite file (the live index, or an outdated or foreign one) it copies
// the pages with SQLite's backup API, in one write transaction: other
// processes keep the file open and see the new content when they next
// read, as after any write. Where there is no file, or a corrupt one (or
// one the backup cannot write, of another page size), the new file is
// linked in place of the old.
func (ix *Index) replace(ctx context.Context, tmp, reason string) error {
	if reason == "foreign" {
		// Not ours: another program's database at our path is kept, beside
		// it, rather than overwritten.
		ix.closeDB()
		for _, suffix := range []string{"", "-wal", "-shm", "-journal"} {
			os.Remove(ix.path + foreignSuffix + suffix)
			if err := os.Rename(ix.path+suffix, ix.path+foreignSuffix+suffix); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("move the foreign database aside: %w", err)
			}
		}
	}
	if reason != "new" && reason != "corrupt" && reason != "foreign" {
		db := ix.db()
		if db == nil {
			var err error
			if db, err = sql.Open("sqlite", dsn(ix.path, "busy_timeout(10000)")); err != nil {
				return err
			}
			defer db.Close()
		}
		err := restore(ctx, db, tmp)
		ix.forgetCaches()
		switch {
		case err == nil && ix.db() != nil:
			return nil
		case err == nil:
			return ix.reopen(ctx)
		case ctx.Err() != nil:
			return err
		case !isCorrupt(err):
			// A damaged file is expected here (the caller rebuilds because
			// of it, and has said so); anything else is news.
			ix.opts.warn("index %s: cannot update in place (%v); replacing the file", ix.path, err)
		}
	}
	ix.closeDB()
	removeDB(ix.path)
	if err := os.Link(tmp, ix.path); err != nil {
		return err
	}
	return ix.reopen(ctx)
}

// reopen opens the index file after replace put a new one in place.
func (ix *Index) reopen(ctx context.Context) error {
	reason, err := ix.openExisting(ctx)
	if err == nil && reason != "" {
		err = fmt.Errorf("freshly built index is %s", reason)
	}
	return err
}

// restore copies the database in path over db's main database, in one
// transaction.
func restore(ctx context.Context, db *sql.DB, path string) error {
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	return conn.Raw(func(dc any) error {
		r, ok := dc.(interface {
			NewRestore(string) (*msqlite.Backup, error)
		})
		if !ok {
			return errors.New("the SQLite driver has no backup API")
		}
		b, err := r.NewRestore("file:" + (&url.URL{Path: path}).EscapedPath() + "?mode=ro")
		if err != nil {
			return err
		}
		_, err = b.Step(-1)
		return errors.Join(err, b.Finish())
	})
}

// removeDB deletes a database file and its WAL companions.
func removeDB(path string) {
	for _, suffix := range []string{"", "-wal", "-shm", "-journal"} {
		os.Remove(path + suffix)
	}
}

// closeDB closes the database. ix.db() stays set, closed: a call after a
// failed replace fails with database/sql's error instead of a nil pointer.
func (ix *Index) closeDB() error {
	ix.stmts.closeAll()
	var scorerErr error
	ix.scorerMu.Lock()
	ix.scorerOpening = false
	if ix.scorer != nil {
		ix.scorerStmts.closeAll()
		scorerErr = ix.scorer.Close()
		ix.scorer = nil
	}
	ix.scorerMu.Unlock()
	if ix.db() == nil {
		return scorerErr
	}
	return errors.Join(ix.db().Close(), scorerErr)
}

// scorerReady reports whether the second connection is open. The second
// call opens it in the background and answers false: a one-shot process
// (memoria recall, one search) would wait for the connection longer than
// the split saves it, or open it for nothing; a long-lived one has it
// from its third search on.
func (ix *Index) scorerReady() bool {
	ix.scorerMu.Lock()
	defer ix.scorerMu.Unlock()
	if ix.scorer != nil || ix.scorerOpening || ix.db() == nil {
		return ix.scorer != nil
	}
	if ix.scorerAsked++; ix.scorerAsked < 2 {
		return false
	}
	ix.scorerOpening = true
	go ix.openScorer()
	return false
}

// openScorer opens the second connection, unless closeDB came first. A
// failure leaves searches on one connection.
func (ix *Index) openScorer() {
	ix.scorerMu.Lock()
	defer ix.scorerMu.Unlock()
	if !ix.scorerOpening {
		return // closed meanwhile
	}
	ix.scorerOpening = false
	db, err := sql.Open("sqlite", dsn(ix.path, "busy_timeout(10000)", "cache_size(-65536)", "temp_store(MEMORY)", "query_only(1)"))
	if err != nil {
		return
	}
	db.SetMaxOpenConns(1)
	if err := db.PingContext(context.Background()); err != nil {
		db.Close()
		return
	}
	ix.scorer = db
}

// readScorer is read on the second connection (scorerReady). It is
// closed with db (closeDB), so that a replaced index file is never read
// through it.
func (ix *Index) readScorer(ctx context.Context, q string, args []any, each func(*sql.Rows) error) error {
	// Under scorerMu, so that closeDB cannot close the connection between
	// the statement's preparing and its caching.
	ix.scorerMu.Lock()
	db := ix.scorer
	if db == nil {
		ix.scorerMu.Unlock()
		return fmt.Errorf("index %s: the second connection is closed", ix.path)
	}
	st, err := ix.scorerStmts.prepared(ctx, db, q)
	ix.scorerMu.Unlock()
	if err != nil {
		return err
	}
	return readTx(ctx, db, st, args, each)
}

// stmtCache keeps a database's prepared statements by their SQL, each
// prepared once: SQLite's parser is a visible share of a recall's time
// otherwise. It is safe for concurrent use (the MCP server recalls
// concurrently).
type stmtCache struct {
	mu    sync.Mutex
	stmts map[string]*sql.Stmt
}

// prepared returns db's statement for q, preparing it the first time.
func (c *stmtCache) prepared(ctx context.Context, db *sql.DB, q string) (*sql.Stmt, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if st, ok := c.stmts[q]; ok {
		return st, nil
	}
	st, err := db.PrepareContext(ctx, q)
	if err != nil {
		return nil, err
	}
	if c.stmts == nil {
		c.stmts = map[string]*sql.Stmt{}
	}
	c.stmts[q] = st
	return st, nil
}

// closeAll closes and forgets the statements, before their database
// closes.
func (c *stmtCache) closeAll() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, st := range c.stmts {
		st.Close()
	}
	c.stmts = nil
}

// prepared returns the index's statement for q (stmtCache).
func (ix *Index) prepared(ctx context.Context, q string) (*sql.Stmt, error) {
	return ix.stmts.prepared(ctx, ix.db(), q)
}

// query runs a read query through the statement cache.
func (ix *Index) query(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	st, err := ix.prepared(ctx, q)
	if err != nil {
		return nil, err
	}
	return st.QueryContext(ctx, args...)
}

// read runs a read query in a transaction of its own (readTx) and
// hands each row to each.
func (ix *Index) read(ctx context.Context, q string, args []any, each func(*sql.Rows) error) error {
	st, err := ix.prepared(ctx, q)
	if err != nil {
		return err
	}
	return readTx(ctx, ix.db(), st, args, each)
}

// readTx runs db's statement st inside a read transaction and hands
// each row to each. Only the large full-text rankings need it: FTS5
// reads each row's column sizes for bm25 with a statement of its own,
// and outside a transaction SQLite ends each of those as if it could be
// the last, a few per cent of the ranking. each must not query the
// index: the transaction holds the connection.
func readTx(ctx context.Context, db *sql.DB, st *sql.Stmt, args []any, each func(*sql.Rows) error) error {
	// Read only, it begins as BEGIN DEFERRED, not the writers' BEGIN
	// IMMEDIATE (dsn), and takes no write lock.
	tx, err := db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return err
	}
	defer tx.Rollback() // nothing was written
	rows, err := tx.StmtContext(ctx, st).QueryContext(ctx, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := each(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}

// queryRow is query for a single row.
func (ix *Index) queryRow(ctx context.Context, q string, args ...any) *sql.Row {
	st, err := ix.prepared(ctx, q)
	if err != nil {
		// Let the error surface from Scan, as database/sql does.
		return ix.db().QueryRowContext(ctx, q, args...)
	}
	return st.QueryRowContext(ctx, args...)
}

// The SQLite index is a memory.Store.
var _ memory.Store = (*Index)(nil)
