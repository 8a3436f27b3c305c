package postgres

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/url"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Options tune a database connection. The zero value is ready to use.
type Options struct {
	// Warn receives one-line warnings (a lost connection being retried).
	Warn func(msg string)
	// RetryFor is how long an operation keeps retrying, with backoff, when
	// the connection drops or the server restarts; past it the error is
	// returned. 0 means DefaultRetryFor.
	RetryFor time.Duration
	// MaxConns bounds the pool; 0 means DefaultMaxConns.
	MaxConns int32
}

// DefaultRetryFor is how long a dropped connection is retried by default:
// long enough for a server restart or a failover.
const DefaultRetryFor = 30 * time.Second

// DefaultMaxConns is the pool's size by default: 4 per CPU, at least 32.
// pgxpool's own default (one per CPU, at least 4) queued a team server's
// concurrent recalls behind four connections; at 8, on two CPUs, recalls
// still queued behind syncs that held a connection while their commit
// waited for the disk (bench/team with 16 clients and 8 writers: 33
// recalls and 62 syncs a second, recall p50 486 ms; at 32: 48 and 95,
// 358 ms). A connection is opened only when one is needed, so that a
// command that makes one call opens one; PostgreSQL's max_connections
// (100 by default) must cover the team servers' pools.
func DefaultMaxConns() int32 { return int32(max(32, 4*runtime.NumCPU())) }

// openRetryFor bounds how long Open waits for a server that does not
// answer.
const openRetryFor = 10 * time.Second

// DB is a PostgreSQL database holding the indexes of many workspaces. It
// is safe for concurrent use; open it once per process and take a Store
// per workspace from it (Workspace).
type DB struct {
	pool *pgxpool.Pool
	url  string // without the password, for messages and status
	opts Options

	pgvector      bool        // the server offers the vector extension
	vectorColumn  bool        // memoria_vectors.emb exists: pgvector search (pgvector.go)
	vectorAdvice  string      // what an administrator runs to turn it on, when it is off but could be on
	indexedSearch bool        // full-text conditions may use the GIN index under row-level security (leakproofMatch)
	lost          atomic.Bool // a call failed on the connection and none got through since

	// allowed is, for each pooled connection, the workspaces its session
	// may see (memoria.workspaces), so that a read sets it only when the
	// connection last served other workspaces: one round trip per read
	// instead of four for a transaction that sets it locally.
	allowed sync.Map // *pgx.Conn → string

	lexMu    sync.Mutex
	lexCache map[string][]string // word → its terms (lexemes)

	scopeMu sync.Mutex
	scopes  map[string]*scopeCounts // a set of workspaces' ids (allowedList) → their term counts (Scope)
}

