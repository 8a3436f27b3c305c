// Package sqlite is Memoria's embedded derived index, a memory.Store: a
// SQLite database (WAL, FTS5) at <workspace>/.memory/index.sqlite built
// from the workspace's Markdown, with the vector store (package vector)
// beside it.
//
// The index is never the truth. It records, per file, the size, mtime and
// content hash it was built from; Sync compares them with the disk (a stat
// per file) and re-parses only files whose content changed, so a recall is
// never stale. A missing, corrupt, foreign or outdated index is rebuilt
// from the Markdown into a private file, which is then copied into the
// live index with SQLite's backup API (readers never wait), or linked in
// place where there is no usable one (docs/index.md).
//
// FTS5 is the one lexical engine: it tokenizes and ranks; one function
// (fts.go) makes every full-text row. The builder (build.go, sync.go) is
// kept apart from the searcher (search.go, terms.go, nearest.go), as in
// Zoekt. The driver is modernc.org/sqlite, pure Go: see
// docs/sqlite-driver.md for the measurements behind that choice.
package sqlite
