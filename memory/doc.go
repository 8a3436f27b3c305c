// Package memory holds Memoria's domain types: the facts, passages, entity
// pages and citations that the Markdown parser produces, the index stores and
// recall returns.
//
// It is a leaf package (standard library only) so that every other package,
// including the root library package memoria, can share one vocabulary
// without import cycles.
package memory
