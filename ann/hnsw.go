package ann

import (
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
)

// HNSWConfig holds the parameters of a Hierarchical Navigable Small World
// graph (Malkov & Yashunin, arXiv:1603.09320).
type HNSWConfig struct {
	// M is the number of neighbours a node links to on each layer above 0;
	// layer 0 allows 2M. Default 16.
	M int
	// EfConstruction is the candidate list size while inserting. Default 200.
	EfConstruction int
	// EfSearch is the default candidate list size of Search (at least k is
	// used). Default 64.
	EfSearch int
	// Seed makes the level assignment reproducible. Default 1.
	Seed uint64
	// KeepPruned fills a node's list up to M with candidates the heuristic
	// pruned (keepPrunedConnections in the paper). It helps on dense
	// clusters, where the heuristic alone leaves nodes with few links.
	KeepPruned bool
	// EfUpper is the candidate list size on the layers above 0, where the
	// paper uses 1 (greedy descent). A beam keeps the descent from stalling
	// between well-separated clusters: on 1M clustered vectors recall@10 at
	// ef=100 went from 0.87 with 1 to 0.999 with 16. Default 16.
	EfUpper int
}

func (c *HNSWConfig) fill() {
	if c.M <= 1 {
		c.M = 16
	}
	if c.EfConstruction <= 0 {
		c.EfConstruction = 200
	}
	if c.EfSearch <= 0 {
		c.EfSearch = 64
	}
	if c.Seed == 0 {
		c.Seed = 1
	}
	if c.EfUpper <= 0 {
		c.EfUpper = 16
	}
}

const maxLevels = 32

// HNSW is an approximate nearest-neighbour graph over unit vectors compared
// by dot product. Searches run concurrently with each other; Add, AddBatch,
// Delete and Compact take an exclusive lock.
//
// Deleted vectors are tombstones: they still route searches but are never
// returned. Compact rebuilds the graph without them.
type HNSW struct {
	mu  sync.RWMutex
	cfg HNSWConfig
	dim int
	m0  int // capacity of layer 0 lists (2M)
	ml  float64
	rng *rand.Rand

	vecs   []float32 // node i at [i*dim, (i+1)*dim)
	ids    []int64
	levels []uint8
	link0  []uint32   // node i at [i*(m0+1)]: count, then up to m0 neighbours
	upper  [][]uint32 // node i, level l >= 1: at [(l-1)*(M+1)]: count, neighbours
	dead   []uint64   // tombstone bitset
	nDead  int
	byID   map[int64]uint32

	entry    uint32
	maxLevel int // -1 when empty

	// during AddBatch
	locks []sync.Mutex
	epMu  sync.Mutex

	efSearch atomic.Int32
	pool     sync.Pool
}

var _ Index = (*HNSW)(nil)

// NewHNSW returns an empty graph for vectors of dimension dim.
func NewHNSW(dim int, cfg HNSWConfig) *HNSW {
	if dim <= 0 {
		panic("ann: NewHNSW with dimension <= 0")
	}
	cfg.fill()
	h := &HNSW{
		cfg:      cfg,
		dim:      dim,
		m0:       2 * cfg.M,
		ml:       1 / math.Log(float64(cfg.M)),
		rng:      rand.New(rand.NewPCG(cfg.Seed, 0x686e7377)),
		byID:     make(map[int64]uint32),
		maxLevel: -1,
	}
	h.efSearch.Store(int32(cfg.EfSearch))
	return h
}

// Dim returns the vector dimension.
func (h *HNSW) Dim() int { return h.dim }

// Config returns the graph's parameters.
func (h *HNSW) Config() HNSWConfig {
	c := h.cfg
	c.EfSearch = int(h.efSearch.Load())
	return c
}

// SetEfSearch changes the default candidate list size of Search.
func (h *HNSW) SetEfSearch(ef int) {
	if ef > 0 {
		h.efSearch.Store(int32(ef))
	}
}

// Len returns the number of live (not deleted) vectors.
func (h *HNSW) Len() int {
	h.mu.RLock()
	defer h.mu.RUnlock()
	return len(h.ids) - h.nDead
}

// Deleted returns the number of tombstones.
func (h *HNSW) Deleted() int {
	h.mu.RLock()
	defer h.mu.RUnlock()
	return h.nDead
}

