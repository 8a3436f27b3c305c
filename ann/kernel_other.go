//go:build !amd64

package ann

// Dot returns the dot product of a and b, which must have the same length.
func Dot(a, b []float32) float32 {
	if len(a) != len(b) {
		panic("ann: Dot of vectors of different lengths")
	}
	return dotGeneric(a, b)
}

func prefetchVec(v []float32) {}

// Dot8 returns the dot product of float32 a with int8 b (same length).
func Dot8(a []float32, b []int8) float32 {
	if len(a) != len(b) {
		panic("ann: Dot8 of vectors of different lengths")
	}
	return dot8Generic(a, b)
}
