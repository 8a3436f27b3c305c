package sqlite

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"memoria/bench/synth"
	"memoria/memory"
	"memoria/vector"
)

var (
	bigVecOnce sync.Once
	bigVecDir  string
	bigVecErr  error
)

// bigVectorIndex is a synthetic workspace of 4,500 days (~100k distinct
// texts), indexed and embedded with 512-d dense hashed-bag vectors, built
// once per test binary in a folder left to the OS temp cleaner (as
// tenYears).
func bigVectorIndex(b *testing.B) (dir, index string, e *bagEmbedder) {
	b.Helper()
	e = &bagEmbedder{id: "bag/v1", dim: 512, dense: true}
	bigVecOnce.Do(func() {
		if bigVecDir, bigVecErr = os.MkdirTemp("", "memoria-vectors-"); bigVecErr != nil {
			return
		}
		ws := filepath.Join(bigVecDir, "ws")
		if _, bigVecErr = synth.Generate(ws, synth.Options{Days: 4500, Seed: 5}); bigVecErr != nil {
			return
		}
		ctx := context.Background()
		ix, err := OpenAt(ctx, ws, filepath.Join(bigVecDir, "index.sqlite"), Options{})
		if err != nil {
			bigVecErr = err
			return
		}
		defer ix.Close()
		_, bigVecErr = ix.EmbedPending(ctx, e, memory.EmbedOptions{Batch: 1024})
	})
	if bigVecErr != nil {
		b.Fatal(bigVecErr)
	}
	return filepath.Join(bigVecDir, "ws"), filepath.Join(bigVecDir, "index.sqlite"), e
}

// BenchmarkSemanticRecall: the semantic channel's query (top 100 items,
// as recall asks) over ~100k synthetic 512-d vectors: in a long-lived
// process on the Flat (warm), with an entity filter, in a fresh process
// (open + map the saved Flat + query, as memoria recall), the brute-force
// SQL scan it replaces, and on the HNSW graph a long-lived process
// switches to above FlatMaxVectors. Reports ms/query and recall@100
// against the scan.
func BenchmarkSemanticRecall(b *testing.B) {
	ws, path, e := bigVectorIndex(b)
	ctx := context.Background()
	// The Flat in a long-lived Index: no switch to the graph, until the
	// hnsw case sets a lower bound.
	flatMax := 1 << 30
	open := func(b *testing.B) *Index {
		ix, err := OpenAt(ctx, ws, path, Options{Vector: vector.Options{FlatMax: flatMax}})
		if err != nil {
			b.Fatal(err)
		}
		return ix
	}
	ix := open(b)
	defer ix.Close()
	qs := queryVectors(b, ix, e, 64)
	s, err := ix.vec.Index(ctx)
	if err != nil {
		b.Fatal(err)
	}
	ents := topEntities(b, ix, 1)
	perQuery := func(b *testing.B, recall float64, f func(i int)) {
		start := time.Now()
		cpu := cpuTime()
		n := 0
		for b.Loop() {
			f(n)
			n++
		}
		b.ReportMetric(float64(time.Since(start).Microseconds())/1000/float64(n), "ms/query")
		b.ReportMetric(float64((cpuTime()-cpu).Microseconds())/1000/float64(n), "cpu-ms/query")
		b.ReportMetric(float64(s.Len()), "texts")
		if recall >= 0 {
			b.ReportMetric(recall, "recall@100") // after the loop, which clears metrics
		}
	}
	near := func(ix *Index, i int, f memory.Filter) []memory.Hit {
		hits, err := ix.NearestItems(ctx, qs[i%len(qs)], f, 100)
		if err != nil {
			b.Fatal(err)
		}
		return hits
	}
	// recall@100 against the scan, on 16 queries.
	recall := func(b *testing.B, ix *Index, f memory.Filter) float64 {
		var sum float64
		for i := range 16 {
			all := scanAll(b, ix, qs[i], f)
			got := near(ix, i, f)
			if len(all) == 0 {
				sum++
				continue
			}
			cut := all[min(100, len(all))-1].Score
			found := 0
			for _, h := range got {
				if h.Score >= cut-1e-5 {
					found++
				}
			}
			sum += float64(found) / float64(max(len(got), 1))
		}
		return sum / 16
	}
	b.Run("flat", func(b *testing.B) {
		perQuery(b, recall(b, ix, memory.Filter{}), func(i int) { near(ix, i, memory.Filter{}) })
	})
	b.Run("flat-entity", func(b *testing.B) {
		perQuery(b, recall(b, ix, memory.Filter{Entities: ents}), func(i int) { near(ix, i, memory.Filter{Entities: ents}) })
	})
	b.Run("fresh-process", func(b *testing.B) {
		perQuery(b, -1, func(i int) {
			ix := open(b)
			near(ix, i, memory.Filter{})
			if ix.vec.Loaded().From() != "sqlite" {
				b.Fatalf("loaded from %q", ix.vec.Loaded().From())
			}
			ix.Close()
		})
	})
	b.Run("sql-scan", func(b *testing.B) {
		perQuery(b, -1, func(i int) {
			if _, err := ix.nearestScan(ctx, qs[i%len(qs)], memory.Filter{}, 100); err != nil {
				b.Fatal(err)
			}
		})
	})
	b.Run("hnsw", func(b *testing.B) {
		flatMax = min(vector.FlatMaxVectors, s.Len()/2)
		gix := open(b)
		defer func() { gix.Close() }()
		t0 := time.Now()
		if err := gix.vec.SaveGraph(ctx); err != nil {
			b.Fatal(err)
		}
		b.Logf("graph of %d up to date in %v", s.Len(), time.Since(t0))
		gix.Close()
		gix = open(b)
		near(gix, 0, memory.Filter{})
		near(gix, 0, memory.Filter{})
		t0 = time.Now()
		<-gix.vec.GraphLoading()
		b.Logf("graph loaded in the background in %v", time.Since(t0))
		near(gix, 0, memory.Filter{})
		if !gix.vec.Loaded().OnGraph() {
			b.Fatalf("not on the graph: %q", gix.vec.Loaded().From())
		}
		perQuery(b, recall(b, gix, memory.Filter{}), func(i int) { near(gix, i, memory.Filter{}) })
	})
}
