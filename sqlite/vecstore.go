package sqlite

import (
	"bufio"
	"cmp"
	"context"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"hash/crc32"
	"io"
	"math"
	"os"
	"runtime"
	"slices"
	"sync"

	"memoria/ann"
	"memoria/memory"
	"memoria/safewrite"
)

// The semantic channel's vector index (docs/embeddings.md, "Vector index").
//
// An open Index keeps the vectors of vec.vectors in memory, keyed by text:
// the id of a vector is its TextHash read as a 64-bit number. They sit in
// an ann.Flat (int8, sign-bit prefilter with rerank 20), or, in a
// long-lived Index above FlatMaxVectors, in an ann.HNSW graph. Items are
// mapped to texts at query time through items.text_hash (indexed), so a
// Sync that adds or removes items needs no refresh of the vectors, and
// several items sharing one text share its vector.
//
// The store is loaded on the first semantic query and kept for the life of
// the Index. Every query first reads the vector store's key — its model,
// its epoch (drawn afresh whenever the store is emptied) and the highest
// embedding batch number (seq, indexed) — in one cheap statement: a new
// batch, from this or another process, is added to the loaded store
// (vectors with seq above the loaded one); a new model or epoch reloads it.
//
// The Flat is loaded from the vector store itself, the one copy of each
// vector: a batch per row (vectors.go), so a load reads a few large values.
// The graph, a structure of its own, is saved as index.sqlite.hnsw under a
// header naming the key it reflects; a process loads the file and adds the
// batches embedded since, and memoria index keeps it current
// (EmbedPending).

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

// Tunables, variables so that tests can exercise both structures on small
// data.
var (
	// flatMax is FlatMaxVectors.
	flatMax = FlatMaxVectors
	// filterScanMax: a filter selecting at most this many items is answered
	// by scoring those items' vectors directly instead of widening a search.
	filterScanMax = 4096
	// graphPatchMax is how many vectors a query-time load adds to a saved
	// HNSW graph that lags behind the store; beyond it the Flat is used
	// until memoria index brings the graph up to date.
	graphPatchMax = 2000
)

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

// vecStore is the in-memory vector index of an open Index.
type vecStore struct {
	key   vecKey
	dim   int
	flat  *ann.Flat // one of flat and graph
	graph *ann.HNSW
	from  string // where it was loaded from: "sqlite", "graph file", "graph build"
}

func (s *vecStore) len() int {
	if s.graph != nil {
		return s.graph.Len()
	}
	return s.flat.Len()
}

// search returns the k texts nearest q, best first.
func (s *vecStore) search(q []float32, k int) ([]ann.Hit, error) {
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
func (s *vecStore) exact(q []float32, k int) []ann.Hit {
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

func (s *vecStore) score(q []float32, id int64) (float32, bool) {
	if s.graph != nil {
		return s.graph.Score(q, id)
	}
	return s.flat.Score(q, id)
}

func sortHits(h []ann.Hit) {
	slices.SortFunc(h, func(a, b ann.Hit) int { return byScoreThenID(a.Score, b.Score, a.ID, b.ID) })
}

// byScoreThenID orders results best first, equal scores by id.
func byScoreThenID(scoreA, scoreB float32, idA, idB int64) int {
	return cmp.Or(cmp.Compare(scoreB, scoreA), cmp.Compare(idA, idB))
}

// textID is the vector id of a text hash (16 hex digits); ok is false for
// anything else.
func textID(h string) (int64, bool) {
	var b [8]byte
	if len(h) != 16 {
		return 0, false
	}
	if _, err := hex.Decode(b[:], []byte(h)); err != nil {
		return 0, false
	}
	return int64(binary.BigEndian.Uint64(b[:])), true
}

// textHashOf is textID's inverse.
func textHashOf(id int64) string {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], uint64(id))
	return hex.EncodeToString(b[:])
}

