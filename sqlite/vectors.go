package sqlite

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"math"

	"memoria/embed"
	"memoria/memory"
)

// Vectors live in a file of their own beside the index
// (index.sqlite.vectors, attached as schema "vec"), stored per distinct
// item text (TextHash) as int8 with one float32 scale per vector: 4 + dim
// bytes, a quarter of float32. A rebuild of the index (a schema change, a
// corrupt file) therefore keeps them: embedding is the slowest step of all,
// and text that did not change needs no new vector. vec.meta 'model' names
// the model they came from; vectors of another model are dropped and
// re-made, a batch at a time, while lexical recall goes on working.

// vectorSchema creates the attached vector store when it is new. seq is
// the embedding batch that wrote a vector (1, 2, …; 0 for vectors stored
// before seq existed): the in-memory vector index (vecstore.go) loads only
// the vectors of later batches when the store grows. vec.meta 'epoch' is
// drawn afresh whenever the store is emptied (a model change), so that a
// saved vector index of the old contents is never taken for current.
const vectorSchema = `
PRAGMA vec.journal_mode = WAL;
PRAGMA vec.journal_size_limit = 0;
CREATE TABLE IF NOT EXISTS vec.meta(key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS vec.vectors(text_hash TEXT PRIMARY KEY, vec BLOB NOT NULL, seq INTEGER NOT NULL DEFAULT 0) WITHOUT ROWID;
`

// vectorSeqIndex is created after the seq column is sure to exist.
const vectorSeqIndex = `CREATE INDEX IF NOT EXISTS vec.vectors_seq ON vectors(seq)`

// attachVectors attaches the vector store to the open index connection.
// A vector store that cannot be read is set aside and started afresh:
// vectors are derived too.
func (ix *Index) attachVectors(ctx context.Context) error {
	path := ix.path + ".vectors"
	for attempt := 0; ; attempt++ {
		_, err := ix.db.ExecContext(ctx, `ATTACH DATABASE ? AS vec`, path)
		if err == nil {
			if _, err = ix.db.ExecContext(ctx, vectorSchema); err == nil {
				if err = ix.migrateVectors(ctx); err == nil {
					return nil
				}
			}
			ix.db.ExecContext(ctx, `DETACH DATABASE vec`)
		}
		if attempt > 0 || !isCorrupt(err) {
			return fmt.Errorf("vectors %s: %w", path, err)
		}
		ix.opts.warn("vector store %s is corrupt; starting it afresh (run memoria index to re-embed)", path)
		removeDB(path)
	}
}

// migrateVectors adds the seq column (and an epoch) to a vector store made
// before they existed, and the index on seq. It writes only when something
// is missing.
func (ix *Index) migrateVectors(ctx context.Context) error {
	var n int
	if err := ix.db.QueryRowContext(ctx, `SELECT count(*) FROM pragma_table_info('vectors', 'vec') WHERE name = 'seq'`).Scan(&n); err != nil {
		return err
	}
	if n == 0 {
		tx, err := ix.db.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		defer tx.Rollback()
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM pragma_table_info('vectors', 'vec') WHERE name = 'seq'`).Scan(&n); err != nil {
			return err
		}
		if n == 0 { // not done by another process meanwhile
			if _, err := tx.ExecContext(ctx, `ALTER TABLE vec.vectors ADD COLUMN seq INTEGER NOT NULL DEFAULT 0`); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO vec.meta(key, value) VALUES('epoch', ?)`, newEpoch()); err != nil {
				return err
			}
		}
		if err := tx.Commit(); err != nil {
			return err
		}
	}
	if err := ix.db.QueryRowContext(ctx, `SELECT count(*) FROM vec.sqlite_schema WHERE name = 'vectors_seq'`).Scan(&n); err != nil || n > 0 {
		return err
	}
	_, err := ix.db.ExecContext(ctx, vectorSeqIndex)
	return err
}

