package gemm

import "math"

// GELU applies BERT's "gelu", x·Φ(x) = x·(1 + erf(x/√2))/2, in place, with erf in
// float32 (Erf32); eight at a time with AVX2/FMA where the kernel uses them.
func GELU(x []float32) {
	n := 0
	if useAsm {
		n = len(x) &^ 7
		if n > 0 {
			geluAsm(x[:n])
		}
	}
	geluGo(x[n:])
}

func geluGo(x []float32) {
	for i, v := range x {
		x[i] = 0.5 * v * (1 + Erf32(v*(1/math.Sqrt2)))
	}
}

// The rational approximation of erf: x·P(x²)/Q(x²) on [-4, 4] (erf is ±1 to float32
// precision beyond), P of degree 6 and Q of degree 4 in x².
var (
	erfP = [...]float32{-2.72614225801306e-10, 2.77068142495902e-08, -2.10102402082508e-06,
		-5.69250639462346e-05, -7.34990630326855e-04, -2.95459980854025e-03, -1.60960333262415e-02}
	erfQ = [...]float32{-1.45660718464996e-05, -2.13374055278905e-04, -1.68282697438203e-03,
		-7.37332916720468e-03, -1.42647390514189e-02}
)

// Erf32 is erf to within 1e-6 (TestErf32). math.Erf in float64 took half of all
// embedding time.
func Erf32(x float32) float32 {
	x = min(max(x, -4), 4)
	x2 := x * x
	p := erfP[0]
	for _, c := range erfP[1:] {
		p = x2*p + c
	}
	q := erfQ[0]
	for _, c := range erfQ[1:] {
		q = x2*q + c
	}
	return x * p / q
}

// geluConsts are the kernel's constants, each repeated in 8 lanes: 1/√2, -4, 4, the
// seven of P, the five of Q, and 0.5.
var geluConsts = func() (c [16][8]float32) {
	vals := []float32{1 / math.Sqrt2, -4, 4}
	vals = append(vals, erfP[:]...)
	vals = append(vals, erfQ[:]...)
	vals = append(vals, 0.5)
	for i, v := range vals {
		for j := range c[i] {
			c[i][j] = v
		}
	}
	return c
}()