func (h *HNSW) vec(i uint32) []float32 {
	d := h.dim
	return h.vecs[int(i)*d : int(i+1)*d : int(i+1)*d]
}

func (h *HNSW) isDead(i uint32) bool { return h.dead[i>>6]&(1<<(i&63)) != 0 }

// row returns node i's list on level l: row[0] is the count.
func (h *HNSW) row(i uint32, l int) []uint32 {
	if l == 0 {
		s := h.m0 + 1
		return h.link0[int(i)*s : int(i+1)*s : int(i+1)*s]
	}
	s := h.cfg.M + 1
	return h.upper[i][(l-1)*s : l*s : l*s]
}

func (h *HNSW) randomLevel() int {
	u := h.rng.Float64()
	if u == 0 {
		u = math.SmallestNonzeroFloat64
	}
	l := int(-math.Log(u) * h.ml)
	return min(l, maxLevels-1)
}

// allocate appends a node without linking it and returns its index.
func (h *HNSW) allocate(id int64, v []float32) uint32 {
	i := uint32(len(h.ids))
	h.ids = append(h.ids, id)
	h.vecs = append(h.vecs, v...)
	lv := h.randomLevel()
	h.levels = append(h.levels, uint8(lv))
	h.link0 = append(h.link0, make([]uint32, h.m0+1)...)
	var up []uint32
	if lv > 0 {
		up = make([]uint32, lv*(h.cfg.M+1))
	}
	h.upper = append(h.upper, up)
	if int(i)>>6 >= len(h.dead) {
		h.dead = append(h.dead, 0)
	}
	if old, ok := h.byID[id]; ok {
		h.kill(old)
	}
	h.byID[id] = i
	return i
}

func (h *HNSW) kill(i uint32) {
	if !h.isDead(i) {
		h.dead[i>>6] |= 1 << (i & 63)
		h.nDead++
	}
}

// Grow reserves room for n more vectors, so that a large build does not
// copy the graph as it grows.
func (h *HNSW) Grow(n int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.vecs = slices.Grow(h.vecs, n*h.dim)
	h.link0 = slices.Grow(h.link0, n*(h.m0+1))
	h.ids = slices.Grow(h.ids, n)
	h.levels = slices.Grow(h.levels, n)
	h.upper = slices.Grow(h.upper, n)
}

