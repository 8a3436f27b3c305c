package uselite

import "os"

// matrix is a weight W[k][n] packed in panels of 16 columns: panel p holds
// W[0..k)[16p..16p+16) row after row, so the kernel reads it front to back.
type matrix struct {
	k, n   int
	packed []float32
}

const panelWidth = 16

func packMatrix(w []float32, k, n int) *matrix {
	if n%panelWidth != 0 || len(w) != k*n {
		panic("uselite: bad matrix shape")
	}
	m := &matrix{k: k, n: n, packed: make([]float32, k*n)}
	for p := 0; p < n/panelWidth; p++ {
		dst := m.packed[p*k*panelWidth:]
		for r := 0; r < k; r++ {
			copy(dst[r*panelWidth:(r+1)*panelWidth], w[r*n+p*panelWidth:r*n+(p+1)*panelWidth])
		}
	}
	return m
}

// useAsm is set at start-up when the CPU has AVX2 and FMA (amd64 only);
// MEMORIA_NOASM=1 forces the pure-Go path.
var useAsm = haveAsm() && os.Getenv("MEMORIA_NOASM") == ""

// KernelName names the matrix kernel in use ("avx2-fma" or "go").
func KernelName() string {
	if useAsm {
		return "avx2-fma"
	}
	return "go"
}

// matmulAdd computes c[i][j] += Σ_k a[i][k]·W[k][j] for i < m; a has row stride lda,
// c row stride ldc (both in floats).
func matmulAdd(c []float32, ldc int, a []float32, lda int, m int, w *matrix) {
	if m == 0 {
		return
	}
	if len(a) < (m-1)*lda+w.k || len(c) < (m-1)*ldc+w.n {
		panic("uselite: matmul operands too short")
	}
	if useAsm {
		matmulAsm(c, ldc, a, lda, m, w)
		return
	}
	matmulGo(c, ldc, a, lda, m, w)
}

func matmulGo(c []float32, ldc int, a []float32, lda int, m int, w *matrix) {
	k := w.k
	for p := 0; p < w.n/panelWidth; p++ {
		panel := w.packed[p*k*panelWidth : (p+1)*k*panelWidth]
		for i := 0; i < m; i++ {
			var acc [panelWidth]float32
			arow := a[i*lda : i*lda+k]
			for kk, av := range arow {
				b := panel[kk*panelWidth : kk*panelWidth+panelWidth : kk*panelWidth+panelWidth]
				acc[0] += av * b[0]
				acc[1] += av * b[1]
				acc[2] += av * b[2]
				acc[3] += av * b[3]
				acc[4] += av * b[4]
				acc[5] += av * b[5]
				acc[6] += av * b[6]
				acc[7] += av * b[7]
				acc[8] += av * b[8]
				acc[9] += av * b[9]
				acc[10] += av * b[10]
				acc[11] += av * b[11]
				acc[12] += av * b[12]
				acc[13] += av * b[13]
				acc[14] += av * b[14]
				acc[15] += av * b[15]
			}
			crow := c[i*ldc+p*panelWidth : i*ldc+(p+1)*panelWidth : i*ldc+(p+1)*panelWidth]
			for j := range crow {
				crow[j] += acc[j]
			}
		}
	}
}
