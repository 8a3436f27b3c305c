package gemm

import (
	"math"
	"testing"
)

// TestHalves: the F16C conversion (when the CPU has it) gives the very
// floats of the table for all 65,536 halves (NaNs stay NaN), at every
// length and alignment the loader uses.
func TestHalves(t *testing.T) {
	src := make([]byte, 2<<16)
	for h := 0; h < 1<<16; h++ {
		src[2*h], src[2*h+1] = byte(h), byte(h>>8)
	}
	dst := make([]float32, 1<<16)
	halves(dst, src)
	tab := F16Table()
	for h, got := range dst {
		want := tab[h]
		if math.IsNaN(float64(want)) {
			if !math.IsNaN(float64(got)) {
				t.Fatalf("half %#04x: %v, want NaN", h, got)
			}
			continue
		}
		if math.Float32bits(got) != math.Float32bits(want) {
			t.Fatalf("half %#04x: %v (%#08x), want %v (%#08x)", h, got, math.Float32bits(got), want, math.Float32bits(want))
		}
	}
	for _, n := range []int{0, 1, 15, 16, 17, 33, 256} {
		d := make([]float32, n)
		halves(d, src[2*100:])
		for i := range d {
			if d[i] != tab[100+i] {
				t.Fatalf("n=%d: element %d differs", n, i)
			}
		}
	}
	t.Logf("F16C in use: %v", haveF16CForTest())
}
