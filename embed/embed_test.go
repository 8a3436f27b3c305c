package embed

import (
	"context"
	"math"
	"sync"
	"testing"
)

func TestNormalizeCosine(t *testing.T) {
	v := []float32{3, 4}
	if !Normalize(v) || v[0] != 0.6 || v[1] != 0.8 {
		t.Fatalf("Normalize = %v", v)
	}
	if Normalize([]float32{0, 0}) {
		t.Error("zero vector normalised")
	}
	if c := Cosine([]float32{1, 0}, []float32{2, 2}); math.Abs(c-math.Sqrt(0.5)) > 1e-12 {
		t.Errorf("Cosine = %v", c)
	}
	if d := Dot([]float32{1, 2}, []float32{3, 4}); d != 11 {
		t.Errorf("Dot = %v", d)
	}
}

// TestBatches: every text is in exactly one run, in order, runs keep to the budget
// (a longer text alone), whatever the number of workers; a cancelled context stops it.
func TestBatches(t *testing.T) {
	rows := []int{3, 50, 1, 1, 200, 7, 7, 7, 7, 90, 1}
	for _, workers := range []int{1, 2, 5} {
		var mu sync.Mutex
		seen := make([]int, len(rows))
		err := Batches(context.Background(), rows, workers, 8, 64, func(lo, hi int) {
			n := 0
			for i := lo; i < hi; i++ {
				n += rows[i]
			}
			if hi-lo > 1 && n > 64 {
				t.Errorf("workers %d: run [%d,%d) holds %d rows", workers, lo, hi, n)
			}
			mu.Lock()
			for i := lo; i < hi; i++ {
				seen[i]++
			}
			mu.Unlock()
		})
		if err != nil {
			t.Fatal(err)
		}
		for i, c := range seen {
			if c != 1 {
				t.Errorf("workers %d: text %d ran %d times", workers, i, c)
			}
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := Batches(ctx, rows, 2, 8, 64, func(int, int) {}); err != context.Canceled {
		t.Errorf("cancelled: %v", err)
	}
}
