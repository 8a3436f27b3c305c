package sqlite

import (
	"context"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"memoria/embed"
	"memoria/memory"
)

// bagEmbedder is a real, deterministic embedder for tests: a hashed bag of
// words, L2-normalised. Texts sharing words are near; others are not.
type bagEmbedder struct {
	id    string
	dim   int // 0 means 64
	calls int
	texts int
	// dense projects the bag through a fixed random Gaussian matrix and
	// adds a shared direction: dense vectors whose cosines follow the
	// bags', shaped like a real model's (for the sign-bit prefilter, which
	// sparse bags defeat).
	dense bool
	proj  []float32
}

func (b *bagEmbedder) Identity() string { return b.id }
func (b *bagEmbedder) Dim() int {
	if b.dim > 0 {
		return b.dim
	}
	return 64
}
func (b *bagEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	b.calls++
	b.texts += len(texts)
	out := make([][]float32, len(texts))
	dim := uint32(b.Dim())
	for i, t := range texts {
		v := make([]float32, dim)
		for _, w := range strings.Fields(strings.ToLower(t)) {
			h := fnv.New32a()
			h.Write([]byte(strings.Trim(w, ".,!?")))
			v[h.Sum32()%dim]++
		}
		if b.dense {
			v = b.project(v)
		}
		embed.Normalize(v)
		out[i] = v
	}
	return out, nil
}

func (b *bagEmbedder) project(v []float32) []float32 {
	dim := len(v)
	if b.proj == nil {
		r := rand.New(rand.NewPCG(7, 11))
		b.proj = make([]float32, dim*dim)
		for i := range b.proj {
			b.proj[i] = float32(r.NormFloat64())
		}
	}
	embed.Normalize(v)
	out := make([]float32, dim)
	for i := range out {
		out[i] = 0.6 * float32(math.Sqrt(float64(dim))) / float32(dim) // shared direction
		out[i] += embed.Dot(b.proj[i*dim:(i+1)*dim], v) / float32(math.Sqrt(float64(dim)))
	}
	return out
}

func TestEmbedPendingIncrementalAndModelChange(t *testing.T) {
	dir := testWorkspace(t)
	ix := openTest(t, dir, Options{})
	ctx := context.Background()
	e := &bagEmbedder{id: "bag/v1"}
	st, err := ix.EmbedPending(ctx, e, memory.EmbedOptions{Batch: 2})
	if err != nil {
		t.Fatal(err)
	}
	if st.Embedded != st.Total || st.Total == 0 || st.Pending != 0 {
		t.Fatalf("first run %+v", st)
	}
	// Nothing to do the second time.
	if st, _ := ix.EmbedPending(ctx, e, memory.EmbedOptions{}); st.Embedded != 0 {
		t.Errorf("second run embedded %d", st.Embedded)
	}
	// An edit re-embeds only the new text.
	writeFile(t, dir, "memory/2025-11-20.md", "# 2025-11-20\n\n- Walked Biscuit to the vet; the vaccination is due again in May.\n- A new line about kites.\n")
	touch(t, dir, "memory/2025-11-20.md", 5)
	if _, err := ix.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	if st, _ := ix.EmbedPending(ctx, e, memory.EmbedOptions{}); st.Embedded != 1 {
		t.Errorf("after adding one line: embedded %d, want 1", st.Embedded)
	}
	// An interrupted run resumes.
	e2 := &bagEmbedder{id: "bag/v2"}
	st, _ = ix.EmbedPending(ctx, e2, memory.EmbedOptions{Batch: 2, Limit: 2})
	if st.Embedded != 2 || st.Pending == 0 {
		t.Fatalf("limited run %+v", st)
	}
	st, _ = ix.EmbedPending(ctx, e2, memory.EmbedOptions{})
	if st.Embedded+2 != st.Total {
		t.Errorf("resumed run %+v", st)
	}
	if m, _ := ix.VectorModel(ctx); m != "bag/v2" {
		t.Errorf("model %q", m)
	}
}

func TestNearestItems(t *testing.T) {
	dir := testWorkspace(t)
	ix := openTest(t, dir, Options{})
	ctx := context.Background()
	e := &bagEmbedder{id: "bag/v1"}
	if _, err := ix.EmbedPending(ctx, e, memory.EmbedOptions{}); err != nil {
		t.Fatal(err)
	}
	q, _ := e.Embed(ctx, []string{"biscuit vaccination vet"})
	hits, err := ix.NearestItems(ctx, q[0], memory.Filter{}, 3)
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 3 || hits[0].Source.Path != "memory/2025-11-20.md" || hits[0].Score < hits[1].Score {
		t.Errorf("hits %+v", hits)
	}
	hits, _ = ix.NearestItems(ctx, q[0], memory.Filter{Entities: []string{"peter"}}, 10)
	for _, h := range hits {
		if !strings.Contains(strings.ToLower(strings.Join(h.Entities, " ")), "peter") {
			t.Errorf("filter ignored: %+v", h)
		}
	}
}

func TestVectorsSurviveRebuild(t *testing.T) {
	dir := testWorkspace(t)
	ix := openTest(t, dir, Options{})
	ctx := context.Background()
	e := &bagEmbedder{id: "bag/v1"}
	first, err := ix.EmbedPending(ctx, e, memory.EmbedOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ix.Rebuild(ctx); err != nil {
		t.Fatal(err)
	}
	st, err := ix.EmbedPending(ctx, e, memory.EmbedOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if st.Embedded != 0 || st.Total != first.Total {
		t.Errorf("after a rebuild: %+v (first run %+v); the vectors should have been kept", st, first)
	}
	s, err := ix.Status(ctx)
	if err != nil || s.Embedded != first.Total || s.VectorModel != "bag/v1" {
		t.Errorf("status %+v, %v", s, err)
	}
}