// Open connects to the database at url (postgres://…), brings its schema
// up to date and returns it.
func Open(ctx context.Context, rawURL string, o Options) (*DB, error) {
	shown := Redact(rawURL)
	cfg, err := pgxpool.ParseConfig(rawURL)
	if err != nil {
		return nil, fmt.Errorf("index %s: %w", shown, err)
	}
	cfg.MaxConns = cmp.Or(o.MaxConns, DefaultMaxConns())
	db := &DB{url: shown, opts: o}
	cfg.BeforeClose = func(c *pgx.Conn) { db.allowed.Delete(c) }
	// A placeholder until pgvector is loaded, its setting once it is.
	cfg.ConnConfig.RuntimeParams["hnsw.ef_search"] = strconv.Itoa(hnswEfSearch)
	// A server that is not there yet (starting beside this process) is
	// waited for, but not as long as a lost one: a wrong address should
	// not hold a command for half a minute.
	first := min(cmp.Or(o.RetryFor, DefaultRetryFor), openRetryFor)
	err = db.retryFor(ctx, first, func() error {
		pool, err := pgxpool.NewWithConfig(ctx, cfg)
		if err != nil {
			return err
		}
		conn, err := pool.Acquire(ctx)
		if err != nil {
			pool.Close()
			return err
		}
		err = migrate(ctx, conn.Conn())
		if err == nil {
			db.pgvector, db.vectorColumn, db.vectorAdvice, err = setupPgvector(ctx, conn.Conn())
		}
		if err == nil {
			db.indexedSearch, err = leakproofMatch(ctx, conn.Conn())
		}
		conn.Release()
		if err != nil {
			pool.Close()
			return err
		}
		db.pool = pool
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("index %s: %w", shown, err)
	}
	return db, nil
}

// Close closes the connections.
func (db *DB) Close() { db.pool.Close() }

// URL is the database's address without its password.
func (db *DB) URL() string { return db.url }

// Redact removes the password from a connection URL, for messages.
func Redact(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.User == nil {
		if i := strings.Index(raw, "password="); i >= 0 {
			return raw[:i] + "password=…"
		}
		return raw
	}
	if _, ok := u.User.Password(); ok {
		u.User = url.UserPassword(u.User.Username(), "…")
	}
	q := u.Query()
	if q.Has("password") {
		q.Set("password", "…")
		u.RawQuery = q.Encode()
	}
	return u.String()
}

func (db *DB) warn(format string, args ...any) {
	if db.opts.Warn != nil {
		db.opts.Warn(fmt.Sprintf(format, args...))
	}
}

// retry runs f until it succeeds, fails for a reason a new attempt cannot
// change, or RetryFor has passed, waiting longer after each failure (50 ms
// doubling to 2 s). A lost connection is said once, and its recovery too.
func (db *DB) retry(ctx context.Context, f func() error) error {
	return db.retryFor(ctx, db.opts.RetryFor, f)
}

// retryFor is retry for at most limit (0: DefaultRetryFor).
func (db *DB) retryFor(ctx context.Context, limit time.Duration, f func() error) error {
	if limit <= 0 {
		limit = DefaultRetryFor
	}
	deadline := time.Now().Add(limit)
	wait := 50 * time.Millisecond
	for failed := false; ; failed = true {
		err := f()
		if err == nil {
			// Said once per outage, by whichever call gets through first.
			if db.lost.CompareAndSwap(true, false) {
				db.warn("database %s: connected again", db.url)
			}
			return nil
		}
		if !isRetryable(err) || time.Now().Add(wait).After(deadline) {
			if failed && isRetryable(err) {
				return fmt.Errorf("gave up after %s: %w", limit, err)
			}
			return err
		}
		if db.lost.CompareAndSwap(false, true) {
			db.warn("database %s: %v; retrying", db.url, err)
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return errors.Join(ctx.Err(), err)
		case <-t.C:
		}
		wait = min(2*wait, 2*time.Second)
	}
}

// leakproofMatch reports whether the full-text match operator (tsvector
// @@ tsquery, the function ts_match_vq) is marked LEAKPROOF in this
// database, marking it when the connection may (a superuser). Row-level
// security lets a condition use an index only when its function is
// leakproof, so that it cannot reveal rows of other workspaces before
// their policy filters them out; PostgreSQL does not mark ts_match_vq so,
// and then every search reads every item of its workspace instead of the
// GIN index's matches (seven times the time on a 20,000-item workspace).
// The function returns true or false and raises no error that depends
// on the rows; docs/team.md has the one statement for the administrator.
func leakproofMatch(ctx context.Context, conn *pgx.Conn) (bool, error) {
	var ok, super bool
	err := conn.QueryRow(ctx, `SELECT (SELECT proleakproof FROM pg_proc WHERE oid = 'pg_catalog.ts_match_vq(tsvector, tsquery)'::regprocedure),
		(SELECT rolsuper FROM pg_roles WHERE rolname = current_user)`).Scan(&ok, &super)
	if err != nil {
		return false, err
	}
	if ok || !super {
		return ok, nil
	}
	if _, err := conn.Exec(ctx, `ALTER FUNCTION pg_catalog.ts_match_vq(tsvector, tsquery) LEAKPROOF`); err != nil {
		return false, err
	}
	return true, nil
}

// LeakproofAdvice is what an administrator runs, once per database, so
// that full-text search uses its index under row-level security.
const LeakproofAdvice = "ALTER FUNCTION pg_catalog.ts_match_vq(tsvector, tsquery) LEAKPROOF"

// querier is what reads need of a connection or a transaction.
type querier interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// allowedList is the value of memoria.workspaces for ws.
func allowedList(ws []int64) string {
	list := make([]string, len(ws))
	for i, id := range ws {
		list[i] = strconv.FormatInt(id, 10)
	}
	return strings.Join(list, ",")
}

// read runs f on a connection whose session may see only the workspaces
// ws (row-level security reads them from memoria.workspaces), retried on
// a lost connection. Each statement of f sees the data as committed when
// it starts, as in a transaction at PostgreSQL's default isolation.
func (db *DB) read(ctx context.Context, ws []int64, f func(q querier) error) error {
	want := allowedList(ws)
	return db.retry(ctx, func() error {
		c, err := db.pool.Acquire(ctx)
		if err != nil {
			return err
		}
		defer c.Release()
		if got, _ := db.allowed.Load(c.Conn()); got != want {
			if _, err := c.Exec(ctx, `SELECT set_config('memoria.workspaces', $1, false)`, want); err != nil {
				return err
			}
			db.allowed.Store(c.Conn(), want)
		}
		return f(c.Conn())
	})
}

// tx runs f in one read-write transaction that may see only the
// workspaces ws (set locally, whatever the session's setting), retried as
// a whole on a lost connection.
func (db *DB) tx(ctx context.Context, ws []int64, f func(tx pgx.Tx) error) error {
	allowed := allowedList(ws)
	return db.retry(ctx, func() error {
		tx, err := db.pool.Begin(ctx)
		if err != nil {
			return err
		}
		defer tx.Rollback(context.WithoutCancel(ctx))
		if _, err := tx.Exec(ctx, `SELECT set_config('memoria.workspaces', $1, true)`, allowed); err != nil {
			return err
		}
		if err := f(tx); err != nil {
			return err
		}
		return tx.Commit(ctx)
	})
}

// WorkspaceInfo is one workspace registered in the database.
type WorkspaceInfo struct {
	ID         int64
	Name       string
	Generation int64     // bumped by every sync that changed it
	Built      time.Time // the last full build (zero: never)
	Synced     time.Time // the last sync that changed it
}

// Workspaces lists the workspaces registered in the database, by name.
// It names them only: their content is visible to a transaction that is
// allowed their ids.
func (db *DB) Workspaces(ctx context.Context) ([]WorkspaceInfo, error) {
	var out []WorkspaceInfo
	err := db.read(ctx, nil, func(tx querier) error {
		out = out[:0]
		rows, err := tx.Query(ctx, `SELECT id, name, generation, built, synced FROM memoria_workspaces ORDER BY name`)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var w WorkspaceInfo
			var built, synced *time.Time
			if err := rows.Scan(&w.ID, &w.Name, &w.Generation, &built, &synced); err != nil {
				return err
			}
			if built != nil {
				w.Built = *built
			}
			if synced != nil {
				w.Synced = *synced
			}
			out = append(out, w)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("index %s: %w", db.url, err)
	}
	return out, nil
}

// register returns the id of the workspace called name, registering it
// (and making its partition of the items) if it is new.
func (db *DB) register(ctx context.Context, name string) (id int64, identity string, err error) {
	if name == "" {
		return 0, "", errors.New("a workspace in a shared index needs a name")
	}
	err = db.retry(ctx, func() error {
		// Known already: one query, no lock.
		err := db.pool.QueryRow(ctx, `SELECT id, identity FROM memoria_workspaces WHERE name = $1`, name).Scan(&id, &identity)
		if err == nil {
			return nil
		}
		if !errors.Is(err, pgx.ErrNoRows) {
			return err
		}
		tx, err := db.pool.Begin(ctx)
		if err != nil {
			return err
		}
		defer tx.Rollback(context.WithoutCancel(ctx))
		err = tx.QueryRow(ctx, `INSERT INTO memoria_workspaces(name) VALUES($1)
			ON CONFLICT (name) DO UPDATE SET name = excluded.name RETURNING id, identity`, name).Scan(&id, &identity)
		if err != nil {
			return err
		}
		// The partition's name is made of the id only: no user text in DDL.
		// A partition queried by its own name is not bound by its parent's
		// policies: it gets the same ones.
		part := fmt.Sprintf("memoria_items_%d", id)
		if _, err := tx.Exec(ctx, fmt.Sprintf(`CREATE TABLE IF NOT EXISTS %s PARTITION OF memoria_items FOR VALUES IN (%d)`, part, id)); err != nil {
			return err
		}
		var guarded bool
		if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_policies WHERE tablename = $1 AND policyname = 'memoria_ws')`, part).Scan(&guarded); err != nil {
			return err
		}
		if !guarded {
			_, err := tx.Exec(ctx, fmt.Sprintf(`ALTER TABLE %[1]s ENABLE ROW LEVEL SECURITY;
				ALTER TABLE %[1]s FORCE ROW LEVEL SECURITY;
				CREATE POLICY memoria_ws ON %[1]s USING (%[2]s)`, part, wsPolicy))
			if err != nil {
				return err
			}
		}
		return tx.Commit(ctx)
	})
	return id, identity, err
}
