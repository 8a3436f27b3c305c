package ann

import (
	"errors"
	"fmt"
	"math"
)

// Hit is one search result: the caller's id and the dot product with the
// query (the cosine similarity for unit vectors); higher is closer.
type Hit struct {
	ID    int64
	Score float32
}

// Index is what both the flat store and the HNSW graph offer.
//
// Vectors are compared by dot product, so callers should L2-normalise them
// (embedding models' outputs usually are). Add with an id already present
// replaces its vector. Search returns at most k hits, best first. All
// methods are safe for concurrent use.
type Index interface {
	Add(id int64, v []float32) error
	Search(q []float32, k int) ([]Hit, error)
	Delete(id int64) bool
	Len() int
	Dim() int
}

var (
	// ErrDim is returned when a vector's length is not the index's dimension.
	ErrDim = errors.New("ann: vector has the wrong dimension")
	// ErrBadVector is returned for vectors holding NaN or Inf.
	ErrBadVector = errors.New("ann: vector holds NaN or Inf")
)

func checkVec(v []float32, dim int) error {
	if len(v) != dim {
		return fmt.Errorf("%w: got %d, want %d", ErrDim, len(v), dim)
	}
	for _, x := range v {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return ErrBadVector
		}
	}
	return nil
}

// topK keeps the k best (highest-score) items seen so far in a min-heap
// whose root is the worst kept item.
type topK struct {
	k    int
	h    []scored
	full bool
}

type scored struct {
	score float32
	idx   int32
}

func newTopK(k int) *topK { return &topK{k: k, h: make([]scored, 0, k)} }

func (t *topK) reset(k int) {
	t.k = k
	t.h = t.h[:0]
	t.full = false
}

// threshold returns the score an item must beat to enter, or -Inf.
func (t *topK) threshold() float32 {
	if !t.full {
		return float32(math.Inf(-1))
	}
	return t.h[0].score
}

func (t *topK) push(score float32, idx int32) {
	if t.k <= 0 {
		return
	}
	if !t.full {
		t.h = append(t.h, scored{score, idx})
		// sift up
		i := len(t.h) - 1
		for i > 0 {
			p := (i - 1) / 2
			if !(t.h[i].score < t.h[p].score) {
				break
			}
			t.h[i], t.h[p] = t.h[p], t.h[i]
			i = p
		}
		t.full = len(t.h) == t.k
		return
	}
	if score <= t.h[0].score {
		return
	}
	t.h[0] = scored{score, idx}
	t.down(0)
}

func (t *topK) down(i int) {
	n := len(t.h)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		m := l
		if r := l + 1; r < n && t.h[r].score < t.h[l].score {
			m = r
		}
		if !(t.h[m].score < t.h[i].score) {
			return
		}
		t.h[i], t.h[m] = t.h[m], t.h[i]
		i = m
	}
}

// sorted empties the heap into a slice ordered best first.
func (t *topK) sorted() []scored {
	out := make([]scored, len(t.h))
	for i := len(t.h) - 1; i >= 0; i-- {
		out[i] = t.h[0]
		last := len(t.h) - 1
		t.h[0] = t.h[last]
		t.h = t.h[:last]
		t.down(0)
	}
	t.full = false
	return out
}