// Add inserts v under id (replacing any vector stored under id: the old node
// becomes a tombstone). v is copied.
func (h *HNSW) Add(id int64, v []float32) error {
	if err := checkVec(v, h.dim); err != nil {
		return err
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	i := h.allocate(id, v)
	s := h.getSearcher()
	h.insert(i, s, false)
	h.pool.Put(s)
	return nil
}

// AddBatch inserts many vectors (vecs holds len(ids)*Dim floats) using
// workers goroutines (0 means GOMAXPROCS). Node levels are drawn in id order,
// but the graph depends on thread timing when workers > 1.
func (h *HNSW) AddBatch(ids []int64, vecs []float32, workers int) error {
	if len(vecs) != len(ids)*h.dim {
		return ErrDim
	}
	for i := range ids {
		if err := checkVec(vecs[i*h.dim:(i+1)*h.dim], h.dim); err != nil {
			return err
		}
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	n0 := len(h.ids)
	n := n0 + len(ids)
	// Reserve exact capacity so no slice moves while workers run.
	h.vecs = slices.Grow(h.vecs, len(ids)*h.dim)
	h.link0 = slices.Grow(h.link0, len(ids)*(h.m0+1))
	h.ids = slices.Grow(h.ids, len(ids))
	h.levels = slices.Grow(h.levels, len(ids))
	h.upper = slices.Grow(h.upper, len(ids))
	for i, id := range ids {
		h.allocate(id, vecs[i*h.dim:(i+1)*h.dim])
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	// Insert the first node alone so that the graph has an entry point.
	first := n0
	if first < n && h.maxLevel < 0 {
		s := h.getSearcher()
		h.insert(uint32(first), s, false)
		h.pool.Put(s)
		first++
	}
	if workers == 1 || n-first < 2*workers {
		s := h.getSearcher()
		for i := first; i < n; i++ {
			h.insert(uint32(i), s, false)
		}
		h.pool.Put(s)
		return nil
	}
	h.locks = make([]sync.Mutex, n)
	var next atomic.Int64
	next.Store(int64(first))
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := h.getSearcher()
			defer h.pool.Put(s)
			for {
				i := next.Add(1) - 1
				if i >= int64(n) {
					return
				}
				h.insert(uint32(i), s, true)
			}
		}()
	}
	wg.Wait()
	h.locks = nil
	return nil
}

// insert links node q into the graph (Algorithm 1). With locked, other
// goroutines are inserting too: neighbour lists are read and written under
// per-node locks and the entry point under epMu.
func (h *HNSW) insert(q uint32, s *searcher, locked bool) {
	level := int(h.levels[q])
	if locked {
		h.epMu.Lock()
	}
	ep, top := h.entry, h.maxLevel
	if top < 0 {
		h.entry, h.maxLevel = q, level
	}
	if locked {
		h.epMu.Unlock()
	}
	if top < 0 {
		return
	}
	qv := h.vec(q)
	eps := append(s.eps[:0], nodeDist{h.dist(qv, ep), ep})
	for l := top; l > level; l-- {
		eps = h.descend(qv, eps, l, s, locked)
	}
	for l := min(level, top); l >= 0; l-- {
		w := h.searchLayer(qv, eps, h.cfg.EfConstruction, l, s, locked, false)
		if locked { // a concurrent insert may already link to q: no self-loop
			w = slices.DeleteFunc(w, func(c nodeDist) bool { return c.node == q })
			if len(w) == 0 {
				continue
			}
		}
		// All of w (sorted nearest first) seeds the next layer ("ep ← W"
		// in Algorithm 1); a single seed could be a node whose lower
		// lists a concurrent insert has not written yet.
		eps = append(s.eps[:0], w...)
		s.eps = eps
		// Copy: link below reuses the searcher's selection buffer.
		sel := append(s.links[:0], h.selectNeighbors(w, h.cfg.M, s)...)
		s.links = sel
		if locked {
			h.locks[q].Lock()
		}
		r := h.row(q, l)
		r[0] = uint32(len(sel))
		for j, c := range sel {
			r[1+j] = c.node
		}
		if locked {
			h.locks[q].Unlock()
		}
		capL := h.cfg.M
		if l == 0 {
			capL = h.m0
		}
		for _, c := range sel {
			h.link(c.node, q, c.d, l, capL, s, locked)
		}
	}
	if level > top {
		if locked {
			h.epMu.Lock()
		}
		if level > h.maxLevel {
			h.entry, h.maxLevel = q, level
		}
		if locked {
			h.epMu.Unlock()
		}
	}
}

// link adds q (at distance d) to node n's list on level l, shrinking the
// list with the heuristic when it is full.
func (h *HNSW) link(n, q uint32, d float32, l, capL int, s *searcher, locked bool) {
	if locked {
		h.locks[n].Lock()
		defer h.locks[n].Unlock()
	}
	r := h.row(n, l)
	cnt := int(r[0])
	for _, x := range r[1 : 1+cnt] {
		if x == q {
			return
		}
	}
	if cnt < capL {
		r[1+cnt] = q
		r[0]++
		return
	}
	nv := h.vec(n)
	cands := s.prune[:0]
	cands = append(cands, nodeDist{d, q})
	for _, x := range r[1 : 1+cnt] {
		cands = append(cands, nodeDist{h.dist(nv, x), x})
	}
	sortND(cands)
	s.prune = cands
	sel := h.selectNeighbors(cands, capL, s)
	r[0] = uint32(len(sel))
	for j, c := range sel {
		r[1+j] = c.node
	}
}

// selectNeighbors is the heuristic of Algorithm 4 (without extending the
// candidates and without keeping pruned ones): walking the candidates
// nearest first, keep one only if it is closer to the base than to every
// neighbour kept so far. This keeps links pointing in diverse directions,
// which is what makes clustered data navigable. cands must be sorted.
func (h *HNSW) selectNeighbors(cands []nodeDist, m int, s *searcher) []nodeDist {
	if len(cands) <= m {
		out := append(s.sel[:0], cands...)
		s.sel = out
		return out
	}
	out := s.sel[:0]
	pruned := s.pruned[:0]
	for _, c := range cands {
		if len(out) >= m {
			break
		}
		cv := h.vec(c.node)
		good := true
		for _, r := range out {
			if h.dist(cv, r.node) < c.d {
				good = false
				break
			}
		}
		if good {
			out = append(out, c)
		} else if h.cfg.KeepPruned {
			pruned = append(pruned, c)
		}
	}
	if h.cfg.KeepPruned && len(out) < m {
		out = append(out, pruned[:min(len(pruned), m-len(out))]...)
		sortND(out)
	}
	s.sel, s.pruned = out, pruned
	return out
}

// dist is the negated dot product: for unit vectors, the cosine distance
// minus one, so it orders neighbours the same way, and the score is exact.
func (h *HNSW) dist(q []float32, i uint32) float32 {
	return -Dot(q, h.vec(i))
}

// descend moves the entry points eps (sorted nearest first) down through
// level l: a beam search of EfUpper candidates, or with EfUpper 1 the
// paper's greedy walk, one best neighbour at a time. The result is in s.eps.
func (h *HNSW) descend(q []float32, eps []nodeDist, l int, s *searcher, locked bool) []nodeDist {
	if h.cfg.EfUpper > 1 {
		w := h.searchLayer(q, eps, h.cfg.EfUpper, l, s, locked, false)
		s.eps = append(s.eps[:0], w...)
		return s.eps
	}
	cur := eps[0]
	for changed := true; changed; {
		changed = false
		nb := h.neighbours(cur.node, l, s, locked)
		for _, x := range nb {
			if d := h.dist(q, x); d < cur.d {
				cur, changed = nodeDist{d, x}, true
			}
		}
	}
	s.eps = append(s.eps[:0], cur)
	return s.eps
}

// neighbours returns node i's list on level l; under locked it is a copy.
func (h *HNSW) neighbours(i uint32, l int, s *searcher, locked bool) []uint32 {
	if !locked {
		r := h.row(i, l)
		return r[1 : 1+r[0]]
	}
	h.locks[i].Lock()
	r := h.row(i, l)
	s.nb = append(s.nb[:0], r[1:1+r[0]]...)
	h.locks[i].Unlock()
	return s.nb
}

// searchLayer is Algorithm 2: a best-first search holding at most ef
// results, stopping when the nearest unexpanded candidate is farther than
// the farthest result. With liveOnly, tombstones route but are not results.
// It returns the results sorted nearest first (in s.out).
func (h *HNSW) searchLayer(q []float32, eps []nodeDist, ef, l int, s *searcher, locked, liveOnly bool) []nodeDist {
	s.visit.next(len(h.ids))
	s.cand.reset()
	s.res.reset()
	for _, e := range eps {
		if s.visit.seen(e.node) {
			continue
		}
		s.visit.set(e.node)
		s.cand.push(e)
		if !liveOnly || !h.isDead(e.node) {
			s.res.push(e)
			if s.res.len() > ef {
				s.res.pop()
			}
		}
	}
	for s.cand.len() > 0 {
		c := s.cand.pop()
		if s.res.len() >= ef && c.d > s.res.top().d {
			break
		}
		nb := h.neighbours(c.node, l, s, locked)
		for j, x := range nb {
			if j+1 < len(nb) {
				prefetchVec(h.vec(nb[j+1]))
			}
			if s.visit.seen(x) {
				continue
			}
			s.visit.set(x)
			d := h.dist(q, x)
			if s.res.len() < ef || d < s.res.top().d {
				s.cand.push(nodeDist{d, x})
				if !liveOnly || !h.isDead(x) {
					s.res.push(nodeDist{d, x})
					if s.res.len() > ef {
						s.res.pop()
					}
				}
			}
		}
	}
	out := s.out[:0]
	for s.res.len() > 0 {
		out = append(out, s.res.pop())
	}
	// res is a max-heap: out is farthest first; reverse.
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	s.out = out
	return out
}

// Search returns the k nearest live vectors by dot product, best first,
// using the configured EfSearch (raised to k).
func (h *HNSW) Search(q []float32, k int) ([]Hit, error) {
	return h.SearchEf(q, k, int(h.efSearch.Load()))
}

// SearchEf is Search with an explicit candidate list size.
func (h *HNSW) SearchEf(q []float32, k, ef int) ([]Hit, error) {
	if err := checkVec(q, h.dim); err != nil {
		return nil, err
	}
	if k <= 0 {
		return nil, nil
	}
	ef = max(ef, k)
	h.mu.RLock()
	defer h.mu.RUnlock()
	if h.maxLevel < 0 || h.nDead == len(h.ids) {
		return nil, nil
	}
	s := h.getSearcher()
	defer h.pool.Put(s)
	eps := append(s.eps[:0], nodeDist{h.dist(q, h.entry), h.entry})
	for l := h.maxLevel; l > 0; l-- {
		eps = h.descend(q, eps, l, s, false)
	}
	res := h.searchLayer(q, eps, ef, 0, s, false, h.nDead > 0)
	if len(res) > k {
		res = res[:k]
	}
	out := make([]Hit, len(res))
	for i, r := range res {
		out[i] = Hit{ID: h.ids[r.node], Score: -r.d}
	}
	return out, nil
}

// Delete marks id's vector as deleted and reports whether it was present.
func (h *HNSW) Delete(id int64) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	i, ok := h.byID[id]
	if !ok {
		return false
	}
	delete(h.byID, id)
	h.kill(i)
	return true
}

