// Package sqlite is Memoria's derived index: a SQLite database (WAL, FTS5)
// at <workspace>/.memory/index.sqlite built from the workspace's Markdown.
//
// The index is never the truth. It records, per file, the size, mtime and
// content hash it was built from; Sync compares them with the disk (a stat
// per file) and re-parses only files whose content changed, so a recall is
// never stale. A missing, corrupt, foreign or outdated index file is rebuilt
// from the Markdown into a temporary file that then replaces it by rename.
//
// The builder (sync.go, build.go) is kept apart from the searcher
// (search.go), as in Zoekt. The driver is modernc.org/sqlite, pure Go: see
// docs/sqlite-driver.md for the measurements behind that choice.
package sqlite
