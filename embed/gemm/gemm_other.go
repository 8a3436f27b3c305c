//go:build !amd64 || purego

package gemm

func haveAsm() bool { return false }

func haveAVX512() bool { return false }

func matmulAsm(c []float32, ldc int, a []float32, lda int, m int, w *Matrix) {
	matmulGo(c, ldc, a, lda, m, w)
}

func axpy(dst, x []float32, alpha float32) { axpyGo(dst, x, alpha) }

// halves converts len(dst) little-endian IEEE halves from src.
func halves(dst []float32, src []byte) {
	tab := F16Table()
	for i := range dst {
		dst[i] = tab[uint16(src[2*i])|uint16(src[2*i+1])<<8]
	}
}

func haveF16CForTest() bool { return false }

func geluAsm(x []float32) { geluGo(x) }
