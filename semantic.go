package memoria

import (
	"context"
	"errors"
	"fmt"

	"memoria/embed"
	"memoria/embed/uselite"
	"memoria/memory"
)

// ErrNoModel is wrapped by DefaultEmbedder when the offline embedding model
// is not installed; semantic recall is then off and recall is lexical.
var ErrNoModel = uselite.ErrModelMissing

// DefaultEmbedder loads the default offline embedding model (Universal
// Sentence Encoder Lite, run in pure Go) from the model folder
// ($MEMORIA_MODEL_DIR or the user cache), where `go run
// ./cmd/memoria-model fetch` installs it. The error wraps ErrNoModel when it
// is not there.
func DefaultEmbedder() (embed.Embedder, error) {
	m, err := uselite.Load("")
	if err != nil {
		return nil, err
	}
	return m, nil
}

// Embed gives every indexed text without a vector one from e (only new or
// changed text, or everything after a model change), committing batch by
// batch so that an interrupted run resumes and recall keeps working
// meanwhile.
func (w *Workspace) Embed(ctx context.Context, e embed.Embedder, progress func(done, total int)) (memory.EmbedStats, error) {
	if e == nil {
		return memory.EmbedStats{}, errors.New("embed: no embedding model")
	}
	return w.ix.EmbedPending(ctx, e, memory.EmbedOptions{Progress: progress})
}

// queryVector embeds a query for the semantic channel, or returns nil when
// semantic recall cannot run: no model, or no vectors from this model in
// the index yet (`memoria index` makes them).
func (w *Workspace) queryVector(ctx context.Context, text string) ([]float32, error) {
	model, err := w.ix.VectorModel(ctx)
	if err != nil || model == "" {
		return nil, err // no vectors: do not pay for loading a model
	}
	w.embedOnce.Do(func() {
		if w.opts.Embedder != nil {
			w.embedder = w.opts.Embedder
			return
		}
		m, err := DefaultEmbedder()
		if err != nil {
			if !errors.Is(err, ErrNoModel) && w.opts.Warn != nil {
				w.opts.Warn("semantic recall off: " + err.Error())
			}
			return
		}
		w.embedder = m
	})
	if w.embedder == nil {
		return nil, nil
	}
	if model != w.embedder.Identity() {
		return nil, nil // vectors from another model: `memoria index` re-embeds
	}
	vecs, err := w.embedder.Embed(ctx, []string{text})
	if err != nil {
		return nil, fmt.Errorf("recall: embed the query: %w", err)
	}
	return vecs[0], nil
}
