// Package unseen holds a graded evaluation set that Memoria's recall was
// never tuned on: a fictional household-and-small-business workspace
// (workspace/: a bakery and a pottery studio, 2026-03-02 to 2026-06-30) and
// queries.jsonl, read by eval.LoadQueries and run with
// `memoria eval bench/unseen/queries.jsonl --index-dir /tmp/unseen-idx`.
// See README.md for the query types, the fields and how the gold lines were
// chosen. The package's test only validates the set (every query parses,
// every gold and superseded citation points at existing, non-blank lines,
// no line is both, windows are well-formed, the counts match README.md); it
// does not score recall.
package unseen
