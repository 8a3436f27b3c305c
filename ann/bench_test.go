package ann

import (
	"sync"
	"testing"

	"memoria/ann/internal/synth"
)

var (
	benchOnce    sync.Once
	benchData    []float32
	benchQueries []float32
)

const benchN, benchDim = 100000, 512

func benchSet() ([]float32, []float32) {
	benchOnce.Do(func() {
		g := synth.New(synth.Sentence, benchDim, 5)
		benchData = g.Vectors(benchN, 1)
		benchQueries = g.Vectors(256, 2)
	})
	return benchData, benchQueries
}

func benchFlat(b *testing.B, opts FlatOptions) {
	data, queries := benchSet()
	f := NewFlat(benchDim, opts)
	f.Grow(benchN)
	for i := 0; i < benchN; i++ {
		f.Add(int64(i), data[i*benchDim:(i+1)*benchDim])
	}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		q := queries[(i%256)*benchDim : (i%256+1)*benchDim]
		if _, err := f.Search(q, 25); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFlatExact100k: exact top-25 over 100k × 512-d float32.
func BenchmarkFlatExact100k(b *testing.B) { benchFlat(b, FlatOptions{}) }

// BenchmarkFlatBinary100k: sign-bit prefilter, rerank 250 in float32.
func BenchmarkFlatBinary100k(b *testing.B) { benchFlat(b, FlatOptions{Rerank: 10}) }

// BenchmarkHNSWSearch: top-10 at ef=64 on a 20k × 128-d graph; reports
// queries per second over all CPUs and recall@10.
func BenchmarkHNSWSearch(b *testing.B) {
	ds := makeDataset(b, synth.Sentence, 20000, 256, 128, 10)
	h := buildHNSW(b, ds, HNSWConfig{M: 16, EfConstruction: 100}, 0)
	rec := ds.recall(b, h, 10, 64)
	b.ResetTimer()
	var next int64
	var mu sync.Mutex
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			mu.Lock()
			i := next % 256
			next++
			mu.Unlock()
			if _, err := h.SearchEf(ds.queries[i*128:(i+1)*128], 10, 64); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "queries/s")
	b.ReportMetric(rec, "recall@10")
}
