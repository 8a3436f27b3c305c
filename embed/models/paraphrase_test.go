package models

import (
	"context"
	"errors"
	"os"
	"slices"
	"testing"

	"memoria/embed"
)

// TestParaphrases is a sanity check of every installed model, not a benchmark: for
// most anchors the paraphrase should be the nearest of the 20 candidate sentences. It
// logs the cosines that thresholds on similarity depend on (recall's semantic floor,
// reflect's semantic match): the mean for paraphrases and for unrelated pairs, and the
// 95th percentile and maximum of the unrelated ones.
func TestParaphrases(t *testing.T) {
	ran := 0
	for _, model := range All {
		m, err := model.Load("")
		if errors.Is(err, ErrMissing) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		ran++
		t.Run(model.Name, func(t *testing.T) { paraphrases20(t, m) })
	}
	if ran == 0 {
		if os.Getenv("MEMORIA_REQUIRE_MODEL") != "" {
			t.Fatal("no embedding model installed")
		}
		t.Skip("no embedding model installed")
	}
}

func paraphrases20(t *testing.T, m embed.Embedder) {
	var a, b []string
	for _, p := range Paraphrases {
		a = append(a, p[0])
		b = append(b, p[1])
	}
	va, err := m.Embed(context.Background(), a)
	if err != nil {
		t.Fatal(err)
	}
	vb, err := m.Embed(context.Background(), b)
	if err != nil {
		t.Fatal(err)
	}
	first := 0
	var sumPair float64
	var others []float64
	for i := range va {
		best, bestJ := -2.0, -1
		for j := range vb {
			c := float64(embed.Dot(va[i], vb[j]))
			if j == i {
				sumPair += c
			} else {
				others = append(others, c)
			}
			if c > best {
				best, bestJ = c, j
			}
		}
		if bestJ == i {
			first++
		} else {
			t.Logf("miss: %q → %q (%.3f) instead of %q (%.3f)", a[i], b[bestJ], best, b[i], embed.Dot(va[i], vb[i]))
		}
	}
	slices.Sort(others)
	var sumOther float64
	for _, c := range others {
		sumOther += c
	}
	n := float64(len(va))
	t.Logf("paraphrase ranked first for %d/%d anchors; mean cosine paraphrase %.3f, unrelated %.3f (p95 %.3f, max %.3f)",
		first, len(va), sumPair/n, sumOther/float64(len(others)), others[len(others)*95/100], others[len(others)-1])
	if first < 16 {
		t.Errorf("paraphrase ranked first for only %d/%d anchors, want ≥ 16", first, len(va))
	}
	// Near, for two statements as here, lies above the unrelated pairs' 95th
	// percentile and below the paraphrases' mean.
	near, err := Near(context.Background(), m, false)
	if err != nil {
		t.Fatal(err)
	}
	if p95, mean := others[len(others)*95/100], sumPair/n; near <= p95 || near >= mean {
		t.Errorf("Near = %.3f, not between the unrelated pairs' p95 %.3f and the paraphrases' mean %.3f", near, p95, mean)
	}
}
