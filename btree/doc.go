// Package btree writes SQLite B-trees straight into a database file, in
// SQLite's file format (https://sqlite.org/fileformat2.html): records,
// table and index pages, interior levels and overflow chains.
//
// A full build of Memoria's index writes some 85,000 items per ten years
// of notes, with five indexes over them and a full-text index of the same
// size. Through SQLite (C translated to Go, on one connection) inserting
// them was most of the build's time; laid out here they cost a small part
// of it. SQLite still makes the file: it creates the schema, so that every
// table and index has its root page, and fills the small tables after.
// Between the two, with no connection open, File appends the pages of the
// big trees to the file and writes each tree's top page over its root.
//
// The trees are packed as SQLite's own bulk builds pack them (leaves full,
// one level above another until a single root) and are ordinary B-trees
// from then on: SQLite reads, updates and rebalances them as its own. The
// tests hold them to SQLite's integrity check and to the rows SQLite reads
// back, at page sizes from 512 to 65,536 bytes, with overflow chains and
// trees three and four levels high.
//
// The caller gives the rows in key order: ascending rowids for a table,
// keys in SQLite's index order (the columns compared in turn, BINARY
// collation, the rowid last) for an index.
package btree
