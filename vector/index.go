package vector

import (
	"bufio"
	"cmp"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"runtime"
	"slices"
	"sync"

	"memoria/ann"
	"memoria/safewrite"
)

// The in-memory vector index (docs/embeddings.md, "Vector index").
//
// A Store keeps its vectors in memory, keyed by text: the id of a vector
// is the index's text hash read as a 64-bit number (TextID). They sit in an
// ann.Flat (int8, sign-bit prefilter with rerank 20), or, in a long-lived
// Store above FlatMaxVectors, in an ann.HNSW graph. The index maps its
// items to texts at query time, so adding or removing items needs no
// refresh of the vectors, and several items sharing one text share its
// vector.
//
// The Index is loaded on the first search and kept for the life of the
// Store. Every search first reads the store's key — its model, its epoch
// (drawn afresh whenever the store is emptied) and the highest embedding
// batch number (seq) — in one cheap statement: a new batch, from this or
// another process, is added to the loaded Index; a new model or epoch
// reloads it.
//
// The Flat is made from the store itself, the one copy of each vector: a
// batch per row (store.go), so a load reads a few large values. The graph,
// a structure of its own, is saved beside the store under a header naming
// the key it reflects; a process loads the file and adds the batches
// embedded since, and SaveGraph (memoria index) keeps it current.

// FlatMaxVectors is the largest vector store a long-lived Index searches
// with ann.Flat; above it, with the HNSW graph that EmbedPending (memoria
// index) builds and saves. On real USE-lite vectors (docs/embeddings.md)
// the int8 Flat with rerank 20 takes ~2 ms per 100k vectors for the top
// 100 at recall@100 0.999, the graph ~1.4–2.2 ms at 0.98–0.99 whatever the
// size: the graph pays for its build (~30 s per 100k vectors on 2 cores),
// its 4× larger file and its lower recall only once a Flat search costs
// ~5 ms, i.e. from about 250k vectors. (An exact float32 scan reaches that
// at about 100k; the prefilter moves the line.)
const FlatMaxVectors = 250_000

// flatRerank is the Flat's prefilter setting: 20×k codes re-scored exactly
// (recall@100 0.9998 at 100k real vectors, 0.9990 at 308k).
const flatRerank = 20

// minSearchK is the fewest texts a search asks the Flat for.
const minSearchK = 50

// hnswConfig is the graph's configuration: M 16, efConstruction 64 gave
// recall@10 ≥ 0.96 at ef 40 on 1M × 512-d (docs/ann.md); queries here ask
// for ~100 texts, searched with ef = max(EfSearch, 4k): recall@100 0.992
// at 308k real vectors, 2.2 ms.
var hnswConfig = ann.HNSWConfig{M: 16, EfConstruction: 64, EfSearch: 128}

// vecKey names the contents of a vector store.
type vecKey struct {
	Model string `json:"model"`
	Epoch string `json:"epoch"`
	Seq   int64  `json:"seq"` // highest embedding batch included
}

// Index is a Store's in-memory vector index, as loaded at one moment: a
// search holds it while it runs, and a later one may see a newer one.
type Index struct {
	key   vecKey
	dim   int
	flat  *ann.Flat // one of flat and graph
	graph *ann.HNSW
	from  string // where it was loaded from: "sqlite", "graph file", "graph build"
}

// Len is how many vectors the index holds.
func (s *Index) Len() int { return s.len() }

// Dim is the length of its vectors.
func (s *Index) Dim() int { return s.dim }

// From says where it was loaded from: "sqlite" (the store), "graph file"
// or "graph build".
func (s *Index) From() string { return s.from }

// Seq is the last embedding batch it holds.
func (s *Index) Seq() int64 { return s.key.Seq }

// Model is the model of its vectors.
func (s *Index) Model() string { return s.key.Model }

// OnGraph reports whether it searches an HNSW graph (else a Flat).
func (s *Index) OnGraph() bool { return s.graph != nil }

// Search returns the k texts nearest q, best first.
func (s *Index) Search(q []float32, k int) ([]ann.Hit, error) { return s.search(q, k) }

// Score is the similarity of q with the text id's vector; ok is false
// when the index has none.
func (s *Index) Score(q []float32, id int64) (float32, bool) { return s.score(q, id) }

