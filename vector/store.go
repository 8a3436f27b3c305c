package vector

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"net/url"
	"os"
	"sync"
	"sync/atomic"
	"time"

	msqlite "modernc.org/sqlite" // also registers the "sqlite" driver
	sqlite3 "modernc.org/sqlite/lib"
)

// Store is a workspace's vector store: one SQLite file of its own beside
// the index, so that a rebuild of the index keeps the vectors. Texts are
// named by their id (TextID of the index's text hash); a vector is stored
// as int8 with one float32 scale (Encode), a quarter of float32.
//
// This is the one copy of each vector. Each embedding batch is one row of
// batches (its seq, the ids of its texts, their vectors end to end), so
// that loading every vector into the in-memory index (Index) reads a few
// large values instead of a row per vector; texts says which texts have a
// vector, and in which batch. meta 'model' names the model the vectors
// came from, and meta 'epoch' is drawn afresh whenever the store is
// emptied (a model change), so that a loaded or saved index of the old
// contents is never taken for current.
//
// A Store is safe for concurrent use, and several processes may open the
// same file: writes are serialised by SQLite.
type Store struct {
	dbMu      sync.RWMutex // guards db, which reset replaces
	db        *sql.DB
	path      string // the store's file
	graphPath string // the saved HNSW graph, beside it
	opts      Options

	// lost is set when the store was found damaged and started afresh:
	// the vectors it held must be made again.
	lost atomic.Bool

	mu        sync.Mutex // guards what follows
	mem       *Index     // the in-memory index, loaded on the first search
	warned    bool       // the warning about a missing graph was given
	searches  int        // searches so far: from the second, the Store is long-lived
	graphLoad *graphLoad // the HNSW graph, loaded in the background for a long-lived Store
}

// Options tune a Store. The zero value is ready to use.
type Options struct {
	// Warn receives one-line warnings (a store set aside, a graph that
	// lags); nil discards them.
	Warn func(msg string)
	// FlatMax is the largest store searched with a Flat in a long-lived
	// process; 0 means FlatMaxVectors.
	FlatMax int
	// GraphPatchMax is how many vectors a search adds to a saved graph
	// that lags behind the store; beyond it the Flat is used until
	// SaveGraph brings the graph up to date. 0 means 2,000.
	GraphPatchMax int
}

func (o Options) flatMax() int {
	if o.FlatMax > 0 {
		return o.FlatMax
	}
	return FlatMaxVectors
}

func (o Options) graphPatchMax() int {
	if o.GraphPatchMax > 0 {
		return o.GraphPatchMax
	}
	return 2000
}

func (o Options) warn(format string, args ...any) {
	if o.Warn != nil {
		o.Warn(fmt.Sprintf(format, args...))
	}
}

const schema = `
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS batches(seq INTEGER PRIMARY KEY, ids BLOB NOT NULL, vecs BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS texts(text_hash TEXT PRIMARY KEY, seq INTEGER NOT NULL) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS texts_seq ON texts(seq);
`

// Open opens (creating it if need be) the vector store at path, whose
// saved graph goes to graphPath. A store that cannot be read is set aside
// and started afresh, with a warning: vectors are derived too.
func Open(ctx context.Context, path, graphPath string, o Options) (*Store, error) {
	lost := false
	for attempt := 0; ; attempt++ {
		s, err := open(ctx, path, graphPath, o)
		if err == nil || attempt > 0 || !isCorrupt(err) {
			if err != nil {
				return nil, fmt.Errorf("vectors %s: %w", path, err)
			}
			s.lost.Store(lost)
			return s, nil
		}
		o.warn("vector store %s is corrupt; starting it afresh (recall embeds the texts again when the model is installed, or memoria index does; lexical recall goes on meanwhile)", path)
		for _, suffix := range []string{"", "-wal", "-shm", "-journal"} {
			os.Remove(path + suffix)
		}
		lost = true
	}
}

