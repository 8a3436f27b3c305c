// Package bm25 is an in-memory full-text index that ranks exactly like
// SQLite FTS5's bm25() over a table tokenized with
// tokenize='porter unicode61 remove_diacritics 2' (package porter makes the
// same terms).
//
// Why it exists: FTS5's bm25() reads every matching row's size from the
// %_docsize table, one B-tree lookup per row, which is most of an
// OR-query's time on years of memory (docs/index.md). A long-lived process
// (the MCP server, a program using the library) keeps the same postings
// in memory and scores a query in a fraction of that; the SQLite index
// stays the source, and the scores are the same numbers FTS5 computes.
//
// A query is a list of phrases, each a list of terms, matched with OR as
// FTS5 matches `"a" OR "b c"`: a phrase matches where its terms stand next
// to each other, in order, in one column.
package bm25