func (s *Index) len() int {
	if s.graph != nil {
		return s.graph.Len()
	}
	return s.flat.Len()
}

// search returns the k texts nearest q, best first.
func (s *Index) search(q []float32, k int) ([]ann.Hit, error) {
	if s.graph == nil {
		// At least minSearchK, so that the prefilter keeps enough codes
		// for a small k (20 codes for k = 1 lose the best a quarter of the
		// time).
		hits, err := s.flat.Search(q, max(k, minSearchK))
		return hits[:min(k, len(hits))], err
	}
	if k >= s.len()/2 {
		return s.exact(q, k), nil // cheaper than a graph search that visits everything
	}
	return s.graph.SearchEf(q, k, max(hnswConfig.EfSearch, 4*k))
}

// exact scores every text (the graph's fallback).
func (s *Index) exact(q []float32, k int) []ann.Hit {
	ids := s.graph.IDs()
	hits := make([]ann.Hit, 0, len(ids))
	for _, id := range ids {
		if sc, ok := s.graph.Score(q, id); ok {
			hits = append(hits, ann.Hit{ID: id, Score: sc})
		}
	}
	sortHits(hits)
	return hits[:min(k, len(hits))]
}

func (s *Index) score(q []float32, id int64) (float32, bool) {
	if s.graph != nil {
		return s.graph.Score(q, id)
	}
	return s.flat.Score(q, id)
}

func sortHits(h []ann.Hit) {
	slices.SortFunc(h, func(a, b ann.Hit) int { return ByScoreThenID(a.Score, b.Score, a.ID, b.ID) })
}

// ByScoreThenID orders results best first, equal scores by id.
func ByScoreThenID(scoreA, scoreB float32, idA, idB int64) int {
	return cmp.Or(cmp.Compare(scoreB, scoreA), cmp.Compare(idA, idB))
}

// vectorKey reads the vector store's key: one statement, index lookups only.
func (vs *Store) vectorKey(ctx context.Context) (vecKey, error) {
	var k vecKey
	err := vs.handle().QueryRowContext(ctx, `SELECT
		coalesce((SELECT value FROM meta WHERE key = 'model'), ''),
		coalesce((SELECT value FROM meta WHERE key = 'epoch'), ''),
		coalesce((SELECT max(seq) FROM batches), 0)`).Scan(&k.Model, &k.Epoch, &k.Seq)
	return k, err
}

// Index returns the in-memory vector index, loading or refreshing it as
// the store requires; nil when the store holds no vectors.
//
// The first load makes the Flat from the store, whatever the size: reading
// the HNSW graph's float32 vectors takes longer than a one-shot process
// (memoria recall) gains from the graph. From the second semantic query
// on, an Index is taken for long-lived (a server, a library user), and
// above FlatMaxVectors the saved graph is loaded in the background and
// swapped in once ready.
//
// A store found damaged meanwhile (a disk error, a file written over) is
// set aside and started afresh, with one warning, and the search finds
// nothing: semantic recall is off until the texts are embedded again
// (memoria index), and lexical recall goes on.
func (vs *Store) Index(ctx context.Context) (*Index, error) {
	vs.mu.Lock()
	defer vs.mu.Unlock()
	ix, err := vs.index(ctx)
	if isCorrupt(err) {
		vs.opts.warn("vector store %s is damaged (%v); starting it afresh (recall embeds the texts again when the model is installed, or memoria index does; lexical recall goes on meanwhile)", vs.path, err)
		vs.lost.Store(true)
		return nil, vs.reset(ctx)
	}
	return ix, err
}

// reset replaces a damaged store with an empty one.
func (vs *Store) reset(ctx context.Context) error {
	vs.handle().Close()
	vs.mem, vs.graphLoad = nil, nil
	for _, suffix := range []string{"", "-wal", "-shm", "-journal"} {
		os.Remove(vs.path + suffix)
	}
	os.Remove(vs.graphPath)
	fresh, err := open(ctx, vs.path, vs.graphPath, vs.opts)
	if err != nil {
		return fmt.Errorf("vectors %s: %w", vs.path, err)
	}
	vs.dbMu.Lock()
	vs.db = fresh.db
	vs.dbMu.Unlock()
	return nil
}