func open(ctx context.Context, path, graphPath string, o Options) (*Store, error) {
	q := url.Values{}
	for _, p := range []string{"busy_timeout(10000)", "synchronous(NORMAL)", "journal_size_limit(0)"} {
		q.Add("_pragma", p)
	}
	q.Set("_txlock", "immediate")
	db, err := sql.Open("sqlite", "file:"+(&url.URL{Path: path}).EscapedPath()+"?"+q.Encode())
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	s := &Store{db: db, path: path, graphPath: graphPath, opts: o}
	if err := walMode(ctx, db); err != nil {
		db.Close()
		return nil, err
	}
	if _, err := db.ExecContext(ctx, schema); err != nil {
		db.Close()
		return nil, err
	}
	if err := s.migrate(ctx); err != nil {
		db.Close()
		return nil, err
	}
	if err := persistWAL(ctx, db); err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

// walMode puts the store in WAL mode, once for the life of the file.
// SQLite answers a change of journal mode that another connection is
// making at the same moment with "busy" at once, without waiting: several
// processes opening a new store together wait for each other here (for
// another process, not for goroutines: this is not synchronisation).
func walMode(ctx context.Context, db *sql.DB) error {
	wait := time.Millisecond
	for {
		var mode string
		err := db.QueryRowContext(ctx, `PRAGMA journal_mode=WAL`).Scan(&mode)
		var se interface{ Code() int }
		if err == nil || !errors.As(err, &se) || se.Code()&0xff != sqlite3.SQLITE_BUSY || wait > 2*time.Second {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(wait):
		}
		wait *= 2
	}
}

// persistWAL keeps the -wal and -shm files when the last connection
// closes: a one-shot process would otherwise make and delete both every
// time.
func persistWAL(ctx context.Context, db *sql.DB) error {
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	return conn.Raw(func(dc any) error {
		if fc, ok := dc.(msqlite.FileControl); ok {
			_, err := fc.FileControlPersistWAL("main", 1)
			return err
		}
		return nil
	})
}

// isCorrupt reports whether err is SQLite's report of a damaged file or
// of one that is not a database.
func isCorrupt(err error) bool {
	var se interface{ Code() int }
	if errors.As(err, &se) {
		c := se.Code() & 0xff
		return c == sqlite3.SQLITE_CORRUPT || c == sqlite3.SQLITE_NOTADB
	}
	return false
}

// Close releases the store.
func (s *Store) Close() error { return s.handle().Close() }

// handle is the store's database.
func (s *Store) handle() *sql.DB {
	s.dbMu.RLock()
	defer s.dbMu.RUnlock()
	return s.db
}

// Path is the store's file.
func (s *Store) Path() string { return s.path }

// GraphPath is the file of the saved HNSW graph.
func (s *Store) GraphPath() string { return s.graphPath }

// migrate moves the vectors of a store made before batches (a row per
// vector in a table "vectors", and a copy in index.sqlite.vecs beside the
// index) into batches, once; the old table and file go. One lookup when
// there is nothing to do.
func (s *Store) migrate(ctx context.Context) error {
	var n int
	if err := s.handle().QueryRowContext(ctx, `SELECT count(*) FROM sqlite_schema WHERE name = 'vectors'`).Scan(&n); err != nil || n == 0 {
		return err
	}
	tx, err := s.handle().BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_schema WHERE name = 'vectors'`).Scan(&n); err != nil || n == 0 {
		return err // done by another process meanwhile
	}
	var cols int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM pragma_table_info('vectors') WHERE name = 'seq'`).Scan(&cols); err != nil {
		return err
	}
	q := `SELECT text_hash, vec FROM vectors`
	if cols > 0 {
		q += ` ORDER BY seq`
	}
	rows, err := tx.QueryContext(ctx, q)
	if err != nil {
		return err
	}
	var hashes []string
	var vecs [][]byte
	for rows.Next() {
		var h string
		var v []byte
		if err := rows.Scan(&h, &v); err != nil {
			rows.Close()
			return err
		}
		hashes, vecs = append(hashes, h), append(vecs, v)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	const per = 4096 // vectors per batch row
	for start := 0; start < len(hashes); start += per {
		end := min(start+per, len(hashes))
		if err := insertBatch(ctx, tx, hashes[start:end], vecs[start:end]); err != nil {
			return err
		}
	}
	if _, err := tx.ExecContext(ctx, `DROP TABLE vectors; INSERT OR REPLACE INTO meta(key, value) VALUES('epoch', ?)`, newEpoch()); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	if base, ok := cutSuffix(s.path, ".vectors"); ok {
		os.Remove(base + ".vecs")
	}
	return nil
}

func cutSuffix(s, suffix string) (string, bool) {
	if len(s) >= len(suffix) && s[len(s)-len(suffix):] == suffix {
		return s[:len(s)-len(suffix)], true
	}
	return s, false
}

// newEpoch is a random name for the current contents of a vector store.
func newEpoch() string {
	var b [8]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

func (s *Store) meta(ctx context.Context, key string) (string, error) {
	var v string
	err := s.handle().QueryRowContext(ctx, `SELECT value FROM meta WHERE key = ?`, key).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return v, err
}

// Model is the model the stored vectors came from ("" if none).
func (s *Store) Model(ctx context.Context) (string, error) {
	m, err := s.meta(ctx, "model")
	if err != nil {
		return "", fmt.Errorf("vectors %s: %w", s.path, err)
	}
	return m, nil
}

// UseModel makes model the vectors' model, dropping vectors of any other.
func (s *Store) UseModel(ctx context.Context, model string) error {
	cur, err := s.meta(ctx, "model")
	if err != nil || cur == model {
		return err
	}
	tx, err := s.handle().BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `DELETE FROM batches; DELETE FROM texts`); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO meta(key, value) VALUES('model', ?), ('epoch', ?)`, model, newEpoch()); err != nil {
		return err
	}
	return tx.Commit()
}

// Texts returns the ids of the texts that have a vector.
func (s *Store) Texts(ctx context.Context) (map[int64]bool, error) {
	rows, err := s.handle().QueryContext(ctx, `SELECT text_hash FROM texts`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[int64]bool{}
	for rows.Next() {
		var h string
		if err := rows.Scan(&h); err != nil {
			return nil, err
		}
		if id, ok := TextID(h); ok {
			out[id] = true
		}
	}
	return out, rows.Err()
}

// Put stores one batch of vectors, for the texts with these hashes, in
// one transaction: an interrupted run of batches resumes where it stopped.
func (s *Store) Put(ctx context.Context, hashes []string, vecs [][]float32) error {
	tx, err := s.handle().BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO meta(key, value) VALUES('epoch', ?)`, newEpoch()); err != nil {
		return err
	}
	enc := make([][]byte, len(vecs))
	for i, v := range vecs {
		enc[i] = Encode(v)
	}
	if err := insertBatch(ctx, tx, hashes, enc); err != nil {
		return err
	}
	return tx.Commit()
}

