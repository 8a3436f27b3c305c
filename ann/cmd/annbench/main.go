// Command annbench measures the vector search of package ann on seeded
// synthetic data: the flat store (exact and binary prefilter) and HNSW
// (build time, memory, recall@k against exact search for a range of ef,
// queries per second, save/load time).
//
//	go run ./ann/cmd/annbench -mode flat -n 100000 -dim 512
//	go run ./ann/cmd/annbench -mode hnsw -n 1000000 -dim 128
package main

import (
	"flag"
	"fmt"
	"log"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"memoria/ann"
	"memoria/ann/internal/synth"
)

func main() {
	var (
		mode    = flag.String("mode", "hnsw", "flat or hnsw")
		kindS   = flag.String("kind", "clustered", "data: clustered or sentence")
		n       = flag.Int("n", 100000, "vectors")
		dim     = flag.Int("dim", 512, "dimension")
		nq      = flag.Int("q", 1000, "queries")
		k       = flag.Int("k", 10, "k for recall@k (flat mode uses 25)")
		m       = flag.Int("M", 16, "HNSW M")
		efc     = flag.Int("efc", 200, "HNSW efConstruction")
		efs     = flag.String("ef", "10,20,40,60,80,120,160,240,400", "HNSW efSearch values")
		workers = flag.Int("workers", runtime.GOMAXPROCS(0), "build goroutines")
		save    = flag.String("save", "", "folder to save/load the graph in (timed)")
		seed    = flag.Uint64("seed", 5, "data seed")
		topics  = flag.Int("topics", 200, "topics (×10 subtopics): fewer means denser clusters")
		keep    = flag.Bool("keep", false, "HNSW KeepPruned")
		efu     = flag.Int("efu", 16, "HNSW EfUpper (1 = greedy, as in the paper)")
	)
	flag.Parse()
	kind := synth.Clustered
	if *kindS == "sentence" {
		kind = synth.Sentence
	}
	log.SetFlags(0)
	fmt.Printf("annbench mode=%s kind=%v n=%d dim=%d queries=%d GOMAXPROCS=%d\n",
		*mode, kind, *n, *dim, *nq, runtime.GOMAXPROCS(0))

	t0 := time.Now()
	g := synth.NewTopics(kind, *dim, *topics, *seed)
	data := g.Vectors(*n, 1)
	queries := g.Vectors(*nq, 2)
	fmt.Printf("generated in %v\n", time.Since(t0).Round(time.Millisecond))
	kk := *k
	if *mode == "flat" {
		kk = 25
	}
	t0 = time.Now()
	truth := exact(data, queries, *dim, kk)
	fmt.Printf("exact top-%d for %d queries in %v\n", kk, *nq, time.Since(t0).Round(time.Millisecond))
	stats(data, queries, truth, *dim)

	switch *mode {
	case "flat":
		benchFlat(data, queries, truth, *dim)
	case "hnsw":
		var efList []int
		for _, s := range strings.Split(*efs, ",") {
			e, err := strconv.Atoi(strings.TrimSpace(s))
			if err != nil {
				log.Fatal(err)
			}
			efList = append(efList, e)
		}
		benchHNSW(data, queries, truth, *dim, *k, ann.HNSWConfig{M: *m, EfConstruction: *efc, KeepPruned: *keep, EfUpper: *efu}, *workers, efList, *save)
	default:
		log.Fatalf("unknown mode %q", *mode)
	}
}

// exact computes the true top-k of every query, blocking the data so that
// each block is read from cache by all queries; queries split over the CPUs.
func exact(data, queries []float32, dim, k int) [][]ann.Hit {
	n, nq := len(data)/dim, len(queries)/dim
	tops := make([]*top, nq)
	for i := range tops {
		tops[i] = &top{k: k}
	}
	const block = 1024
	w := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	for p := 0; p < w; p++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for lo := 0; lo < n; lo += block {
				hi := min(n, lo+block)
				for qi := p; qi < nq; qi += w {
					q := queries[qi*dim : (qi+1)*dim]
					t := tops[qi]
					for i := lo; i < hi; i++ {
						t.push(ann.Dot(q, data[i*dim:(i+1)*dim]), int64(i))
					}
				}
			}
		}()
	}
	wg.Wait()
	out := make([][]ann.Hit, nq)
	for i, t := range tops {
		out[i] = t.sorted()
	}
	return out
}

type top struct {
	k int
	h []ann.Hit // min-heap by score
}