// Reopen closes the store's database and opens the file at its path again
// (Open: a damaged one set aside, a missing one started afresh, and Lost
// then says so): for a long-lived process whose index found its folder
// deleted or its files replaced, where the store would go on reading and
// writing a file no other process sees.
func (vs *Store) Reopen(ctx context.Context) error {
	vs.mu.Lock()
	defer vs.mu.Unlock()
	_, statErr := os.Stat(vs.path)
	vs.handle().Close()
	vs.mem, vs.graphLoad = nil, nil
	fresh, err := Open(ctx, vs.path, vs.graphPath, vs.opts)
	if err != nil {
		return err
	}
	vs.dbMu.Lock()
	vs.db = fresh.db
	vs.dbMu.Unlock()
	if statErr != nil || fresh.Lost() {
		vs.lost.Store(true)
	}
	return nil
}

func (vs *Store) index(ctx context.Context) (*Index, error) {
	key, err := vs.vectorKey(ctx)
	if err != nil {
		return nil, err
	}
	if key.Model == "" {
		vs.mem = nil
		return nil, nil
	}
	vs.searches++
	if g := vs.takeLoadedGraph(ctx, key); g != nil {
		vs.mem = g
	}
	s := vs.mem
	if s != nil && s.key.Model == key.Model && s.key.Epoch == key.Epoch {
		if s.key.Seq < key.Seq {
			lag, err := vs.countNewer(ctx, s.key.Seq)
			if err != nil {
				return nil, err
			}
			if s.graph != nil && lag > vs.opts.graphPatchMax() {
				s = nil // too much to insert into the graph now: back to the Flat
			} else if _, err := vs.addNewVectors(ctx, s); err != nil {
				return nil, err
			}
		}
	} else {
		s = nil
	}
	if s == nil {
		if s, err = vs.loadVectors(ctx, key); err != nil {
			return nil, err
		}
		vs.mem = s
	}
	if s != nil && s.graph == nil && s.len() > vs.opts.flatMax() && vs.searches >= 2 {
		vs.startGraphLoad(key)
	}
	return s, nil
}

// graphLoad is a background load of the saved HNSW graph.
type graphLoad struct {
	key   vecKey
	done  chan struct{} // closed when s is set
	s     *Index        // nil if the file could not be used
	taken bool
}

// startGraphLoad reads the saved graph in the background (file only, no
// database access), once per Index unless the key changes.
func (vs *Store) startGraphLoad(key vecKey) {
	if l := vs.graphLoad; l != nil && l.key.Model == key.Model && l.key.Epoch == key.Epoch {
		return
	}
	h, ok := readVecHeader(vs.graphPath)
	if !ok || h.Kind != "hnsw" || h.Model != key.Model || h.Epoch != key.Epoch {
		vs.warnNoGraph()
		return
	}
	l := &graphLoad{key: key, done: make(chan struct{})}
	vs.graphLoad = l
	go func() {
		defer close(l.done)
		l.s = vs.loadGraphFile(key)
	}()
}

// takeLoadedGraph returns the graph loaded in the background, once, if it
// is ready, still of the store's model and epoch, and close enough to its
// last batch (the rest is added here); nil otherwise.
func (vs *Store) takeLoadedGraph(ctx context.Context, key vecKey) *Index {
	l := vs.graphLoad
	if l == nil || l.taken {
		return nil
	}
	select {
	case <-l.done:
	default:
		return nil
	}
	l.taken = true
	g := l.s
	l.s = nil
	if g == nil || g.key.Model != key.Model || g.key.Epoch != key.Epoch {
		return nil
	}
	lag, err := vs.countNewer(ctx, g.key.Seq)
	if err != nil || lag > vs.opts.graphPatchMax() {
		vs.warnNoGraph()
		return nil
	}
	if _, err := vs.addNewVectors(ctx, g); err != nil {
		return nil
	}
	return g
}

// loadVectors builds the in-memory index for key: from the saved graph
// when it is current enough, else a Flat from the vector store.
func (vs *Store) loadVectors(ctx context.Context, key vecKey) (*Index, error) {
	return vs.loadFlat(ctx, key, true)
}