// Compact rebuilds the graph from the live vectors, dropping tombstones.
// It is worth it once a sizeable share (say 20%) of the nodes are deleted.
// It holds the write lock throughout (searches wait); to keep serving
// during a rebuild, build a new HNSW from the live vectors and swap it in.
func (h *HNSW) Compact(workers int) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	ids := make([]int64, 0, len(h.ids)-h.nDead)
	vecs := make([]float32, 0, (len(h.ids)-h.nDead)*h.dim)
	for i := range h.ids {
		if !h.isDead(uint32(i)) {
			ids = append(ids, h.ids[i])
			vecs = append(vecs, h.vec(uint32(i))...)
		}
	}
	cfg := h.cfg
	cfg.EfSearch = int(h.efSearch.Load())
	fresh := NewHNSW(h.dim, cfg)
	if err := fresh.AddBatch(ids, vecs, workers); err != nil {
		return err
	}
	h.vecs, h.ids, h.levels = fresh.vecs, fresh.ids, fresh.levels
	h.link0, h.upper, h.dead, h.nDead = fresh.link0, fresh.upper, fresh.dead, 0
	h.byID, h.entry, h.maxLevel = fresh.byID, fresh.entry, fresh.maxLevel
	h.rng = fresh.rng
	return nil
}

// ---- search state ----

