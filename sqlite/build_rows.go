package sqlite

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"

	msqlite "modernc.org/sqlite"
	"modernc.org/sqlite/vtab"
)

// A build passes rows it has at hand (the full-text index's %_idx rows;
// every other table is written as B-trees, build_trees.go) to SQLite
// through a virtual table whose cursor reads them from a Go slice: one
// INSERT … SELECT takes them all, which costs much less than statements
// binding a row or a batch of rows at a time (database/sql converts and binds every
// value, and SQLite locks its mutex for every bind). The module is
// registered on a driver of this package's own (rowsDriver), used only to
// open the files a build writes, so no other connection sees it.

const rowsModule = "memoria_build_rows"

var (
	rowsDriver   msqlite.Driver
	rowsRegister sync.Once
	rowsErr      error
)

// openBuildDB opens a database a build writes, at path, on rowsDriver,
// with the settings of a private file that is thrown away on failure:
// durability off while it is filled, a crash leaves only a temp file.
// The page cache is small (2 MB): without a journal, pages it lets go are
// written to the file at once and read back from the OS's cache when an
// index is made, and a 10-year build took as long as with 64 MB, for
// 30 MB less peak memory.
func openBuildDB(path string, pragmas ...string) (*sql.DB, error) {
	rowsRegister.Do(func() { rowsErr = rowsDriver.RegisterModule(rowsModule, rowsMod{}) })
	if rowsErr != nil {
		return nil, rowsErr
	}
	pragmas = append([]string{"journal_mode(OFF)", "synchronous(OFF)", "cache_size(-2048)", "locking_mode(EXCLUSIVE)", "temp_store(MEMORY)"}, pragmas...)
	db := sql.OpenDB(rowsConnector{dsn(path, pragmas...)})
	db.SetMaxOpenConns(1)
	return db, nil
}

type rowsConnector struct{ dsn string }

func (c rowsConnector) Connect(context.Context) (driver.Conn, error) { return rowsDriver.Open(c.dsn) }
func (c rowsConnector) Driver() driver.Driver                        { return &rowsDriver }

// rowBatch is rows a build_rows table yields.
type rowBatch interface {
	rows() int
	column(row, col int) vtab.Value
}

// rowSource is what one build_rows table reads.
type rowSource struct {
	decl string // the table's columns, as CREATE TABLE x(…)
	rows rowBatch
	used bool // a cursor has read it (rows are read once)
}

// sources are the row sources of the streams in progress, by the key
// their table is created with.
var sources sourceTable

type sourceTable struct {
	mu   sync.Mutex
	next int64
	m    map[int64]*rowSource
}

func (t *sourceTable) add(s *rowSource) int64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.m == nil {
		t.m = map[int64]*rowSource{}
	}
	t.next++
	t.m[t.next] = s
	return t.next
}

func (t *sourceTable) get(key int64) *rowSource {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.m[key]
}

func (t *sourceTable) remove(key int64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.m, key)
}

type rowsMod struct{}

func (rowsMod) Create(ctx vtab.Context, args []string) (vtab.Table, error) {
	return rowsMod{}.Connect(ctx, args)
}

func (rowsMod) Connect(ctx vtab.Context, args []string) (vtab.Table, error) {
	if len(args) != 4 {
		return nil, errors.New("build_rows: want one argument, the source key")
	}
	key, err := strconv.ParseInt(args[3], 10, 64)
	if err != nil {
		return nil, fmt.Errorf("build_rows: bad source key %q", args[3])
	}
	src := sources.get(key)
	if src == nil {
		return nil, fmt.Errorf("build_rows: no source %d", key)
	}
	if err := ctx.Declare(src.decl); err != nil {
		return nil, err
	}
	return &rowsTable{src: src}, nil
}

type rowsTable struct{ src *rowSource }

func (t *rowsTable) BestIndex(info *vtab.IndexInfo) error {
	info.EstimatedCost = 1e6
	info.EstimatedRows = 1e6
	return nil
}

func (t *rowsTable) Open() (vtab.Cursor, error) { return &rowsCursor{src: t.src}, nil }
func (t *rowsTable) Disconnect() error          { return nil }
func (t *rowsTable) Destroy() error             { return nil }

// rowsCursor walks the source's rows.
type rowsCursor struct {
	src  *rowSource
	n, i int
}

func (c *rowsCursor) Filter(int, string, []vtab.Value) error {
	if c.src.used {
		return errors.New("build_rows: rows already read")
	}
	c.src.used = true
	c.n, c.i = c.src.rows.rows(), 0
	return nil
}

func (c *rowsCursor) Next() error {
	c.i++
	return nil
}

func (c *rowsCursor) Eof() bool { return c.i >= c.n }

func (c *rowsCursor) Column(col int) (vtab.Value, error) {
	if c.i >= c.n {
		return nil, errors.New("build_rows: no row")
	}
	return c.src.rows.column(c.i, col), nil
}

func (c *rowsCursor) Rowid() (int64, error) { return int64(c.i), nil }
func (c *rowsCursor) Close() error          { return nil }

// streamRows runs query over the rows of b, which have cols columns:
// query names, with %s, a table of columns c0, c1, … that yields them.
// For rows at hand all at once, one statement costs much less than
// statements of a few rows bound through database/sql.
func streamRows(ctx context.Context, tx *sql.Tx, b rowBatch, cols int, query string) error {
	if b.rows() == 0 {
		return nil
	}
	const name = "build_rows_once"
	names := make([]string, cols)
	for i := range names {
		names[i] = "c" + strconv.Itoa(i)
	}
	key := sources.add(&rowSource{decl: `CREATE TABLE x(` + strings.Join(names, ", ") + `)`, rows: b})
	defer sources.remove(key)
	if _, err := tx.ExecContext(ctx, "CREATE VIRTUAL TABLE temp."+name+" USING "+rowsModule+"("+strconv.FormatInt(key, 10)+")"); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, fmt.Sprintf(query, name)); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, `DROP TABLE temp.`+name)
	return err
}
