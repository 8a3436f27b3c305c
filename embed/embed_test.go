package embed

import (
	"math"
	"testing"
)

func TestNormalizeCosine(t *testing.T) {
	v := []float32{3, 4}
	if !Normalize(v) || v[0] != 0.6 || v[1] != 0.8 {
		t.Fatalf("Normalize = %v", v)
	}
	if Normalize([]float32{0, 0}) {
		t.Error("zero vector normalised")
	}
	if c := Cosine([]float32{1, 0}, []float32{2, 2}); math.Abs(c-math.Sqrt(0.5)) > 1e-12 {
		t.Errorf("Cosine = %v", c)
	}
	if d := Dot([]float32{1, 2}, []float32{3, 4}); d != 11 {
		t.Errorf("Dot = %v", d)
	}
}