// loadFlat is loadVectors; without allowGraph it never returns the graph.
func (vs *Store) loadFlat(ctx context.Context, key vecKey, allowGraph bool) (*Index, error) {
	if allowGraph {
		if s, err := vs.currentGraph(ctx, key); err != nil || s != nil {
			return s, err
		}
	}
	s := &Index{key: vecKey{Model: key.Model, Epoch: key.Epoch}, from: "sqlite"}
	if _, err := vs.addNewVectors(ctx, s); err != nil {
		return nil, err
	}
	if s.flat == nil { // no usable vectors after all
		return nil, nil
	}
	return s, nil
}

// currentGraph loads the saved graph when it holds key's model and epoch
// and lags behind it by at most graphPatchMax vectors, which it adds; nil
// otherwise.
func (vs *Store) currentGraph(ctx context.Context, key vecKey) (*Index, error) {
	h, ok := readVecHeader(vs.graphPath)
	if !ok || h.Kind != "hnsw" || h.Model != key.Model || h.Epoch != key.Epoch || h.Seq > key.Seq {
		return nil, nil
	}
	lag, err := vs.countNewer(ctx, h.Seq)
	if err != nil || lag > vs.opts.graphPatchMax() {
		return nil, err
	}
	s := vs.loadGraphFile(key)
	if s == nil {
		return nil, nil
	}
	if _, err := vs.addNewVectors(ctx, s); err != nil {
		return nil, err
	}
	return s, nil
}

func (vs *Store) warnNoGraph() {
	if !vs.warned {
		vs.warned = true
		vs.opts.warn("more than %d vectors and no current vector graph (%s): semantic recall scans them; run memoria index to build it", vs.opts.flatMax(), vs.graphPath)
	}
}

// countNewer counts the vectors of batches after seq.
func (vs *Store) countNewer(ctx context.Context, seq int64) (int, error) {
	var n int
	err := vs.handle().QueryRowContext(ctx, `SELECT count(*) FROM texts WHERE seq > ?`, seq).Scan(&n)
	return n, err
}

