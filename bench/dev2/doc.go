// Package dev2 holds a development evaluation set for Memoria's recall: a
// fictional guesthouse-and-whale-desk workspace in Ponta Delgada, Azores
// (workspace/, 2026-02-23 to 2026-06-21) and queries.jsonl, read by
// eval.LoadQueries and run with
// `memoria eval bench/dev2/queries.jsonl --index-dir /tmp/dev2-idx`.
// See README.md for the query types, the fields and how the gold lines were
// chosen. The package's test only validates the set (every query parses,
// every gold and superseded citation points at existing, non-blank lines,
// no line is both, windows are well-formed, the counts match README.md); it
// does not score recall.
package dev2