func (t *top) push(s float32, id int64) {
	if len(t.h) == t.k && s <= t.h[0].Score {
		return
	}
	if len(t.h) < t.k {
		t.h = append(t.h, ann.Hit{ID: id, Score: s})
		for i := len(t.h) - 1; i > 0; {
			p := (i - 1) / 2
			if t.h[p].Score <= t.h[i].Score {
				break
			}
			t.h[p], t.h[i] = t.h[i], t.h[p]
			i = p
		}
		return
	}
	t.h[0] = ann.Hit{ID: id, Score: s}
	for i := 0; ; {
		l := 2*i + 1
		if l >= len(t.h) {
			break
		}
		m := l
		if l+1 < len(t.h) && t.h[l+1].Score < t.h[l].Score {
			m = l + 1
		}
		if t.h[i].Score <= t.h[m].Score {
			break
		}
		t.h[i], t.h[m] = t.h[m], t.h[i]
		i = m
	}
}

func (t *top) sorted() []ann.Hit {
	s := append([]ann.Hit(nil), t.h...)
	sort.Slice(s, func(i, j int) bool { return s[i].Score > s[j].Score })
	return s
}

// stats prints how "embedding-like" the data is.
func stats(data, queries []float32, truth [][]ann.Hit, dim int) {
	n := len(data) / dim
	var pair float64
	const pairs = 2000
	for i := 0; i < pairs; i++ {
		a, b := (i*7919)%n, (i*104729+13)%n
		pair += float64(ann.Dot(data[a*dim:(a+1)*dim], data[b*dim:(b+1)*dim]))
	}
	var t1, tk float64
	for _, t := range truth {
		t1 += float64(t[0].Score)
		tk += float64(t[len(t)-1].Score)
	}
	nq := float64(len(truth))
	fmt.Printf("data: mean cosine of random pairs %.3f; query→top-1 %.3f, →top-%d %.3f\n",
		pair/pairs, t1/nq, len(truth[0]), tk/nq)
}

func recall(got, want []ann.Hit, k int) float64 {
	set := map[int64]bool{}
	for _, w := range want[:k] {
		set[w.ID] = true
	}
	c := 0
	for _, g := range got {
		if set[g.ID] {
			c++
		}
	}
	return float64(c) / float64(k)
}

func pct(d []time.Duration, p float64) time.Duration {
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[min(len(s)-1, int(p*float64(len(s))))]
}

func ms(d time.Duration) string { return fmt.Sprintf("%.2f", float64(d)/1e6) }

func benchFlat(data, queries []float32, truth [][]ann.Hit, dim int) {
	n, nq := len(data)/dim, len(queries)/dim
	const k = 25
	type variant struct {
		name string
		opts ann.FlatOptions
	}
	variants := []variant{
		{"exact float32, 1 goroutine", ann.FlatOptions{}},
		{"exact float32, 2 goroutines", ann.FlatOptions{Workers: 2}},
		{"binary, rerank 4×k (100)", ann.FlatOptions{Rerank: 4}},
		{"binary, rerank 10×k (250)", ann.FlatOptions{Rerank: 10}},
		{"binary, rerank 20×k (500)", ann.FlatOptions{Rerank: 20}},
		{"binary, rerank 40×k (1000)", ann.FlatOptions{Rerank: 40}},
		{"binary not centred, rerank 10×k", ann.FlatOptions{Rerank: 10, NoCenter: true}},
		{"binary not centred, rerank 40×k", ann.FlatOptions{Rerank: 40, NoCenter: true}},
	}
	fmt.Printf("\n| variant | median ms | p99 ms | recall@%d |\n|---|---|---|---|\n", k)
	for _, v := range variants {
		f := ann.NewFlat(dim, v.opts)
		f.Grow(n)
		for i := 0; i < n; i++ {
			f.Add(int64(i), data[i*dim:(i+1)*dim])
		}
		lat := make([]time.Duration, 0, nq)
		var rec float64
		for qi := 0; qi < nq; qi++ {
			q := queries[qi*dim : (qi+1)*dim]
			t0 := time.Now()
			h, _ := f.Search(q, k)
			lat = append(lat, time.Since(t0))
			rec += recall(h, truth[qi], k)
		}
		fmt.Printf("| %s | %s | %s | %.3f |\n", v.name, ms(pct(lat, 0.5)), ms(pct(lat, 0.99)), rec/float64(nq))
	}
}

