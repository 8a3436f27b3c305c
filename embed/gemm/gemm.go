package gemm

import "os"

// Matrix is a weight W[k][n] packed in panels of PanelWidth columns: panel p holds
// W[0..k)[16p..16p+16) row after row, so the kernel reads it front to back.
type Matrix struct {
	k, n   int
	packed []float32
}

// PanelWidth is the number of columns in a panel; a Matrix has a multiple of it.
const PanelWidth = 16

const panelWidth = PanelWidth

// Pack packs the row-major k×n weight w (n a multiple of PanelWidth).
func Pack(w []float32, k, n int) *Matrix {
	if n%panelWidth != 0 || len(w) != k*n {
		panic("gemm: bad matrix shape")
	}
	m := &Matrix{k: k, n: n, packed: make([]float32, k*n)}
	for p := 0; p < n/panelWidth; p++ {
		dst := m.packed[p*k*panelWidth:]
		for r := 0; r < k; r++ {
			copy(dst[r*panelWidth:(r+1)*panelWidth], w[r*n+p*panelWidth:r*n+(p+1)*panelWidth])
		}
	}
	return m
}

// PackTransposed packs the k×n weight given as its row-major transpose wt
// (n rows of k: the layout of a PyTorch Linear weight, out × in).
func PackTransposed(wt []float32, k, n int) *Matrix {
	if n%panelWidth != 0 || len(wt) != k*n {
		panic("gemm: bad matrix shape")
	}
	m := &Matrix{k: k, n: n, packed: make([]float32, k*n)}
	for c := 0; c < n; c++ {
		p, j := c/panelWidth, c%panelWidth
		dst := m.packed[p*k*panelWidth+j:]
		src := wt[c*k : (c+1)*k]
		for r, v := range src {
			dst[r*panelWidth] = v
		}
	}
	return m
}

// PackRowsInto packs rows k×n of a strided source into m, reusing m's storage when it
// is large enough: row r is src[r*stride : r*stride+n]. n need not be a multiple of
// PanelWidth: the columns are padded with zeros to the next multiple, which Cols then
// reports. It is for operands made per call, such as attention's keys and values.
func (m *Matrix) PackRowsInto(src []float32, stride, k, n int) {
	np := (n + panelWidth - 1) / panelWidth * panelWidth
	if cap(m.packed) < k*np {
		m.packed = make([]float32, k*np)
	}
	m.k, m.n, m.packed = k, np, m.packed[:k*np]
	for p := 0; p < np/panelWidth; p++ {
		panel := m.packed[p*k*panelWidth : (p+1)*k*panelWidth]
		c0 := p * panelWidth
		w := min(panelWidth, n-c0)
		for r := 0; r < k; r++ {
			dst := panel[r*panelWidth : (r+1)*panelWidth]
			copy(dst, src[r*stride+c0:r*stride+c0+w])
			clear(dst[w:])
		}
	}
}

// PackColsInto packs the transpose of a strided source into m: W[r][c] = src[c*stride+r]
// for r < k, c < n, the columns padded with zeros to a multiple of PanelWidth. With
// src the keys of a head (one row per token), W is Kᵀ, and A·W the scores q·k.
func (m *Matrix) PackColsInto(src []float32, stride, k, n int) {
	np := (n + panelWidth - 1) / panelWidth * panelWidth
	if cap(m.packed) < k*np {
		m.packed = make([]float32, k*np)
	}
	m.k, m.n, m.packed = k, np, m.packed[:k*np]
	clear(m.packed)
	for c := 0; c < n; c++ {
		p, j := c/panelWidth, c%panelWidth
		dst := m.packed[p*k*panelWidth+j:]
		row := src[c*stride : c*stride+k]
		for r, v := range row {
			dst[r*panelWidth] = v
		}
	}
}

// FromPacked wraps k×n weights already in the panel layout (as Packed returns them).
func FromPacked(k, n int, packed []float32) *Matrix {
	if n%panelWidth != 0 || len(packed) != k*n {
		panic("gemm: bad matrix shape")
	}
	return &Matrix{k: k, n: n, packed: packed}
}

// Packed returns the panel layout, to fill or save.
func (m *Matrix) Packed() []float32 { return m.packed }

// Rows and Cols are k and n.
func (m *Matrix) Rows() int { return m.k }

// Cols is n, the width of a product row.
func (m *Matrix) Cols() int { return m.n }

// useAsm is set at start-up when the CPU has AVX2 and FMA (amd64 only);
// MEMORIA_NOASM=1 forces the pure-Go path.
var useAsm = haveAsm() && os.Getenv("MEMORIA_NOASM") == ""

// useAVX512 adds the AVX-512F kernel where the CPU has it; MEMORIA_NOAVX512=1 keeps
// to AVX2.
var useAVX512 = useAsm && haveAVX512() && os.Getenv("MEMORIA_NOAVX512") == ""

// KernelName names the matrix kernel in use ("avx512f", "avx2-fma" or "go").
func KernelName() string {
	switch {
	case useAVX512:
		return "avx512f"
	case useAsm:
		return "avx2-fma"
	}
	return "go"
}

// MatMulAdd computes c[i][j] += Σ_k a[i][k]·W[k][j] for i < m; a has row stride lda,
// c row stride ldc (both in floats).
func MatMulAdd(c []float32, ldc int, a []float32, lda int, m int, w *Matrix) {
	if m == 0 {
		return
	}
	if len(a) < (m-1)*lda+w.k || len(c) < (m-1)*ldc+w.n {
		panic("gemm: matmul operands too short")
	}
	if useAsm {
		matmulAsm(c, ldc, a, lda, m, w)
		return
	}
	matmulGo(c, ldc, a, lda, m, w)
}

func matmulGo(c []float32, ldc int, a []float32, lda int, m int, w *Matrix) {
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

// Axpy adds alpha·x to dst element by element.
func Axpy(dst, x []float32, alpha float32) { axpy(dst, x, alpha) }

// Halves converts len(dst) little-endian IEEE halves from src.
func Halves(dst []float32, src []byte) { halves(dst, src) }

func axpyGo(dst, x []float32, a float32) {
	x = x[:len(dst)]
	for i := range dst {
		dst[i] += a * x[i]
	}
}
