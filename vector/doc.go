// Package vector is a workspace's vector store: the embedding of each
// distinct item text, stored once, in a SQLite file of its own beside the
// index (so that a rebuild of the index keeps them), and the in-memory
// index that searches them (an ann.Flat, or an ann.HNSW graph saved beside
// the store for very large ones).
//
// The derived index (package sqlite) asks it for the texts nearest a query
// vector and maps them to its items; it knows nothing of items, files or
// filters.
package vector
