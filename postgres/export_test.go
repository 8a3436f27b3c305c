package postgres

// OnStatement has f told the statements of Search, EntityItems, Items
// and NearestItems, with their arguments, before they run.
func OnStatement(ix *Index, f func(sql string, args []any)) { ix.statements = f }

// WordBag is the tests' deterministic embedder (pgvector_test.go).
type WordBag = wordBag

// MigrateTo brings a database's schema to an older version than this
// code's, as an older memoria left it.
var MigrateTo = migrateTo
