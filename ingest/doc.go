// Package ingest reads a workspace's files into the rows every index
// stores: a file is read, hashed and parsed once (Load, LoadAll), and cut
// into items (DocItem) and their full-text rows (EachRow). It is the one
// definition of those rows, whatever the index: the embedded SQLite one
// (package sqlite) and the shared PostgreSQL one (package postgres) store
// the same items with the same searchable text, so that they answer alike.
package ingest

// Version changes whenever the rows made here change (what a full-text
// row holds, how items are cut): indexes written with other rows are
// rebuilt rather than edited. Each index puts it in its identity. 2: a
// tombstone of forgotten lines, and a line whose text the workspace's
// record of forgotten text holds, is read as a blank line (forget.Mask).
const Version = 2
