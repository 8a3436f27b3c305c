// Package memory holds Memoria's domain types: the facts, passages, entity
// pages and citations that the Markdown parser produces, the index stores and
// recall returns, and the contract of the index itself (Store, with its
// items, filters and statistics), which every storage backend implements.
//
// It is a leaf package (standard library and golang.org/x/text only) so
// that every other package, including the root library package memoria,
// can share one vocabulary without import cycles.
package memory