// insertBatch writes one batch of encoded vectors under the next seq,
// taken under the write lock: batches of concurrent embedders get
// distinct, increasing numbers in commit order. A text embedded twice (by
// two processes at once) keeps the later batch's vector.
func insertBatch(ctx context.Context, tx *sql.Tx, hashes []string, vecs [][]byte) error {
	var seq int64
	if err := tx.QueryRowContext(ctx, `SELECT coalesce(max(seq), 0) + 1 FROM batches`).Scan(&seq); err != nil {
		return err
	}
	ids := make([]byte, 0, 8*len(hashes))
	var all []byte
	st, err := tx.PrepareContext(ctx, `INSERT OR REPLACE INTO texts(text_hash, seq) VALUES(?, ?)`)
	if err != nil {
		return err
	}
	defer st.Close()
	for i, h := range hashes {
		id, ok := TextID(h)
		if !ok {
			continue
		}
		ids = binary.LittleEndian.AppendUint64(ids, uint64(id))
		all = append(all, vecs[i]...)
		if _, err := st.ExecContext(ctx, h, seq); err != nil {
			return err
		}
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO batches(seq, ids, vecs) VALUES(?, ?, ?)`, seq, ids, all)
	return err
}

// batch is one row of batches, decoded: the ids of its texts and their
// encoded vectors (Encode), each vecs[i*size:(i+1)*size].
type batch struct {
	seq  int64
	ids  []int64
	vecs []byte
	size int // 4 + dim
}

func (b *batch) vec(i int) []byte { return b.vecs[i*b.size : (i+1)*b.size] }

// readBatches calls fn for each batch after seq, in order. A batch whose
// sizes do not add up is skipped (a damaged row).
func (s *Store) readBatches(ctx context.Context, after int64, fn func(b *batch) error) error {
	rows, err := s.handle().QueryContext(ctx, `SELECT seq, ids, vecs FROM batches WHERE seq > ? ORDER BY seq`, after)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var b batch
		var ids sql.RawBytes
		if err := rows.Scan(&b.seq, &ids, &b.vecs); err != nil {
			return err
		}
		n := len(ids) / 8
		if n == 0 || len(ids)%8 != 0 || len(b.vecs)%n != 0 || len(b.vecs)/n < 5 {
			continue
		}
		b.size = len(b.vecs) / n
		b.ids = make([]int64, n)
		for i := range n {
			b.ids[i] = int64(binary.LittleEndian.Uint64(ids[8*i:]))
		}
		if err := fn(&b); err != nil {
			return err
		}
	}
	return rows.Err()
}

// All reads every vector of the store by text id (a later batch wins over
// an earlier one), encoded (Decode reads them).
func (s *Store) All(ctx context.Context) (map[int64][]byte, error) {
	out := map[int64][]byte{}
	err := s.readBatches(ctx, 0, func(b *batch) error {
		for i, id := range b.ids {
			out[id] = b.vec(i)
		}
		return nil
	})
	return out, err
}

// Encode stores v as a float32 scale and int8 components.
func Encode(v []float32) []byte {
	var m float32
	for _, x := range v {
		m = max(m, float32(math.Abs(float64(x))))
	}
	scale := m / 127
	b := make([]byte, 4+len(v))
	binary.LittleEndian.PutUint32(b, math.Float32bits(scale))
	if scale == 0 {
		return b
	}
	for i, x := range v {
		b[4+i] = byte(int8(math.Round(float64(x / scale))))
	}
	return b
}

// Decode is Encode's inverse (up to the int8 rounding), into dst.
func Decode(b []byte, dst []float32) error {
	if len(b) != 4+len(dst) {
		return fmt.Errorf("vector of %d bytes, want %d", len(b), 4+len(dst))
	}
	scale := math.Float32frombits(binary.LittleEndian.Uint32(b))
	for i := range dst {
		dst[i] = float32(int8(b[4+i])) * scale
	}
	return nil
}

// DecodeInt8 is Decode without the multiplication: it returns the scale
// and writes the int8 components into q, the form ann.Flat keeps with
// FlatOptions.Int8. A scale that is not a finite number is an error.
func DecodeInt8(b []byte, q []int8) (float32, error) {
	if len(b) != 4+len(q) {
		return 0, fmt.Errorf("vector of %d bytes, want %d", len(b), 4+len(q))
	}
	scale := math.Float32frombits(binary.LittleEndian.Uint32(b))
	if math.IsNaN(float64(scale)) || math.IsInf(float64(scale), 0) {
		return 0, fmt.Errorf("vector with scale %v", scale)
	}
	for i, x := range b[4:] {
		q[i] = int8(x)
	}
	return scale, nil
}

// TextID is the vector id of a text hash (16 hex digits); ok is false for
// anything else.
func TextID(h string) (int64, bool) {
	var b [8]byte
	if len(h) != 16 {
		return 0, false
	}
	if _, err := hex.Decode(b[:], []byte(h)); err != nil {
		return 0, false
	}
	return int64(binary.BigEndian.Uint64(b[:])), true
}

// TextHash is TextID's inverse.
func TextHash(id int64) string {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], uint64(id))
	return hex.EncodeToString(b[:])
}

// Lost reports whether the store was found damaged and started afresh
// since it was opened: the texts it held vectors for have none now.
func (s *Store) Lost() bool { return s.lost.Load() }

// Verify runs PRAGMA quick_check on the store.
func (s *Store) Verify(ctx context.Context) error {
	var res string
	if err := s.handle().QueryRowContext(ctx, `PRAGMA quick_check`).Scan(&res); err != nil {
		return err
	}
	if res != "ok" {
		return fmt.Errorf("quick_check: %s", res)
	}
	return nil
}
