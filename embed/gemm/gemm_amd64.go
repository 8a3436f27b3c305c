//go:build amd64 && !purego

package gemm

import "golang.org/x/sys/cpu"

func haveAsm() bool { return cpu.X86.HasAVX2 && cpu.X86.HasFMA }

// haveAVX512 says the CPU runs the AVX-512F kernel (sgemm12x32), which does twice
// the work of sgemm6x16 per instruction; where the CPU has full-width AVX-512 units,
// in half the time.
func haveAVX512() bool { return cpu.X86.HasAVX512F }

// sgemm12x32 adds a[0..12)[0..k)·(panel, the next panel) to c[0..12)[0..32).
//
//go:noescape
func sgemm12x32(a *float32, lda int, panel *float32, k int, c *float32, ldc int)

// sgemm4x16 adds a[0..4)[0..k)·panel to c[0..4)[0..16); lda and ldc are in floats.
//
//go:noescape
func sgemm4x16(a *float32, lda int, panel *float32, k int, c *float32, ldc int)

// sgemm6x16 adds a[0..6)[0..k)·panel to c[0..6)[0..16).
//
//go:noescape
func sgemm6x16(a *float32, lda int, panel *float32, k int, c *float32, ldc int)

// sgemm1x16 adds a[0..k)·panel to c[0..16).
//
//go:noescape
func sgemm1x16(a *float32, panel *float32, k int, c *float32)

func matmulAsm(c []float32, ldc int, a []float32, lda int, m int, w *Matrix) {
	panels := w.n / panelWidth
	for p := 0; p < panels; p++ {
		i := 0
		if useAVX512 && p+1 < panels {
			// Two panels at a time, twelve rows at a time; the rest of the rows on
			// the AVX2 kernels, panel by panel.
			for ; i+12 <= m; i += 12 {
				sgemm12x32(&a[i*lda], lda, &w.packed[p*w.k*panelWidth], w.k, &c[i*ldc+p*panelWidth], ldc)
			}
			matmulRowsAVX2(c, ldc, a, lda, i, m, w, p)
			p++
		}
		matmulRowsAVX2(c, ldc, a, lda, i, m, w, p)
	}
}

// matmulRowsAVX2 adds rows [i, m) of a times panel p to c.
func matmulRowsAVX2(c []float32, ldc int, a []float32, lda int, i, m int, w *Matrix, p int) {
	k := w.k
	panel := &w.packed[p*k*panelWidth]
	for ; i+6 <= m; i += 6 {
		sgemm6x16(&a[i*lda], lda, panel, k, &c[i*ldc+p*panelWidth], ldc)
	}
	for ; i+4 <= m; i += 4 {
		sgemm4x16(&a[i*lda], lda, panel, k, &c[i*ldc+p*panelWidth], ldc)
	}
	for ; i < m; i++ {
		sgemm1x16(&a[i*lda], panel, k, &c[i*ldc+p*panelWidth])
	}
}

//go:noescape
func axpyAVX(dst, x *float32, alpha float32, n int)

func axpy(dst, x []float32, alpha float32) {
	if useAsm && len(dst) > 0 && len(dst)%16 == 0 && len(x) >= len(dst) {
		axpyAVX(&dst[0], &x[0], alpha, len(dst))
		return
	}
	axpyGo(dst, x, alpha)
}

//go:noescape
func halvesAVX(dst *float32, src *byte, n int)

func cpuidECX1() uint32

// haveF16C: the CPU converts halves (VCVTPH2PS). Every AVX2 CPU known has
// it, but it is a separate CPUID bit (leaf 1, ECX bit 29).
var haveF16C = useAsm && cpuidECX1()&(1<<29) != 0

// halves converts len(dst) little-endian IEEE halves from src; the same
// numbers as f16Table, 8 at a time with F16C.
func halves(dst []float32, src []byte) {
	n := len(dst)
	if len(src) < 2*n {
		panic("gemm: halves: short source")
	}
	i := 0
	if haveF16C && n >= 16 {
		i = n &^ 15
		halvesAVX(&dst[0], &src[0], i)
	}
	if i < n {
		tab := F16Table()
		for ; i < n; i++ {
			dst[i] = tab[uint16(src[2*i])|uint16(src[2*i+1])<<8]
		}
	}
}

func haveF16CForTest() bool { return haveF16C }

// geluAVX applies GELU to n floats at x, n a multiple of 8.
//
//go:noescape
func geluAVX(x *float32, n int, c *[16][8]float32)

func geluAsm(x []float32) { geluAVX(&x[0], len(x), &geluConsts) }