func memReport(label string) {
	runtime.GC()
	debug.FreeOSMemory()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	rss, hwm := procStatus("VmRSS"), procStatus("VmHWM")
	fmt.Printf("%s: heap in use %.0f MiB, RSS %s, peak RSS %s\n", label, float64(ms.HeapInuse)/(1<<20), rss, hwm)
}

func procStatus(key string) string {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return "?"
	}
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, key+":") {
			f := strings.Fields(line)
			if len(f) >= 2 {
				kb, _ := strconv.Atoi(f[1])
				return fmt.Sprintf("%.0f MiB", float64(kb)/1024)
			}
		}
	}
	return "?"
}

func benchHNSW(data, queries []float32, truth [][]ann.Hit, dim, k int, cfg ann.HNSWConfig, workers int, efList []int, save string) {
	n, nq := len(data)/dim, len(queries)/dim
	ids := make([]int64, n)
	for i := range ids {
		ids[i] = int64(i)
	}
	h := ann.NewHNSW(dim, cfg)
	h.Grow(n)
	t0 := time.Now()
	// Build in slices so progress shows on long runs.
	step := max(n/10, 1)
	for lo := 0; lo < n; lo += step {
		hi := min(n, lo+step)
		if err := h.AddBatch(ids[lo:hi], data[lo*dim:hi*dim], workers); err != nil {
			log.Fatal(err)
		}
		fmt.Fprintf(os.Stderr, "  built %d/%d in %v\n", hi, n, time.Since(t0).Round(time.Second))
	}
	build := time.Since(t0)
	fmt.Printf("build: M=%d efConstruction=%d efUpper=%d keepPruned=%v, %d goroutines: %v (%.0f inserts/s)\n",
		cfg.M, cfg.EfConstruction, cfg.EfUpper, cfg.KeepPruned, workers, build.Round(time.Millisecond), float64(n)/build.Seconds())
	st := h.Stats()
	fmt.Printf("graph: nodes per level %v, layer-0 mean degree %.1f, layer-0 nodes without in-links %d, %.0f MiB of vectors+links\n",
		st.Levels, st.AvgDegree0, st.Unreachable0, float64(st.Bytes)/(1<<20))
	data = nil
	memReport("after build (input data freed)")
	fmt.Printf("vectors alone: %.0f MiB\n", float64(n*dim*4)/(1<<20))

	fmt.Printf("\n| ef | recall@%d | qps 1 goroutine | qps %d goroutines | p50 ms | p99 ms |\n|---|---|---|---|---|---|\n", k, runtime.GOMAXPROCS(0))
	for _, ef := range efList {
		var rec float64
		lat := make([]time.Duration, nq)
		t0 := time.Now()
		for qi := 0; qi < nq; qi++ {
			q := queries[qi*dim : (qi+1)*dim]
			s := time.Now()
			got, _ := h.SearchEf(q, k, ef)
			lat[qi] = time.Since(s)
			rec += recall(got, truth[qi], k)
		}
		qps1 := float64(nq) / time.Since(t0).Seconds()
		// All CPUs: each goroutine runs the whole query set once.
		p := runtime.GOMAXPROCS(0)
		var done atomic.Int64
		var wg sync.WaitGroup
		t0 = time.Now()
		for w := 0; w < p; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for qi := 0; qi < nq; qi++ {
					h.SearchEf(queries[qi*dim:(qi+1)*dim], k, ef)
					done.Add(1)
				}
			}()
		}
		wg.Wait()
		qpsP := float64(done.Load()) / time.Since(t0).Seconds()
		fmt.Printf("| %d | %.4f | %.0f | %.0f | %s | %s |\n", ef, rec/float64(nq), qps1, qpsP, ms(pct(lat, 0.5)), ms(pct(lat, 0.99)))
	}
	if save != "" {
		path := filepath.Join(save, "annbench.hnsw")
		t0 := time.Now()
		if err := h.Save(path); err != nil {
			log.Fatal(err)
		}
		st, _ := os.Stat(path)
		fmt.Printf("\nsave: %v, %.0f MiB\n", time.Since(t0).Round(time.Millisecond), float64(st.Size())/(1<<20))
		h = nil
		runtime.GC()
		t0 = time.Now()
		g, err := ann.LoadHNSW(path)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("load (with checksum and validation): %v\n", time.Since(t0).Round(time.Millisecond))
		got, _ := g.SearchEf(queries[:dim], k, 100)
		fmt.Printf("loaded graph: recall@%d of query 0 at ef=100: %.2f\n", k, recall(got, truth[0], k))
		os.Remove(path)
	}
	_ = math.Inf
}
