// Package dev3 holds a development evaluation set for Memoria's recall: a
// fictional retired ship's engineer's notebook in Tromsø, Norway — a
// wooden boat's winter restoration, a grand-daughter, a blood thinner and a
// quarrel with the harbour office (workspace/, 2025-10-13 to 2026-02-08)
// — and queries.jsonl, read by eval.LoadQueries and run with
// `memoria eval bench/dev3/queries.jsonl --index-dir /tmp/dev3-idx`.
// See README.md for the query types, the fields and how the gold lines were
// chosen. The package's test only validates the set (every query parses,
// every gold and superseded citation points at existing, non-blank lines,
// no line is both, windows are well-formed, the counts match README.md); it
// does not score recall.
package dev3
