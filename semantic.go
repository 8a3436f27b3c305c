package memoria

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

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
// the index yet (`memoria index` makes them). Why it cannot is kept for
// SemanticOff and said once through Options.Warn: without the model,
// recall works lexically, and says so.
func (w *Workspace) queryVector(ctx context.Context, text string) ([]float32, error) {
	model, err := w.ix.VectorModel(ctx)
	if err != nil {
		return nil, err
	}
	if model == "" {
		// No vectors: do not pay for loading a model.
		if w.opts.Embedder == nil && !modelInstalled() {
			w.lexical("the embedding model is not installed (" + uselite.InstallCommand + ", then memoria index)")
		} else {
			w.lexical("no vectors yet (memoria index embeds the text)")
		}
		return nil, nil
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
		w.lexical("the embedding model is not installed (" + uselite.InstallCommand + ")")
		return nil, nil
	}
	if model != w.embedder.Identity() {
		w.lexical("the vectors are from another model (memoria index embeds the text again)")
		return nil, nil
	}
	w.lexicalWhy.Store("")
	vecs, err := w.embedder.Embed(ctx, []string{text})
	if err != nil {
		return nil, fmt.Errorf("recall: embed the query: %w", err)
	}
	return vecs[0], nil
}

// lexical records why recall runs without its semantic channel, and says
// it the first time.
func (w *Workspace) lexical(why string) {
	w.lexicalWhy.Store(why)
	w.lexicalOnce.Do(func() {
		if w.opts.Warn != nil {
			w.opts.Warn("semantic recall off, recall is lexical: " + why)
		}
	})
}

// SemanticOff says why the last recall ran without its semantic channel
// (the model not installed, no vectors yet, vectors of another model), or
// "" when it ran or no recall asked for it.
func (w *Workspace) SemanticOff() string {
	why, _ := w.lexicalWhy.Load().(string)
	return why
}

// modelInstalled reports whether the default model's file is in its
// folder, without loading it.
func modelInstalled() bool {
	st, err := os.Stat(filepath.Join(uselite.DefaultDir(), uselite.FileName))
	return err == nil && st.Mode().IsRegular()
}
