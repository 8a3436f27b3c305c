package ann

import "unsafe"

//go:noescape
func dotAVX2(a, b *float32, n int) float32

//go:noescape
func prefetch(p unsafe.Pointer, lines int)

func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)

func xgetbv() (eax, edx uint32)

// hasAVX2FMA reports whether the CPU and the OS support AVX2 and FMA.
var hasAVX2FMA = detectAVX2FMA()

func detectAVX2FMA() bool {
	maxID, _, _, _ := cpuid(0, 0)
	if maxID < 7 {
		return false
	}
	_, _, ecx1, _ := cpuid(1, 0)
	const (
		fma     = 1 << 12
		osxsave = 1 << 27
		avx     = 1 << 28
	)
	if ecx1&(fma|osxsave|avx) != fma|osxsave|avx {
		return false
	}
	if xcr0, _ := xgetbv(); xcr0&6 != 6 { // XMM and YMM state enabled by the OS
		return false
	}
	_, ebx7, _, _ := cpuid(7, 0)
	return ebx7&(1<<5) != 0
}

// Dot returns the dot product of a and b, which must have the same length.
func Dot(a, b []float32) float32 {
	if len(a) != len(b) {
		panic("ann: Dot of vectors of different lengths")
	}
	if len(a) == 0 {
		return 0
	}
	if hasAVX2FMA {
		return dotAVX2(&a[0], &b[0], len(a))
	}
	return dotGeneric(a, b)
}

// prefetchLines is how many cache lines of a vector prefetchVec requests.
var prefetchLines = 8

func prefetchVec(v []float32) {
	if len(v) > 0 {
		prefetch(unsafe.Pointer(&v[0]), min(prefetchLines, (len(v)+15)/16))
	}
}

//go:noescape
func dot8AVX2(a *float32, b *int8, n int) float32

// Dot8 returns the dot product of float32 a with int8 b (same length).
func Dot8(a []float32, b []int8) float32 {
	if len(a) != len(b) {
		panic("ann: Dot8 of vectors of different lengths")
	}
	if len(a) == 0 {
		return 0
	}
	if hasAVX2FMA {
		return dot8AVX2(&a[0], &b[0], len(a))
	}
	return dot8Generic(a, b)
}
