package memoria_test

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"memoria"
	"memoria/bench/synth"
)

var (
	tenOnce sync.Once
	tenDir  string
	tenErr  error
)

// tenYears generates the synthetic 10-year workspace once per test binary.
func tenYears(b *testing.B) string {
	b.Helper()
	tenOnce.Do(func() {
		tenDir, tenErr = os.MkdirTemp("", "memoria-ten-years-")
		if tenErr == nil {
			_, tenErr = synth.Generate(tenDir, synth.Options{})
		}
	})
	if tenErr != nil {
		b.Fatal(tenErr)
	}
	return tenDir
}

// benchQueries are 1–4 word queries drawn from the workspace's own lines,
// so common words appear as often as people use them.
func benchQueries(b *testing.B, ws string, n int) []string {
	b.Helper()
	data, err := os.ReadFile(filepath.Join(ws, "memory", "2019-07-01.md"))
	if err != nil {
		b.Fatal(err)
	}
	more, _ := os.ReadFile(filepath.Join(ws, "memory", "2023-02-11.md"))
	words := strings.Fields(string(data) + " " + string(more))
	r := rand.New(rand.NewPCG(7, 7))
	var qs []string
	for len(qs) < n {
		k := 1 + r.IntN(4)
		s := r.IntN(len(words) - k)
		qs = append(qs, strings.Join(words[s:s+k], " "))
	}
	return qs
}

// BenchmarkRecall10Years is one recall (freshness check included) on the
// 10-year workspace, cycling through realistic queries.
func BenchmarkRecall10Years(b *testing.B) {
	ws := tenYears(b)
	ctx := context.Background()
	w, err := memoria.Open(ctx, ws, memoria.Options{IndexPath: filepath.Join(b.TempDir(), "index.sqlite")})
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close()
	qs := benchQueries(b, ws, 200)
	// A long-lived process, as `memoria serve` runs: one recall first.
	if _, err := w.Recall(ctx, qs[0], memoria.RecallOptions{K: 25}); err != nil {
		b.Fatal(err)
	}
	var lat []time.Duration
	i := 0
	for b.Loop() {
		t := time.Now()
		if _, err := w.Recall(ctx, qs[i%len(qs)], memoria.RecallOptions{K: 25}); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(t))
		i++
	}
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
}

// BenchmarkRecallOneShot10Years is what a `memoria recall` process does
// after start-up, on the 10-year workspace: open the workspace, recall
// once, close.
func BenchmarkRecallOneShot10Years(b *testing.B) {
	ws := tenYears(b)
	ctx := context.Background()
	index := filepath.Join(b.TempDir(), "index.sqlite")
	w, err := memoria.Open(ctx, ws, memoria.Options{IndexPath: index})
	if err != nil {
		b.Fatal(err)
	}
	w.Close()
	qs := benchQueries(b, ws, 200)
	var lat []time.Duration
	i := 0
	for b.Loop() {
		t := time.Now()
		w, err := memoria.Open(ctx, ws, memoria.Options{IndexPath: index})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := w.Recall(ctx, qs[i%len(qs)], memoria.RecallOptions{K: 25}); err != nil {
			b.Fatal(err)
		}
		w.Close()
		lat = append(lat, time.Since(t))
		i++
	}
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
}
