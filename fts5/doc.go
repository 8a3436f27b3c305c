// Package fts5 writes SQLite FTS5's on-disk index format from Go: the
// leaf pages, doclist indexes and b-tree rows of a segment (the rows of
// an FTS5 table's %_data and %_idx shadow tables), its structure and
// averages records, and the rows of %_docsize.
//
// A full build of Memoria's index tokenizes every item in Go anyway (for
// the in-memory bm25 postings); having SQLite's FTS5 tokenize the same
// text a second time, in C translated to Go, was the slowest part of the
// build. With this package the build hands FTS5 a finished segment.
//
// The output is byte for byte what FTS5 itself writes when one
// transaction inserts the documents in ascending rowid order into an
// empty table with detail=full, and its in-memory hash is flushed once
// as one segment: SegmentWriter follows fts5FlushOneHash and the
// fts5Write* functions of ext/fts5/fts5_index.c, page splits and doclist
// indexes included. The tests hold it to that, table for table, against
// the FTS5 of the SQLite linked by modernc.org/sqlite, at the default page
// size and at small ones that split every doclist. Structure can also put
// the segment on a higher level than FTS5's level 0, as FTS5's optimize
// does, so that the small segments of later inserts merge among
// themselves before they reach it.
package fts5
