package gemm

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkMatmul measures the kernel alone on the model's largest product shape
// (252 rows × 512 → 1536), reporting GFLOP/s.
func BenchmarkMatmul(b *testing.B) {
	const m, k, n = 252, 512, 1536
	r := rand.New(rand.NewPCG(1, 2))
	wt := make([]float32, k*n)
	for i := range wt {
		wt[i] = r.Float32()
	}
	a := make([]float32, m*k)
	for i := range a {
		a[i] = r.Float32()
	}
	c := make([]float32, m*n)
	w := Pack(wt, k, n)
	for b.Loop() {
		MatMulAdd(c, n, a, k, m, w)
	}
	b.ReportMetric(2*m*k*n*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
}
