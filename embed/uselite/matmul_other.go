//go:build !amd64 || purego

package uselite

func haveAsm() bool { return false }

func matmulAsm(c []float32, ldc int, a []float32, lda int, m int, w *matrix) {
	matmulGo(c, ldc, a, lda, m, w)
}

func dot(a, b []float32) float32 { return dotGo(a, b) }

func axpy(dst, x []float32, alpha float32) { axpyGo(dst, x, alpha) }
