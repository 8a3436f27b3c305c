// Package dev4 holds a development evaluation set for Memoria's recall: the
// shared agent memory of a fictional three-person software studio in
// Nairobi, Kenya, written by several people — clients, invoices in KES, a
// server migration, an office move and a hiring round (workspace/,
// 2025-04-07 to 2025-08-03) — and queries.jsonl, read by eval.LoadQueries
// and run with `memoria eval bench/dev4/queries.jsonl --index-dir
// /tmp/dev4-idx`. See README.md for the query types, the fields and how the
// gold lines were chosen. The package's test only validates the set (every
// query parses, every gold and superseded citation points at existing,
// non-blank lines, no line is both, windows are well-formed, the counts
// match README.md); it does not score recall.
package dev4
