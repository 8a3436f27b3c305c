// Package mmapfile maps whole files into memory, read-only or as a
// private copy-on-write view, falling back to reading them where mapping
// is not available. The index's derived files (vectors, the postings
// snapshot) and the embedding model's cache are used where they lie.
package mmapfile