type nodeDist struct {
	d    float32
	node uint32
}

func sortND(s []nodeDist) {
	sort.Slice(s, func(i, j int) bool { return s[i].d < s[j].d })
}

type searcher struct {
	visit  visited
	cand   minHeap
	res    maxHeap
	out    []nodeDist
	sel    []nodeDist
	prune  []nodeDist
	links  []nodeDist
	pruned []nodeDist
	eps    []nodeDist
	nb     []uint32
}

func (h *HNSW) getSearcher() *searcher {
	if s, ok := h.pool.Get().(*searcher); ok {
		return s
	}
	return &searcher{}
}

// visited is a set of node indexes cleared in O(1) by bumping a generation.
type visited struct {
	mark []uint16
	gen  uint16
}

func (v *visited) next(n int) {
	if len(v.mark) < n {
		v.mark = make([]uint16, n+n/4)
		v.gen = 0
	}
	v.gen++
	if v.gen == 0 {
		clear(v.mark)
		v.gen = 1
	}
}

func (v *visited) seen(i uint32) bool { return v.mark[i] == v.gen }
func (v *visited) set(i uint32)       { v.mark[i] = v.gen }

type minHeap struct{ a []nodeDist }

func (h *minHeap) reset()   { h.a = h.a[:0] }
func (h *minHeap) len() int { return len(h.a) }
func (h *minHeap) push(x nodeDist) {
	h.a = append(h.a, x)
	i := len(h.a) - 1
	for i > 0 {
		p := (i - 1) / 2
		if h.a[p].d <= h.a[i].d {
			break
		}
		h.a[p], h.a[i] = h.a[i], h.a[p]
		i = p
	}
}
func (h *minHeap) pop() nodeDist {
	top := h.a[0]
	last := len(h.a) - 1
	h.a[0] = h.a[last]
	h.a = h.a[:last]
	i, n := 0, last
	for {
		l := 2*i + 1
		if l >= n {
			break
		}
		m := l
		if r := l + 1; r < n && h.a[r].d < h.a[l].d {
			m = r
		}
		if h.a[i].d <= h.a[m].d {
			break
		}
		h.a[i], h.a[m] = h.a[m], h.a[i]
		i = m
	}
	return top
}

