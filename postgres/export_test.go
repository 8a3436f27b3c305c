package postgres

// OnSearch has f told each full-text search's statement and arguments
// before it runs.
func OnSearch(ix *Index, f func(sql string, args []any)) { ix.searched = f }
