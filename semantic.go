package memoria

import (
	"context"
	"errors"

	"memoria/embed"
	"memoria/embed/uselite"
	"memoria/sqlite"
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
func (w *Workspace) Embed(ctx context.Context, e embed.Embedder, progress func(done, total int)) (sqlite.EmbedStats, error) {
	if e == nil {
		return sqlite.EmbedStats{}, errors.New("embed: no embedding model")
	}
	return w.ix.EmbedPending(ctx, e, sqlite.EmbedOptions{Progress: progress})
}

// BuildStats describes the build Open did when it had to build the index
// from scratch (see Rebuilt).
func (w *Workspace) BuildStats() sqlite.Stats { return w.ix.BuildStats }