type maxHeap struct{ a []nodeDist }

func (h *maxHeap) reset()        { h.a = h.a[:0] }
func (h *maxHeap) len() int      { return len(h.a) }
func (h *maxHeap) top() nodeDist { return h.a[0] }
func (h *maxHeap) push(x nodeDist) {
	h.a = append(h.a, x)
	i := len(h.a) - 1
	for i > 0 {
		p := (i - 1) / 2
		if h.a[p].d >= h.a[i].d {
			break
		}
		h.a[p], h.a[i] = h.a[i], h.a[p]
		i = p
	}
}
func (h *maxHeap) pop() nodeDist {
	top := h.a[0]
	last := len(h.a) - 1
	h.a[0] = h.a[last]
	h.a = h.a[:last]
	i, n := 0, last
	for {
		l := 2*i + 1
		if l >= n {
			break
		}
		m := l
		if r := l + 1; r < n && h.a[r].d > h.a[l].d {
			m = r
		}
		if h.a[i].d >= h.a[m].d {
			break
		}
		h.a[i], h.a[m] = h.a[m], h.a[i]
		i = m
	}
	return top
}

// HNSWStats describes the shape of a graph.
type HNSWStats struct {
	Nodes, Deleted int
	Levels         []int   // nodes per level
	AvgDegree0     float64 // mean layer-0 out-degree
	Unreachable0   int     // layer-0 nodes that no other node links to
	Bytes          int64   // vectors, ids and links
}

// Stats walks the graph; it takes O(n·M) time.
func (h *HNSW) Stats() HNSWStats {
	h.mu.RLock()
	defer h.mu.RUnlock()
	n := len(h.ids)
	st := HNSWStats{Nodes: n, Deleted: h.nDead}
	in := make([]bool, n)
	var deg int
	for i := 0; i < n; i++ {
		lv := int(h.levels[i])
		for len(st.Levels) <= lv {
			st.Levels = append(st.Levels, 0)
		}
		for l := 0; l <= lv; l++ {
			st.Levels[l]++
		}
		r := h.row(uint32(i), 0)
		deg += int(r[0])
		for _, x := range r[1 : 1+r[0]] {
			in[x] = true
		}
		st.Bytes += int64(len(h.upper[i])) * 4
	}
	for i, ok := range in {
		if !ok && uint32(i) != h.entry {
			st.Unreachable0++
		}
	}
	if n > 0 {
		st.AvgDegree0 = float64(deg) / float64(n)
	}
	st.Bytes += int64(len(h.vecs))*4 + int64(len(h.ids))*9 + int64(len(h.link0))*4
	return st
}

// Vector returns a copy of the live vector stored under id.
func (h *HNSW) Vector(id int64) ([]float32, bool) {
	h.mu.RLock()
	defer h.mu.RUnlock()
	i, ok := h.byID[id]
	if !ok {
		return nil, false
	}
	return slices.Clone(h.vec(i)), true
}

// Score returns the dot product of q with the live vector stored under id,
// and whether there is one.
func (h *HNSW) Score(q []float32, id int64) (float32, bool) {
	if len(q) != h.dim {
		return 0, false
	}
	h.mu.RLock()
	defer h.mu.RUnlock()
	i, ok := h.byID[id]
	if !ok {
		return 0, false
	}
	return Dot(q, h.vec(i)), true
}

// IDs returns the ids of the live vectors, in insertion order.
func (h *HNSW) IDs() []int64 {
	h.mu.RLock()
	defer h.mu.RUnlock()
	out := make([]int64, 0, len(h.ids)-h.nDead)
	for i, id := range h.ids {
		if !h.isDead(uint32(i)) {
			out = append(out, id)
		}
	}
	return out
}
