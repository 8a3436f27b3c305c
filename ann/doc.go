// Package ann is Memoria's vector search: top-k by dot product over unit
// vectors (embeddings), in pure Go with a small AVX2/FMA assembly kernel.
//
// Two implementations share the Index interface:
//
//   - Flat keeps every vector in one contiguous []float32. With Rerank = 0
//     a query scans them all (exact; memory-bound, ≈ 4·dim bytes per
//     vector per query). With Rerank > 0 it first ranks sign-bit codes
//     (dim/8 bytes per vector, centred on the mean so that the shared
//     direction of embeddings does not waste bits) by Hamming distance and
//     re-scores the Rerank×k best in float32. Use Flat up to about 100k
//     vectors: it needs no build, inserts and deletes are
//     O(dim), and with Rerank 20 a 100k × 512-d query takes about 2 ms
//     (recall@25 0.98 on embedding-like data; exact float32 takes 25–40 ms).
//
//   - HNSW is a Hierarchical Navigable Small World graph (Malkov &
//     Yashunin): layered proximity graphs searched best-first from a single
//     entry point, neighbours chosen by the diversity heuristic (their
//     Algorithm 4). Use it above about 100k vectors, where a scan no longer
//     fits the latency budget. It costs a build (≈ 1 ms per insert per core
//     at 512-d), 4·(2M+1) bytes of links per vector on top of the vectors,
//     and gives approximate results: measure recall against Flat
//     (cmd/annbench does). Deletes are tombstones; Compact rebuilds. Save
//     and LoadHNSW persist it in a checksummed binary file.
//
// Both are safe for concurrent use: searches run in parallel, writers take
// an exclusive lock. Scores are dot products (cosine for unit vectors),
// higher is better. docs/ann.md has the measurements and how to repeat them.
package ann
