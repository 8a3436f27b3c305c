//go:build amd64 && !purego

package uselite

import "golang.org/x/sys/cpu"

func haveAsm() bool { return cpu.X86.HasAVX2 && cpu.X86.HasFMA }

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

func matmulAsm(c []float32, ldc int, a []float32, lda int, m int, w *matrix) {
	k := w.k
	for p := 0; p < w.n/panelWidth; p++ {
		panel := &w.packed[p*k*panelWidth]
		i := 0
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
}

//go:noescape
func dotAVX(a, b *float32, n int) float32

//go:noescape
func axpyAVX(dst, x *float32, alpha float32, n int)

func dot(a, b []float32) float32 {
	if useAsm && len(a) > 0 && len(a)%16 == 0 && len(b) >= len(a) {
		return dotAVX(&a[0], &b[0], len(a))
	}
	return dotGo(a, b)
}

func axpy(dst, x []float32, alpha float32) {
	if useAsm && len(dst) > 0 && len(dst)%16 == 0 && len(x) >= len(dst) {
		axpyAVX(&dst[0], &x[0], alpha, len(dst))
		return
	}
	axpyGo(dst, x, alpha)
}