// addNewVectors adds to s the vectors of batches after s.key.Seq (all of
// them when s is empty) and advances s.key.Seq; it returns how many.
// Vectors that cannot be used (another dimension, unreadable) are skipped.
func (vs *Store) addNewVectors(ctx context.Context, s *Index) (int, error) {
	// The batches first, so that everything is sized once: appending
	// vector by vector grew the slices a few dozen times on a large store.
	var batches []*batch
	total := 0
	maxSeq := s.key.Seq
	err := vs.readBatches(ctx, s.key.Seq, func(b *batch) error {
		maxSeq = max(maxSeq, b.seq)
		if s.dim == 0 {
			s.dim = b.size - 4
			s.flat = ann.NewFlat(s.dim, ann.FlatOptions{Rerank: flatRerank, Int8: true})
		}
		if b.size-4 == s.dim { // else a stale batch of another dimension
			batches = append(batches, b)
			total += len(b.ids)
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	n := 0
	if s.graph != nil {
		v := make([]float32, s.dim)
		for _, b := range batches {
			for i, id := range b.ids {
				if Decode(b.vec(i), v) == nil && s.graph.Add(id, v) == nil {
					n++
				}
			}
		}
		s.key.Seq = maxSeq
		return n, nil
	}
	q8 := make([]int8, 0, total*s.dim)
	ids := make([]int64, 0, total)
	scales := make([]float32, 0, total)
	for _, b := range batches {
		for i, id := range b.ids {
			k := len(q8)
			scale, err := DecodeInt8(b.vec(i), q8[k:k+s.dim])
			if err != nil {
				continue
			}
			q8 = q8[:k+s.dim]
			ids, scales = append(ids, id), append(scales, scale)
		}
		b.vecs = nil // let the batch's copy go as soon as it is converted
	}
	if len(ids) > 0 {
		s.flat.Grow(len(ids))
		if err := s.flat.AddInt8Batch(ids, q8, scales); err != nil {
			return 0, err
		}
	}
	s.key.Seq = maxSeq
	return len(ids), nil
}

// The files start with a small header naming what they hold:
//
//	magic   [8]byte "MEMVIDX\x01"
//	length  uint32, then that many bytes of JSON: {"kind", "dim", "n", "model", "epoch", "seq"}
//	crc     uint32, CRC-32C of the JSON
//
// followed by the ann file (ann.Flat or ann.HNSW format, with its own CRC).
const vecFileMagic = "MEMVIDX\x01"

type vecFileHeader struct {
	Kind string `json:"kind"` // "flat" or "hnsw"
	Dim  int    `json:"dim"`
	N    int    `json:"n"` // vectors
	vecKey
}

// readVecHeader reads only the header of a saved index.
func readVecHeader(path string) (vecFileHeader, bool) {
	f, h, _, err := openVecFile(path)
	if err != nil {
		return h, false
	}
	f.Close()
	return h, true
}

// crcTable is made on first use: start-up of a lexical recall should not
// pay for it.
var crcTable = sync.OnceValue(func() *crc32.Table { return crc32.MakeTable(crc32.Castagnoli) })

func writeVecFile(path string, h vecFileHeader, payload io.WriterTo) error {
	hb, err := json.Marshal(h)
	if err != nil {
		return err
	}
	return safewrite.ReplaceFile(path, 0o644, func(w io.Writer) error {
		var buf [4]byte
		io.WriteString(w, vecFileMagic)
		binary.LittleEndian.PutUint32(buf[:], uint32(len(hb)))
		w.Write(buf[:])
		w.Write(hb)
		binary.LittleEndian.PutUint32(buf[:], crc32.Checksum(hb, crcTable()))
		if _, err := w.Write(buf[:]); err != nil {
			return err
		}
		_, err := payload.WriteTo(w)
		return err
	})
}

// openVecFile opens a saved index and reads its header; the reader is
// positioned at the payload, whose size is returned.
func openVecFile(path string) (*os.File, vecFileHeader, int64, error) {
	var h vecFileHeader
	f, err := os.Open(path)
	if err != nil {
		return nil, h, 0, err
	}
	fail := func(err error) (*os.File, vecFileHeader, int64, error) {
		f.Close()
		return nil, h, 0, err
	}
	st, err := f.Stat()
	if err != nil {
		return fail(err)
	}
	var pre [12]byte
	if _, err := io.ReadFull(f, pre[:]); err != nil || string(pre[:8]) != vecFileMagic {
		return fail(errors.New("not a vector index file"))
	}
	hl := int64(binary.LittleEndian.Uint32(pre[8:]))
	if hl > 1<<16 || 12+hl+4 > st.Size() {
		return fail(errors.New("bad header length"))
	}
	hb := make([]byte, hl+4)
	if _, err := io.ReadFull(f, hb); err != nil {
		return fail(err)
	}
	if crc32.Checksum(hb[:hl], crcTable()) != binary.LittleEndian.Uint32(hb[hl:]) {
		return fail(errors.New("header checksum mismatch"))
	}
	if err := json.Unmarshal(hb[:hl], &h); err != nil {
		return fail(err)
	}
	return f, h, st.Size() - 12 - hl - 4, nil
}

// loadGraphFile loads the saved HNSW graph when it holds vectors of key's
// model and epoch (any batch up to key.Seq: newer ones are added after);
// nil otherwise.
func (vs *Store) loadGraphFile(key vecKey) *Index {
	f, h, size, err := openVecFile(vs.graphPath)
	if err != nil {
		return nil
	}
	defer f.Close()
	if h.Kind != "hnsw" || h.Model != key.Model || h.Epoch != key.Epoch || h.Seq > key.Seq {
		return nil
	}
	g, err := ann.ReadHNSW(bufio.NewReaderSize(f, 1<<20), size)
	if err != nil || g.Dim() != h.Dim {
		vs.opts.warn("vector graph %s unreadable (%v); memoria index rebuilds it", vs.graphPath, err)
		return nil
	}
	g.SetEfSearch(hnswConfig.EfSearch)
	return &Index{key: h.vecKey, dim: h.Dim, graph: g, from: "graph file"}
}

// SaveGraph brings the saved vector graph up to date with the store
// (memoria index calls it after embedding): above FlatMaxVectors the HNSW
// graph is built or extended here (~0.5 ms per vector on 2 cores), never
// in a recall; below it there is no file. A current file costs one header
// read.
func (vs *Store) SaveGraph(ctx context.Context) error {
	key, err := vs.vectorKey(ctx)
	if err != nil || key.Model == "" {
		return err
	}
	var total int
	if err := vs.handle().QueryRowContext(ctx, `SELECT count(*) FROM texts`).Scan(&total); err != nil {
		return err
	}
	if total <= vs.opts.flatMax() {
		os.Remove(vs.graphPath)
		return nil
	}
	if gh, ok := readVecHeader(vs.graphPath); ok && gh.Kind == "hnsw" && gh.vecKey == key && gh.N == total {
		return nil
	}
	vs.mu.Lock()
	defer vs.mu.Unlock()
	// The graph: the one in memory, the saved one extended, or a new one
	// (also when it lacks vectors of the store).
	var g *Index
	if s := vs.mem; s != nil && s.graph != nil && s.key.Model == key.Model && s.key.Epoch == key.Epoch {
		g = s
	} else if gh, ok := readVecHeader(vs.graphPath); ok && gh.Kind == "hnsw" && gh.Model == key.Model && gh.Epoch == key.Epoch && gh.Seq <= key.Seq {
		g = vs.loadGraphFile(key)
	}
	if g != nil {
		if _, err := vs.addNewVectors(ctx, g); err != nil {
			return err
		}
		if g.len() != total {
			g = nil
		}
	}
	if g == nil {
		g = &Index{key: vecKey{Model: key.Model, Epoch: key.Epoch}, from: "graph build"}
		if err := vs.buildGraph(ctx, g); err != nil {
			return err
		}
		if vs.mem != nil && vs.mem.graph != nil {
			vs.mem = g
		}
	}
	if h, ok := readVecHeader(vs.graphPath); ok && h.Kind == "hnsw" && h.vecKey == g.key && h.N == g.len() {
		return nil
	}
	return writeVecFile(vs.graphPath, vecFileHeader{Kind: "hnsw", Dim: g.dim, N: g.graph.Len(), vecKey: g.key}, g.graph)
}

// buildGraph fills an empty graph with every vector of the store,
// inserting in parallel; it sets the graph's dimension from the first
// batch.
func (vs *Store) buildGraph(ctx context.Context, g *Index) error {
	var ids []int64
	var vecs []float32
	at := map[int64]int{} // a text in two batches: the later vector
	err := vs.readBatches(ctx, 0, func(b *batch) error {
		g.key.Seq = max(g.key.Seq, b.seq)
		if g.dim == 0 {
			g.dim = b.size - 4
		}
		v := make([]float32, g.dim)
		for i, id := range b.ids {
			if Decode(b.vec(i), v) != nil {
				continue
			}
			if j, ok := at[id]; ok {
				copy(vecs[j*g.dim:], v)
				continue
			}
			at[id] = len(ids)
			ids, vecs = append(ids, id), append(vecs, v...)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if g.dim == 0 {
		return errors.New("no vectors")
	}
	g.graph = ann.NewHNSW(g.dim, hnswConfig)
	return g.graph.AddBatch(ids, vecs, runtime.GOMAXPROCS(0))
}

// Loaded is the in-memory index as the last search left it, without
// loading or refreshing it; nil before the first search. For diagnostics
// and tests.
func (vs *Store) Loaded() *Index {
	vs.mu.Lock()
	defer vs.mu.Unlock()
	return vs.mem
}

// GraphLoading returns a channel closed once the background load of the
// saved graph started by a search is done, or nil when none was started.
func (vs *Store) GraphLoading() <-chan struct{} {
	vs.mu.Lock()
	defer vs.mu.Unlock()
	if vs.graphLoad == nil {
		return nil
	}
	return vs.graphLoad.done
}

// GraphCurrent reports whether the saved graph holds exactly the store's
// vectors (its model, epoch and last batch).
func (vs *Store) GraphCurrent(ctx context.Context) (bool, error) {
	key, err := vs.vectorKey(ctx)
	if err != nil {
		return false, err
	}
	h, ok := readVecHeader(vs.graphPath)
	return ok && h.Kind == "hnsw" && h.vecKey == key, nil
}

// Count is how many texts have a vector.
func (vs *Store) Count(ctx context.Context) (int, error) {
	var n int
	err := vs.handle().QueryRowContext(ctx, `SELECT count(*) FROM texts`).Scan(&n)
	return n, err
}
