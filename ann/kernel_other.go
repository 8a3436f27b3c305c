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
