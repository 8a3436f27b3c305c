package memoria

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"sync"
	"time"

	"memoria/embed"
	"memoria/embed/models"
	"memoria/embed/openai"
	"memoria/lang"
	"memoria/memory"
	"memoria/recall"
)

// ErrNoModel is wrapped by DefaultEmbedder when the offline embedding model
// is not installed; semantic recall is then off and recall is lexical.
var ErrNoModel = embed.ErrModelMissing

// DefaultEmbedder loads the offline embedding model this process uses, run
// in pure Go from the model folder ($MEMORIA_MODEL_DIR or the user cache),
// where `memoria model install` puts it: the model $MEMORIA_MODEL names
// (uselite, minilm or e5), else the first installed in the order of
// models.All (the default first). The error wraps ErrNoModel when it is not
// there. A workspace chooses for itself (Workspace.IndexEmbedder: a
// multilingual model for text mostly not in English); this is the choice
// without a workspace.
//
// With $MEMORIA_EMBED_URL set, it is instead the model $MEMORIA_EMBED_MODEL
// of that OpenAI-compatible /v1/embeddings server (Ollama, llama.cpp's
// server, vLLM…; $MEMORIA_EMBED_KEY as its bearer token), probed once for
// its dimension.
func DefaultEmbedder() (embed.Embedder, error) {
	if url := os.Getenv("MEMORIA_EMBED_URL"); url != "" {
		c, err := openai.New(openai.Config{BaseURL: url, Model: os.Getenv("MEMORIA_EMBED_MODEL"), APIKey: os.Getenv("MEMORIA_EMBED_KEY")})
		if err != nil {
			return nil, fmt.Errorf("MEMORIA_EMBED_URL: %w", err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := c.Probe(ctx); err != nil {
			return nil, fmt.Errorf("MEMORIA_EMBED_URL: %w", err)
		}
		return c, nil
	}
	m, _, err := models.Selected("")
	if err != nil {
		return nil, err
	}
	return m.Load("")
}

// IndexEmbedder is the embedding model `memoria index` embeds the workspace with:
// $MEMORIA_EMBED_URL's server, else the model $MEMORIA_MODEL names, else the first
// installed model that reads the workspace's text, which for a workspace whose
// newest lines are mostly not in English is a multilingual one (e5) before the
// English-only ones. The error wraps ErrNoModel when none is installed.
func (w *Workspace) IndexEmbedder(ctx context.Context) (embed.Embedder, error) {
	if os.Getenv("MEMORIA_EMBED_URL") != "" {
		return DefaultEmbedder()
	}
	m, _, err := w.selectedModel(ctx)
	if err != nil {
		return nil, err
	}
	return m.Load("")
}

// selectedModel is the offline model for this workspace (IndexEmbedder's).
func (w *Workspace) selectedModel(ctx context.Context) (models.Model, bool, error) {
	other, total := w.languageCount(ctx)
	return models.SelectedFor("", 2*other > total)
}

// installCommand is what installs a model, said where none is: the
// default, or e5 for text mostly not in English. It reads no text: it is
// said on the path of a lexical recall, which must not pay for that.
func installCommand() string {
	m, _, err := models.Selected("")
	if err != nil {
		return "memoria model install"
	}
	if !m.EnglishOnly {
		return m.InstallCommand()
	}
	return m.InstallCommand() + " (memoria model install e5 for text mostly not in English)"
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
		if lost, ok := w.ix.(interface{ VectorsLost() bool }); ok && lost.VectorsLost() && w.loadEmbedder(ctx) != nil {
			// The store was damaged and started afresh: embed the texts
			// again, in the background; lexical recall answers meanwhile.
			w.reembedOnce.Do(func() {
				// Batches are committed one by one: Close stops it, and the
				// next process resumes where it stopped.
				bg, cancel := context.WithCancel(context.WithoutCancel(ctx))
				w.stopReembed = cancel
				w.reembed.Go(func() {
					if _, err := w.ix.EmbedPending(bg, w.embedder, memory.EmbedOptions{}); err != nil && bg.Err() == nil && w.opts.Warn != nil {
						w.opts.Warn("embedding the texts again after the vector store was damaged: " + err.Error())
					}
				})
			})
			w.lexical("the vector store was damaged; the texts are being embedded again")
			return nil, nil
		}
		// No vectors: do not pay for loading a model.
		if w.opts.Embedder == nil && !modelInstalled() {
			w.lexical("the embedding model is not installed (" + installCommand() + ", then memoria index)")
		} else {
			w.lexical("no vectors yet (memoria index embeds the text)")
		}
		return nil, nil
	}
	if w.loadEmbedder(ctx) == nil {
		w.lexical("the embedding model is not installed (" + installCommand() + ")")
		return nil, nil
	}
	if model != w.embedder.Identity() {
		w.lexical("the vectors are from another model (memoria index embeds the text again)")
		return nil, nil
	}
	w.lexicalWhy.Store("")
	// The language notice reads the newest lines while the query is
	// embedded (a one-shot recall would otherwise wait for both); it is
	// said from here, as every other warning is.
	var notice sync.WaitGroup
	var languageMsg string
	defer func() {
		notice.Wait()
		if languageMsg != "" {
			w.opts.Warn(languageMsg)
		}
	}()
	w.languageOnce.Do(func() {
		if w.opts.Warn == nil {
			return
		}
		notice.Add(1)
		go func() {
			defer notice.Done()
			languageMsg = w.LanguageNotice(ctx, model)
		}()
	})
	if lag, err := w.ix.VectorLag(ctx); err == nil && lag > 0 {
		w.lagOnce.Do(func() {
			if w.opts.Warn != nil {
				w.opts.Warn(fmt.Sprintf("semantic recall does not cover the %d items indexed since the last embedding yet (memoria index embeds them); lexical recall does", lag))
			}
		})
		w.lag.Store(int64(lag))
	} else {
		w.lag.Store(0)
	}
	vecs, err := embed.EmbedQueries(ctx, w.embedder, []string{text})
	if err != nil {
		return nil, fmt.Errorf("recall: embed the query: %w", err)
	}
	return vecs[0], nil
}

// EmbedNew keeps semantic recall fresh: when the index holds vectors of
// the workspace's model (Options.Embedder, else the default model when
// installed), it embeds the text that has none yet (new or changed since
// the last embedding) and returns what it did. With no vectors, or
// vectors of another model, it does nothing: `memoria index` embeds
// (everything, the first time), which can take minutes and is asked for.
// Retain and the watch of `memoria watch` and `memoria serve` call it after
// each change.
func (w *Workspace) EmbedNew(ctx context.Context) (memory.EmbedStats, error) {
	model, err := w.ix.VectorModel(ctx)
	if err != nil || model == "" {
		return memory.EmbedStats{}, err
	}
	e := w.loadEmbedder(ctx)
	if e == nil || e.Identity() != model {
		return memory.EmbedStats{}, nil
	}
	return w.ix.EmbedPending(ctx, e, memory.EmbedOptions{})
}

// loadEmbedder returns the workspace's embedding model, loaded once, or nil:
// Options.Embedder, else $MEMORIA_EMBED_URL's or $MEMORIA_MODEL's, else the
// installed model whose vectors the index holds (recall asks as the index was
// embedded), else IndexEmbedder's.
func (w *Workspace) loadEmbedder(ctx context.Context) embed.Embedder {
	w.embedOnce.Do(func() {
		if w.opts.Embedder != nil {
			w.embedder = w.opts.Embedder
			return
		}
		m, err := w.recallEmbedder(ctx)
		if err != nil {
			if !errors.Is(err, ErrNoModel) && w.opts.Warn != nil {
				w.opts.Warn("semantic recall off: " + err.Error())
			}
			return
		}
		w.embedder = m
	})
	return w.embedder
}

func (w *Workspace) recallEmbedder(ctx context.Context) (embed.Embedder, error) {
	if os.Getenv("MEMORIA_EMBED_URL") == "" && os.Getenv("MEMORIA_MODEL") == "" {
		if id, err := w.ix.VectorModel(ctx); err == nil && id != "" {
			if m, ok := models.ByIdentity(id); ok && m.Installed("") {
				return m.Load("")
			}
		}
	}
	return w.IndexEmbedder(ctx)
}

// similarity returns the cosine similarity of two texts' embeddings under
// the workspace's model (nil without one), each text embedded once, on the
// scale of the default model (USE-lite), on which reflect's thresholds were
// measured: another model's cosines are mapped so that its own "near in
// meaning" (models.Near, measured once per call) lands on the default's.
func (w *Workspace) similarity(ctx context.Context) func(a, b string) float64 {
	e := w.loadEmbedder(ctx)
	if e == nil {
		return nil
	}
	scale := func(c float64) float64 { return c }
	if e.Identity() != recall.DefaultModelIdentity {
		if near, err := models.Near(ctx, e, false); err == nil && near < 1 {
			ref := recall.NearCosine(recall.DefaultModelIdentity)
			scale = func(c float64) float64 { return ref + (c-near)*(1-ref)/(1-near) }
		}
	}
	cache := map[string][]float32{}
	vec := func(s string) []float32 {
		if v, ok := cache[s]; ok {
			return v
		}
		vs, err := e.Embed(ctx, []string{s})
		var v []float32
		if err == nil && len(vs) == 1 {
			v = vs[0]
		}
		cache[s] = v
		return v
	}
	return func(a, b string) float64 {
		va, vb := vec(a), vec(b)
		if len(va) == 0 || len(va) != len(vb) {
			return 0
		}
		var dot, na, nb float64
		for i := range va {
			dot += float64(va[i]) * float64(vb[i])
			na += float64(va[i]) * float64(va[i])
			nb += float64(vb[i]) * float64(vb[i])
		}
		if na == 0 || nb == 0 {
			return 0
		}
		return scale(dot / math.Sqrt(na*nb))
	}
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

// SemanticLag is how many items the last recall's semantic channel may
// have missed: indexed since the last complete embedding (0 when none).
func (w *Workspace) SemanticLag() int { return int(w.lag.Load()) }

// SemanticOff says why the last recall ran without its semantic channel
// (the model not installed, no vectors yet, vectors of another model), or
// "" when it ran or no recall asked for it.
func (w *Workspace) SemanticOff() string {
	why, _ := w.lexicalWhy.Load().(string)
	return why
}

// modelInstalled reports whether a model is installed (or a server named),
// without loading it or reading the workspace: the workspace's choice
// (selectedModel) is an installed model whenever one is.
func modelInstalled() bool {
	if os.Getenv("MEMORIA_EMBED_URL") != "" {
		return true
	}
	m, _, err := models.Selected("")
	return err == nil && m.Installed("")
}

// languageSample is how many of the newest lines languageCount reads.
const languageSample = 200

// languageCount reads the workspace's newest lines (at most languageSample) and
// returns how many are not in English, of how many.
func (w *Workspace) languageCount(ctx context.Context) (other, total int) {
	items, err := w.ix.Items(ctx, memory.Filter{Kinds: []memory.Kind{memory.KindPassage}}, true, languageSample)
	if err != nil {
		return 0, 0
	}
	for _, it := range items {
		if lang.NotEnglish(it.Content) {
			other++
		}
	}
	return other, len(items)
}

// LanguageNotice is the warning to give when most of the workspace's
// newest lines are not in English and the model whose vectors the index
// holds (identity) is English-only; "" otherwise. It names the model that
// reads them: the one `memoria index` then embeds with, or the one to
// install. Recall says it once per workspace; `memoria index` after
// embedding.
func (w *Workspace) LanguageNotice(ctx context.Context, identity string) string {
	m, ok := models.ByIdentity(identity)
	if !ok || !m.EnglishOnly {
		return ""
	}
	other, total := w.languageCount(ctx)
	if total == 0 || 2*other <= total {
		return ""
	}
	msg := fmt.Sprintf("%d of the %d newest lines are not in English, and the embedding model %s is English-only: its semantic channel ranks them poorly (recall --lexical leaves it out)", other, total, m.Name)
	switch better, _, err := models.SelectedFor("", true); {
	case err != nil || better.EnglishOnly || os.Getenv("MEMORIA_MODEL") != "":
	case better.Installed(""):
		msg += fmt.Sprintf("; memoria index embeds them again with %s, which reads them", better.Name)
	default:
		msg += fmt.Sprintf("; %s, then memoria index, gives it a model that reads them", better.InstallCommand())
	}
	return msg
}