// newEpoch is a random name for the current contents of a vector store.
func newEpoch() string {
	var b [8]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

func (ix *Index) vecMeta(ctx context.Context, key string) (string, error) {
	var v string
	err := ix.queryRow(ctx, `SELECT value FROM vec.meta WHERE key = ?`, key).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return v, err
}

// EmbedPending gives a vector to every item text that has none (or has one
// from another model). Each batch is committed on its own, so an
// interrupted run resumes where it stopped. Then it brings the saved
// vector index (index.sqlite.vecs, or index.sqlite.hnsw above
// FlatMaxVectors) up to date.
func (ix *Index) EmbedPending(ctx context.Context, e memory.Embedder, o memory.EmbedOptions) (memory.EmbedStats, error) {
	st := memory.EmbedStats{Model: e.Identity()}
	batch := o.Batch
	if batch <= 0 {
		batch = 64
	}
	if err := ix.useModel(ctx, e.Identity()); err != nil {
		return st, ix.wrapErr(err)
	}
	rows, err := ix.db.QueryContext(ctx, `SELECT DISTINCT i.text_hash, i.content FROM items i
		WHERE NOT EXISTS (SELECT 1 FROM vec.vectors v WHERE v.text_hash = i.text_hash)`)
	if err != nil {
		return st, ix.wrapErr(err)
	}
	var hashes, texts []string
	for rows.Next() {
		var h, t string
		if err := rows.Scan(&h, &t); err != nil {
			rows.Close()
			return st, ix.wrapErr(err)
		}
		hashes, texts = append(hashes, h), append(texts, t)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return st, ix.wrapErr(err)
	}
	if err := ix.db.QueryRowContext(ctx, `SELECT count(DISTINCT text_hash) FROM items`).Scan(&st.Total); err != nil {
		return st, ix.wrapErr(err)
	}
	todo := len(texts)
	if o.Limit > 0 {
		todo = min(todo, o.Limit)
	}
	for start := 0; start < todo; start += batch {
		end := min(start+batch, todo)
		vecs, err := e.Embed(ctx, texts[start:end])
		if err != nil {
			return st, fmt.Errorf("embed: %w", err)
		}
		if err := ix.storeVectors(ctx, hashes[start:end], vecs); err != nil {
			return st, ix.wrapErr(err)
		}
		st.Embedded += end - start
		if o.Progress != nil {
			o.Progress(end, todo)
		}
	}
	st.Pending = len(texts) - st.Embedded
	// Save the vector index for recall (vecstore.go): its file, or above
	// FlatMaxVectors the HNSW graph, which is built here rather than in a
	// recall.
	if err := ix.syncVectorFiles(ctx); err != nil {
		return st, ix.wrapErr(fmt.Errorf("vector index: %w", err))
	}
	return st, nil
}

// useModel makes model the vectors' model, dropping vectors of any other.
func (ix *Index) useModel(ctx context.Context, model string) error {
	cur, err := ix.vecMeta(ctx, "model")
	if err != nil || cur == model {
		return err
	}
	tx, err := ix.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `DELETE FROM vec.vectors`); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO vec.meta(key, value) VALUES('model', ?), ('epoch', ?)`, model, newEpoch()); err != nil {
		return err
	}
	return tx.Commit()
}

func (ix *Index) storeVectors(ctx context.Context, hashes []string, vecs [][]float32) error {
	tx, err := ix.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	// The batch's seq, under the write lock: batches of concurrent
	// embedders get distinct, increasing numbers in commit order.
	var seq int64
	if err := tx.QueryRowContext(ctx, `SELECT coalesce(max(seq), 0) + 1 FROM vec.vectors`).Scan(&seq); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO vec.meta(key, value) VALUES('epoch', ?)`, newEpoch()); err != nil {
		return err
	}
	st, err := tx.PrepareContext(ctx, `INSERT OR REPLACE INTO vec.vectors(text_hash, vec, seq) VALUES(?, ?, ?)`)
	if err != nil {
		return err
	}
	for i, v := range vecs {
		if _, err := st.ExecContext(ctx, hashes[i], EncodeVector(v), seq); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// EncodeVector stores v as a float32 scale and int8 components.
func EncodeVector(v []float32) []byte {
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

// DecodeVector is EncodeVector's inverse (up to the int8 rounding), into dst.
func DecodeVector(b []byte, dst []float32) error {
	if len(b) != 4+len(dst) {
		return fmt.Errorf("vector of %d bytes, want %d", len(b), 4+len(dst))
	}
	scale := math.Float32frombits(binary.LittleEndian.Uint32(b))
	for i := range dst {
		dst[i] = float32(int8(b[4+i])) * scale
	}
	return nil
}

// VectorModel is the model the stored vectors came from ("" if none).
func (ix *Index) VectorModel(ctx context.Context) (string, error) {
	m, err := ix.vecMeta(ctx, "model")
	return m, ix.wrapErrNil(err)
}

// nearestScan is NearestItems by brute force in SQL: every item that
// passes the filter, joined with its vector, decoded and scored. It was the
// semantic channel before the in-memory index (vecstore.go) and is kept as
// the reference the tests compare it with.
func (ix *Index) nearestScan(ctx context.Context, q []float32, f memory.Filter, limit int) ([]memory.Hit, error) {
	cond, args := where(f)
	rows, err := ix.query(ctx, `SELECT i.id, v.vec FROM items i JOIN vec.vectors v ON v.text_hash = i.text_hash WHERE 1`+cond, args...)
	if err != nil {
		return nil, ix.wrapErr(err)
	}
	defer rows.Close()
	var best []rankedItem // kept sorted, best first, at most limit long
	vec := make([]float32, len(q))
	for rows.Next() {
		var id int64
		var b []byte
		if err := rows.Scan(&id, &b); err != nil {
			return nil, ix.wrapErr(err)
		}
		if DecodeVector(b, vec) != nil {
			continue // another dimension: a stale vector, ignore it
		}
		s := embed.Dot(q, vec)
		if len(best) == limit && s <= best[len(best)-1].score {
			continue
		}
		i := len(best)
		for i > 0 && best[i-1].score < s {
			i--
		}
		if len(best) < limit {
			best = append(best, rankedItem{})
		}
		copy(best[i+1:], best[i:len(best)-1])
		best[i] = rankedItem{id, s}
	}
	if err := rows.Err(); err != nil {
		return nil, ix.wrapErr(err)
	}
	return ix.hitsOf(ctx, best)
}