// vectorKey reads the vector store's key: one statement, index lookups only.
func (ix *Index) vectorKey(ctx context.Context) (vecKey, error) {
	var k vecKey
	err := ix.queryRow(ctx, `SELECT
		coalesce((SELECT value FROM vec.meta WHERE key = 'model'), ''),
		coalesce((SELECT value FROM vec.meta WHERE key = 'epoch'), ''),
		coalesce((SELECT max(seq) FROM vec.batches), 0)`).Scan(&k.Model, &k.Epoch, &k.Seq)
	return k, err
}

// vectorStore returns the in-memory vector index, loading or refreshing it
// as the vector store requires; nil when the store holds no vectors.
//
// The first load makes the Flat from the store, whatever the size: reading
// the HNSW graph's float32 vectors takes longer than a one-shot process
// (memoria recall) gains from the graph. From the second semantic query
// on, an Index is taken for long-lived (a server, a library user), and
// above FlatMaxVectors the saved graph is loaded in the background and
// swapped in once ready.
func (ix *Index) vectorStore(ctx context.Context) (*vecStore, error) {
	ix.vecMu.Lock()
	defer ix.vecMu.Unlock()
	key, err := ix.vectorKey(ctx)
	if err != nil {
		return nil, err
	}
	if key.Model == "" {
		ix.vecs = nil
		return nil, nil
	}
	ix.vecQueries++
	if g := ix.takeLoadedGraph(ctx, key); g != nil {
		ix.vecs = g
	}
	s := ix.vecs
	if s != nil && s.key.Model == key.Model && s.key.Epoch == key.Epoch {
		if s.key.Seq < key.Seq {
			lag, err := ix.countNewer(ctx, s.key.Seq)
			if err != nil {
				return nil, err
			}
			if s.graph != nil && lag > graphPatchMax {
				s = nil // too much to insert into the graph now: back to the Flat
			} else if _, err := ix.addNewVectors(ctx, s); err != nil {
				return nil, err
			}
		}
	} else {
		s = nil
	}
	if s == nil {
		if s, err = ix.loadVectors(ctx, key); err != nil {
			return nil, err
		}
		ix.vecs = s
	}
	if s != nil && s.graph == nil && s.len() > flatMax && ix.vecQueries >= 2 {
		ix.startGraphLoad(key)
	}
	return s, nil
}

// graphLoad is a background load of the saved HNSW graph.
type graphLoad struct {
	key   vecKey
	done  chan struct{} // closed when s is set
	s     *vecStore     // nil if the file could not be used
	taken bool
}

// startGraphLoad reads the saved graph in the background (file only, no
// database access), once per Index unless the key changes.
func (ix *Index) startGraphLoad(key vecKey) {
	if l := ix.graphLoad; l != nil && l.key.Model == key.Model && l.key.Epoch == key.Epoch {
		return
	}
	h, ok := readVecHeader(ix.graphFile())
	if !ok || h.Kind != "hnsw" || h.Model != key.Model || h.Epoch != key.Epoch {
		ix.warnNoGraph()
		return
	}
	l := &graphLoad{key: key, done: make(chan struct{})}
	ix.graphLoad = l
	go func() {
		defer close(l.done)
		l.s = ix.loadGraphFile(key)
	}()
}

// takeLoadedGraph returns the graph loaded in the background, once, if it
// is ready, still of the store's model and epoch, and close enough to its
// last batch (the rest is added here); nil otherwise.
func (ix *Index) takeLoadedGraph(ctx context.Context, key vecKey) *vecStore {
	l := ix.graphLoad
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
	lag, err := ix.countNewer(ctx, g.key.Seq)
	if err != nil || lag > graphPatchMax {
		ix.warnNoGraph()
		return nil
	}
	if _, err := ix.addNewVectors(ctx, g); err != nil {
		return nil
	}
	return g
}

// loadVectors builds the in-memory index for key: from the saved graph
// when it is current enough, else a Flat from the vector store.
func (ix *Index) loadVectors(ctx context.Context, key vecKey) (*vecStore, error) {
	return ix.loadFlat(ctx, key, true)
}

