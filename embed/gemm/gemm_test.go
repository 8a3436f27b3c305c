package gemm

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestMatmulKernels(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, sh := range [][3]int{{1, 256, 768}, {3, 512, 16}, {4, 7, 32}, {9, 1536, 512}, {13, 1, 48}, {6, 3, 16}, {11, 5, 32}, {17, 512, 64}, {25, 384, 48}, {12, 64, 32}, {24, 1, 16}} {
		mr, k, n := sh[0], sh[1], sh[2]
		wt := make([]float32, k*n)
		a := make([]float32, mr*k)
		for i := range wt {
			wt[i] = r.Float32()*2 - 1
		}
		for i := range a {
			a[i] = r.Float32()*2 - 1
		}
		w := Pack(wt, k, n)
		want := make([]float64, mr*n)
		for i := 0; i < mr; i++ {
			for j := 0; j < n; j++ {
				s := 0.5
				for kk := 0; kk < k; kk++ {
					s += float64(a[i*k+kk]) * float64(wt[kk*n+j])
				}
				want[i*n+j] = s
			}
		}
		for _, asm := range []bool{false, true} {
			if asm && !haveAsm() {
				continue
			}
			c := make([]float32, mr*n)
			for i := range c {
				c[i] = 0.5
			}
			if asm {
				matmulAsm(c, n, a, k, mr, w)
			} else {
				matmulGo(c, n, a, k, mr, w)
			}
			for i := range c {
				if d := math.Abs(float64(c[i]) - want[i]); d > 1e-4*math.Sqrt(float64(k)) {
					t.Fatalf("asm=%v %v: c[%d]=%v want %v", asm, sh, i, c[i], want[i])
				}
			}
		}
	}
}

func TestF16(t *testing.T) {
	for _, x := range []float32{0, 1, -2.5, 65504, 1e-5, 6.1e-5, -3.0517578e-05, 0.1, 1.0 / 3} {
		h := F32ToF16(x)
		y := F16ToF32(h)
		if math.Abs(float64(y-x)) > max(math.Abs(float64(x))/1024, 1.0/(1<<25)) {
			t.Errorf("f16(%v) = %#04x → %v", x, h, y)
		}
	}
	// Every half converts to a float32 that converts back to it.
	for h := 0; h < 1<<16; h++ {
		if h&0x7c00 == 0x7c00 && h&0x3ff != 0 {
			continue // NaN
		}
		if got := F32ToF16(F16ToF32(uint16(h))); got != uint16(h) {
			t.Fatalf("round trip of %#04x gave %#04x", h, got)
		}
	}
}

func TestAxpy(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{16, 64, 128, 5} {
		a, b := make([]float32, n), make([]float32, n)
		for i := range a {
			a[i], b[i] = r.Float32()-0.5, r.Float32()-0.5
		}
		d1, d2 := append([]float32(nil), a...), append([]float32(nil), a...)
		axpy(d1, b, 0.37)
		axpyGo(d2, b, 0.37)
		for i := range d1 {
			if math.Abs(float64(d1[i]-d2[i])) > 1e-6 {
				t.Fatalf("n=%d: axpy differs at %d", n, i)
			}
		}
	}
}

// TestPackTransposed: packing the transpose gives the same panels as packing the matrix.
func TestPackTransposed(t *testing.T) {
	const k, n = 7, 32
	w := make([]float32, k*n)
	wt := make([]float32, k*n)
	for r := 0; r < k; r++ {
		for c := 0; c < n; c++ {
			w[r*n+c] = float32(r*1000 + c)
			wt[c*k+r] = float32(r*1000 + c)
		}
	}
	a, b := Pack(w, k, n).Packed(), PackTransposed(wt, k, n).Packed()
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("element %d: %v vs %v", i, a[i], b[i])
		}
	}
}

func TestErf32(t *testing.T) {
	worst := 0.0
	for i := -80000; i <= 80000; i++ {
		x := float64(i) / 10000
		worst = max(worst, math.Abs(float64(Erf32(float32(x)))-math.Erf(x)))
	}
	if worst > 1e-6 {
		t.Fatalf("max |Erf32 - erf| on [-8, 8] = %.3g", worst)
	}
}

// TestGELU: the kernel (eight at a time where there is one, the rest one by one) gives
// the exact GELU to within 2e-6 relative, at every length.
func TestGELU(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{0, 1, 7, 8, 9, 16, 1536, 1541} {
		x := make([]float32, n)
		for i := range x {
			x[i] = float32(r.NormFloat64() * 3)
		}
		if n > 3 {
			x[0], x[1], x[2] = -20, 20, 0
		}
		want := make([]float64, n)
		for i, v := range x {
			want[i] = 0.5 * float64(v) * (1 + math.Erf(float64(v)/math.Sqrt2))
		}
		GELU(x)
		for i := range x {
			if d := math.Abs(float64(x[i]) - want[i]); d > 2e-6*max(1, math.Abs(want[i])) {
				t.Fatalf("n=%d: element %d = %v, want %v", n, i, x[i], want[i])
			}
		}
	}
}

// TestPackInto: strided packing (with padding) gives the products of the plain matrix.
func TestPackInto(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	const k, n, stride = 5, 21, 40
	src := make([]float32, k*stride+n*stride)
	for i := range src {
		src[i] = r.Float32() - 0.5
	}
	a := make([]float32, 3*k)
	for i := range a {
		a[i] = r.Float32() - 0.5
	}
	var rows, cols Matrix
	for round := 0; round < 2; round++ { // the second reuses the storage
		rows.PackRowsInto(src, stride, k, n)
		cols.PackColsInto(src, stride, k, n)
		if rows.Cols() != 32 || cols.Cols() != 32 {
			t.Fatalf("padded widths %d, %d", rows.Cols(), cols.Cols())
		}
		cr, cc := make([]float32, 3*32), make([]float32, 3*32)
		MatMulAdd(cr, 32, a, k, 3, &rows)
		MatMulAdd(cc, 32, a, k, 3, &cols)
		for i := 0; i < 3; i++ {
			for j := 0; j < 32; j++ {
				var wr, wc float64
				for kk := 0; kk < k; kk++ {
					if j < n {
						wr += float64(a[i*k+kk]) * float64(src[kk*stride+j])
						wc += float64(a[i*k+kk]) * float64(src[j*stride+kk])
					}
				}
				if math.Abs(float64(cr[i*32+j])-wr) > 1e-5 || math.Abs(float64(cc[i*32+j])-wc) > 1e-5 {
					t.Fatalf("round %d [%d][%d]: rows %v want %v, cols %v want %v", round, i, j, cr[i*32+j], wr, cc[i*32+j], wc)
				}
			}
		}
	}
}
