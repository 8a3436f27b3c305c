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
	"os"

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
//
// This store is the one copy of each vector. Each embedding batch is one
// row of vec.batches (its seq, the ids of its texts, their vectors end to
// end), so that loading every vector into the in-memory index (vecstore.go)
// reads a few large values instead of a row per vector; vec.texts says
// which texts have a vector, and in which batch.

// vectorSchema creates the attached vector store when it is new. seq
// numbers the embedding batches (1, 2, …): the in-memory vector index
// loads only the batches after those it holds when the store grows.
// vec.meta 'epoch' is drawn afresh whenever the store is emptied (a model
// change), so that a loaded or saved vector index of the old contents is
// never taken for current.
const vectorSchema = `
PRAGMA vec.journal_mode = WAL;
PRAGMA vec.journal_size_limit = 0;
CREATE TABLE IF NOT EXISTS vec.meta(key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS vec.batches(seq INTEGER PRIMARY KEY, ids BLOB NOT NULL, vecs BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS vec.texts(text_hash TEXT PRIMARY KEY, seq INTEGER NOT NULL) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS vec.texts_seq ON texts(seq);
`

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

// migrateVectors moves the vectors of a store made before batches (a row
// per vector in vec.vectors, and a copy in index.sqlite.vecs) into
// batches, once; the old table and file go. One lookup when there is
// nothing to do.
func (ix *Index) migrateVectors(ctx context.Context) error {
	var n int
	if err := ix.db.QueryRowContext(ctx, `SELECT count(*) FROM vec.sqlite_schema WHERE name = 'vectors'`).Scan(&n); err != nil || n == 0 {
		return err
	}
	tx, err := ix.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM vec.sqlite_schema WHERE name = 'vectors'`).Scan(&n); err != nil || n == 0 {
		return err // done by another process meanwhile
	}
	var cols int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM pragma_table_info('vectors', 'vec') WHERE name = 'seq'`).Scan(&cols); err != nil {
		return err
	}
	q := `SELECT text_hash, vec, 0 FROM vec.vectors`
	if cols > 0 {
		q = `SELECT text_hash, vec, seq FROM vec.vectors ORDER BY seq`
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
		var seq int64
		if err := rows.Scan(&h, &v, &seq); err != nil {
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
	if _, err := tx.ExecContext(ctx, `DROP TABLE vec.vectors; INSERT OR REPLACE INTO vec.meta(key, value) VALUES('epoch', ?)`, newEpoch()); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	os.Remove(ix.path + ".vecs")
	return nil
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
// interrupted run resumes where it stopped. Then, above FlatMaxVectors,
// it brings the saved vector graph (index.sqlite.hnsw) up to date.
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
		WHERE NOT EXISTS (SELECT 1 FROM vec.texts v WHERE v.text_hash = i.text_hash)`)
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
	if _, err := tx.ExecContext(ctx, `DELETE FROM vec.batches; DELETE FROM vec.texts`); err != nil {
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
	if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO vec.meta(key, value) VALUES('epoch', ?)`, newEpoch()); err != nil {
		return err
	}
	enc := make([][]byte, len(vecs))
	for i, v := range vecs {
		enc[i] = EncodeVector(v)
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
	if err := tx.QueryRowContext(ctx, `SELECT coalesce(max(seq), 0) + 1 FROM vec.batches`).Scan(&seq); err != nil {
		return err
	}
	ids := make([]byte, 0, 8*len(hashes))
	var all []byte
	st, err := tx.PrepareContext(ctx, `INSERT OR REPLACE INTO vec.texts(text_hash, seq) VALUES(?, ?)`)
	if err != nil {
		return err
	}
	defer st.Close()
	for i, h := range hashes {
		id, ok := textID(h)
		if !ok {
			continue
		}
		ids = binary.LittleEndian.AppendUint64(ids, uint64(id))
		all = append(all, vecs[i]...)
		if _, err := st.ExecContext(ctx, h, seq); err != nil {
			return err
		}
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO vec.batches(seq, ids, vecs) VALUES(?, ?, ?)`, seq, ids, all)
	return err
}

// vecBatch is one row of vec.batches, decoded: the ids of its texts and
// their encoded vectors (EncodeVector), each vecs[i*size:(i+1)*size].
type vecBatch struct {
	seq  int64
	ids  []int64
	vecs []byte
	size int // 4 + dim
}

func (b *vecBatch) vec(i int) []byte { return b.vecs[i*b.size : (i+1)*b.size] }

// readBatches calls fn for each batch after seq, in order. A batch whose
// sizes do not add up is skipped (a damaged row).
func (ix *Index) readBatches(ctx context.Context, after int64, fn func(b *vecBatch) error) error {
	rows, err := ix.db.QueryContext(ctx, `SELECT seq, ids, vecs FROM vec.batches WHERE seq > ? ORDER BY seq`, after)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var b vecBatch
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

// storedVectors reads every vector of the store by text id (a later batch
// wins over an earlier one).
func (ix *Index) storedVectors(ctx context.Context) (map[int64][]byte, error) {
	out := map[int64][]byte{}
	err := ix.readBatches(ctx, 0, func(b *vecBatch) error {
		for i, id := range b.ids {
			out[id] = b.vec(i)
		}
		return nil
	})
	return out, err
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

// nearestScan is NearestItems by brute force: every item that passes the
// filter, with its text's vector, decoded and scored. It was the semantic
// channel before the in-memory index (vecstore.go) and is kept as the
// reference the tests compare it with.
func (ix *Index) nearestScan(ctx context.Context, q []float32, f memory.Filter, limit int) ([]memory.Hit, error) {
	vecs, err := ix.storedVectors(ctx)
	if err != nil {
		return nil, ix.wrapErr(err)
	}
	cond, args := where(f)
	rows, err := ix.query(ctx, `SELECT i.id, i.text_hash FROM items i WHERE 1`+cond, args...)
	if err != nil {
		return nil, ix.wrapErr(err)
	}
	defer rows.Close()
	var best []rankedItem // kept sorted, best first, at most limit long
	vec := make([]float32, len(q))
	for rows.Next() {
		var id int64
		var h string
		if err := rows.Scan(&id, &h); err != nil {
			return nil, ix.wrapErr(err)
		}
		tid, ok := textID(h)
		if !ok || vecs[tid] == nil || DecodeVector(vecs[tid], vec) != nil {
			continue // no vector, or one of another dimension
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