// loadFlat is loadVectors; without allowGraph it never returns the graph.
func (ix *Index) loadFlat(ctx context.Context, key vecKey, allowGraph bool) (*vecStore, error) {
	if allowGraph {
		if s, err := ix.currentGraph(ctx, key); err != nil || s != nil {
			return s, err
		}
	}
	s := &vecStore{key: vecKey{Model: key.Model, Epoch: key.Epoch}, from: "sqlite"}
	if _, err := ix.addNewVectors(ctx, s); err != nil {
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
func (ix *Index) currentGraph(ctx context.Context, key vecKey) (*vecStore, error) {
	h, ok := readVecHeader(ix.graphFile())
	if !ok || h.Kind != "hnsw" || h.Model != key.Model || h.Epoch != key.Epoch || h.Seq > key.Seq {
		return nil, nil
	}
	lag, err := ix.countNewer(ctx, h.Seq)
	if err != nil || lag > graphPatchMax {
		return nil, err
	}
	s := ix.loadGraphFile(key)
	if s == nil {
		return nil, nil
	}
	if _, err := ix.addNewVectors(ctx, s); err != nil {
		return nil, err
	}
	return s, nil
}

func (ix *Index) warnNoGraph() {
	if !ix.vecWarned {
		ix.vecWarned = true
		ix.opts.warn("more than %d vectors and no current vector graph (%s): semantic recall scans them; run memoria index to build it", flatMax, ix.graphFile())
	}
}

// countNewer counts the vectors of batches after seq.
func (ix *Index) countNewer(ctx context.Context, seq int64) (int, error) {
	var n int
	err := ix.queryRow(ctx, `SELECT count(*) FROM vec.texts WHERE seq > ?`, seq).Scan(&n)
	return n, err
}

// addNewVectors adds to s the vectors of batches after s.key.Seq (all of
// them when s is empty) and advances s.key.Seq; it returns how many.
// Vectors that cannot be used (another dimension, unreadable) are skipped.
func (ix *Index) addNewVectors(ctx context.Context, s *vecStore) (int, error) {
	// The batches first, so that everything is sized once: appending
	// vector by vector grew the slices a few dozen times on a large store.
	var batches []*vecBatch
	total := 0
	maxSeq := s.key.Seq
	err := ix.readBatches(ctx, s.key.Seq, func(b *vecBatch) error {
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
				if DecodeVector(b.vec(i), v) == nil && s.graph.Add(id, v) == nil {
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
			v := b.vec(i)
			scale := math.Float32frombits(binary.LittleEndian.Uint32(v))
			if math.IsNaN(float64(scale)) || math.IsInf(float64(scale), 0) {
				continue
			}
			k := len(q8)
			q8 = q8[:k+s.dim]
			for j, x := range v[4:] {
				q8[k+j] = int8(x)
			}
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

// graphFile is the file beside the index holding the saved vector graph.
func (ix *Index) graphFile() string { return ix.path + ".hnsw" }

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
func (ix *Index) loadGraphFile(key vecKey) *vecStore {
	f, h, size, err := openVecFile(ix.graphFile())
	if err != nil {
		return nil
	}
	defer f.Close()
	if h.Kind != "hnsw" || h.Model != key.Model || h.Epoch != key.Epoch || h.Seq > key.Seq {
		return nil
	}
	g, err := ann.ReadHNSW(bufio.NewReaderSize(f, 1<<20), size)
	if err != nil || g.Dim() != h.Dim {
		ix.opts.warn("vector graph %s unreadable (%v); memoria index rebuilds it", ix.graphFile(), err)
		return nil
	}
	g.SetEfSearch(hnswConfig.EfSearch)
	return &vecStore{key: h.vecKey, dim: h.Dim, graph: g, from: "graph file"}
}

// syncVectorFiles brings the saved vector graph up to date with the
// vector store (EmbedPending calls it): above FlatMaxVectors the HNSW
// graph is built or extended here (~0.5 ms per vector on 2 cores), never
// in a recall; below it there is no file. A current file costs one header
// read.
func (ix *Index) syncVectorFiles(ctx context.Context) error {
	os.Remove(ix.path + ".vecs") // the Flat's saved copy, made before batches
	key, err := ix.vectorKey(ctx)
	if err != nil || key.Model == "" {
		return err
	}
	var total int
	if err := ix.queryRow(ctx, `SELECT count(*) FROM vec.texts`).Scan(&total); err != nil {
		return err
	}
	if total <= flatMax {
		os.Remove(ix.graphFile())
		return nil
	}
	if gh, ok := readVecHeader(ix.graphFile()); ok && gh.Kind == "hnsw" && gh.vecKey == key && gh.N == total {
		return nil
	}
	ix.vecMu.Lock()
	defer ix.vecMu.Unlock()
	// The graph: the one in memory, the saved one extended, or a new one
	// (also when it lacks vectors of the store).
	var g *vecStore
	if s := ix.vecs; s != nil && s.graph != nil && s.key.Model == key.Model && s.key.Epoch == key.Epoch {
		g = s
	} else if gh, ok := readVecHeader(ix.graphFile()); ok && gh.Kind == "hnsw" && gh.Model == key.Model && gh.Epoch == key.Epoch && gh.Seq <= key.Seq {
		g = ix.loadGraphFile(key)
	}
	if g != nil {
		if _, err := ix.addNewVectors(ctx, g); err != nil {
			return err
		}
		if g.len() != total {
			g = nil
		}
	}
	if g == nil {
		g = &vecStore{key: vecKey{Model: key.Model, Epoch: key.Epoch}, from: "graph build"}
		if err := ix.buildGraph(ctx, g); err != nil {
			return err
		}
		if ix.vecs != nil && ix.vecs.graph != nil {
			ix.vecs = g
		}
	}
	if h, ok := readVecHeader(ix.graphFile()); ok && h.Kind == "hnsw" && h.vecKey == g.key && h.N == g.len() {
		return nil
	}
	return writeVecFile(ix.graphFile(), vecFileHeader{Kind: "hnsw", Dim: g.dim, N: g.graph.Len(), vecKey: g.key}, g.graph)
}

// buildGraph fills an empty graph with every vector of the store,
// inserting in parallel; it sets the graph's dimension from the first
// batch.
func (ix *Index) buildGraph(ctx context.Context, g *vecStore) error {
	var ids []int64
	var vecs []float32
	at := map[int64]int{} // a text in two batches: the later vector
	err := ix.readBatches(ctx, 0, func(b *vecBatch) error {
		g.key.Seq = max(g.key.Seq, b.seq)
		if g.dim == 0 {
			g.dim = b.size - 4
		}
		v := make([]float32, g.dim)
		for i, id := range b.ids {
			if DecodeVector(b.vec(i), v) != nil {
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

// rankedItem is an item ranked by the similarity of its text's vector.
type rankedItem struct {
	id    int64
	score float32
}

// NearestItems ranks the items that pass the filter by the dot product of
// their text's vector with q (a unit vector from the stored model), best
// first, ties by row id. Items without a vector are not ranked.
//
// It searches the in-memory vector index (see the top of this file) for
// the nearest texts and maps them to items; with a filter it over-fetches
// texts, widening the search ×4 until limit items pass or the texts run
// out, and a filter that selects at most filterScanMax items is answered
// by scoring exactly those.
func (ix *Index) NearestItems(ctx context.Context, q []float32, f memory.Filter, limit int) ([]memory.Hit, error) {
	if limit <= 0 || len(q) == 0 {
		return nil, nil
	}
	s, err := ix.vectorStore(ctx)
	if err != nil {
		return nil, ix.wrapErr(err)
	}
	if s == nil || s.dim != len(q) {
		return nil, nil // no vectors, or vectors of another model's size
	}
	cond, args := where(f)
	k := limit
	if cond != "" {
		k = 4 * limit
	}
	var ranked []rankedItem
	for round := 0; ; round++ {
		hits, err := s.search(q, k)
		if err != nil {
			return nil, err
		}
		if ranked, err = ix.itemsOfTexts(ctx, hits, cond, args); err != nil {
			return nil, ix.wrapErr(err)
		}
		n := s.len()
		if len(ranked) >= limit || len(hits) < k || k >= n {
			break
		}
		// Too few of the nearest texts pass the filter. passed/k estimates
		// the share of texts it selects: if that is small, score the items
		// it selects; else search wider, as far as that share says.
		passed := len(ranked)
		if cond != "" && round == 0 && passed*n <= 2*filterScanMax*k {
			all, ok, err := ix.scoreFiltered(ctx, s, q, cond, args)
			if err != nil {
				return nil, ix.wrapErr(err)
			}
			if ok {
				ranked = all
				break
			}
		}
		next := 4 * k
		if passed > 0 {
			next = max(2*k, k*limit*3/(2*passed))
		}
		k = min(next, n)
	}
	if len(ranked) > limit {
		ranked = ranked[:limit]
	}
	return ix.hitsOf(ctx, ranked)
}

// itemsOfTexts maps texts (vector hits) to the items that carry them and
// pass the filter, ranked by their text's score, ties by row id.
func (ix *Index) itemsOfTexts(ctx context.Context, hits []ann.Hit, cond string, args []any) ([]rankedItem, error) {
	if len(hits) == 0 {
		return nil, nil
	}
	score := make(map[string]float32, len(hits))
	hashes := make([]string, len(hits))
	for i, h := range hits {
		hashes[i] = textHashOf(h.ID)
		score[hashes[i]] = h.Score
	}
	list, err := json.Marshal(hashes)
	if err != nil {
		return nil, err
	}
	rows, err := ix.query(ctx, `SELECT i.id, i.text_hash FROM items i
		WHERE i.text_hash IN (SELECT value FROM json_each(?))`+cond, append([]any{string(list)}, args...)...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []rankedItem
	for rows.Next() {
		var id int64
		var h string
		if err := rows.Scan(&id, &h); err != nil {
			return nil, err
		}
		out = append(out, rankedItem{id, score[h]})
	}
	sortRanked(out)
	return out, rows.Err()
}

// scoreFiltered ranks every item the filter selects, when it selects at
// most filterScanMax; ok is false when it selects more.
func (ix *Index) scoreFiltered(ctx context.Context, s *vecStore, q []float32, cond string, args []any) ([]rankedItem, bool, error) {
	rows, err := ix.query(ctx, `SELECT i.id, i.text_hash FROM items i WHERE 1`+cond+` LIMIT ?`, slices.Concat(args, []any{filterScanMax + 1})...)
	if err != nil {
		return nil, false, err
	}
	defer rows.Close()
	var out []rankedItem
	seen := 0
	for rows.Next() {
		var id int64
		var h string
		if err := rows.Scan(&id, &h); err != nil {
			return nil, false, err
		}
		if seen++; seen > filterScanMax {
			return nil, false, nil
		}
		if tid, ok := textID(h); ok {
			if sc, ok := s.score(q, tid); ok {
				out = append(out, rankedItem{id, sc})
			}
		}
	}
	if err := rows.Err(); err != nil {
		return nil, false, err
	}
	sortRanked(out)
	return out, true, nil
}

func sortRanked(r []rankedItem) {
	slices.SortFunc(r, func(a, b rankedItem) int { return byScoreThenID(a.score, b.score, a.id, b.id) })
}

// hitsOf loads the ranked items, keeping their order.
func (ix *Index) hitsOf(ctx context.Context, ranked []rankedItem) ([]memory.Hit, error) {
	if len(ranked) == 0 {
		return nil, nil
	}
	ids := make([]int64, len(ranked))
	for i, r := range ranked {
		ids[i] = r.id
	}
	items, err := ix.itemsWithIDs(ctx, ids)
	if err != nil {
		return nil, ix.wrapErr(err)
	}
	hits := make([]memory.Hit, 0, len(ranked))
	for _, r := range ranked {
		if it, ok := items[r.id]; ok {
			hits = append(hits, memory.Hit{Item: it, Score: float64(r.score)})
		}
	}
	return hits, nil
}
