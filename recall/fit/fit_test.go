package main

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"memoria"
	"memoria/embed/models"
	"memoria/memory"
	"memoria/recall"
)

// TestRankingIndependentOfK: over every question of the development sets,
// the first n results are the same for every k ≥ n: the same items in the
// same order. The candidate pool does not depend on k, and packing takes
// the ranking in order; a pool that grew with k once put a typed fact
// found deep by one channel above the passage that --k 1 returned first.
// The same result cites the same lines but for a line or two at its edge:
// a passage that touches it joins it, unless a later result, packed only
// for a larger k, widened over that line first.
func TestRankingIndependentOfK(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	sets, err := loadSets(ctx, repoPaths(t, devSets), config{name: "lexical"}, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { closeSets(sets) })
	ks := []int{1, 3, 10, 40}
	checked := 0
	for _, s := range sets {
		for _, q := range s.queries {
			var longest []memory.Source
			got := map[int][]memory.Source{}
			for _, k := range ks {
				res, err := s.spaces[q.Workspace].Recall(ctx, q.Question, memoria.RecallOptions{K: k, Now: q.Now, Lexical: true})
				if err != nil {
					t.Fatalf("%s: %v", q.ID, err)
				}
				got[k] = recall.Cites(res)
				longest = got[k]
			}
			for _, k := range ks {
				n := min(k, len(got[k]))
				if !slices.EqualFunc(got[k], longest[:n], memory.Source.Overlaps) {
					t.Errorf("%s %q: --k %d gives %v, the first %d of --k %d are %v", q.ID, q.Question, k, got[k], n, ks[len(ks)-1], longest[:n])
				}
			}
			checked++
		}
	}
	if checked < 400 {
		t.Errorf("checked %d questions; the development sets have more", checked)
	}
}

// TestGeneratedRankerIsThisBuilds: the checked-in weights name this
// build's features (a feature added without fitting again is caught here,
// before a recall refuses the weights).
func TestGeneratedRankerIsThisBuilds(t *testing.T) {
	t.Parallel()
	for _, id := range []string{"", recall.DefaultModelIdentity} {
		if err := recall.FittedRanker(id).Check(); err != nil {
			t.Error(err)
		}
	}
}

// TestDefaultModelIdentity: recall's name for the default model's vectors
// (it does not import the model) is the model's own.
func TestDefaultModelIdentity(t *testing.T) {
	t.Parallel()
	if models.Default.Identity != recall.DefaultModelIdentity {
		t.Errorf("recall.DefaultModelIdentity %q, the default model's %q", recall.DefaultModelIdentity, models.Default.Identity)
	}
}

// TestFitDeterministic: the same examples give the same weights, to the
// digit the generated file keeps.
func TestFitDeterministic(t *testing.T) {
	t.Parallel()
	n := recall.NumFeatures()
	var data []example
	for q := range 30 {
		ex := example{set: q % 3}
		for c := range 12 {
			x := make([]float64, n)
			for k := range x {
				x[k] = float64((q*31+c*17+k*7)%11) / 10
			}
			ex.x = append(ex.x, x)
			l := negative
			if c == q%12 {
				l = positive
			}
			ex.label = append(ex.label, l)
		}
		data = append(data, ex)
	}
	a, b := fit(data, nil), fit(data, nil)
	if !slices.Equal(a.Weights, b.Weights) {
		t.Fatalf("two fits differ:\n%v\n%v", a.Weights, b.Weights)
	}
	if slices.Equal(a.Weights, make([]float64, n)) {
		t.Fatal("the fit learnt nothing")
	}
}

// repoPaths makes the sets' paths, relative to the repository's root,
// relative to this package's folder, where go test runs.
func repoPaths(t *testing.T, paths []string) []string {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatal(err)
	}
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = filepath.Join(root, p)
	}
	return out
}
