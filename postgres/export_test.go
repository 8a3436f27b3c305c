package postgres

// OnStatement has f told the statements of Search, EntityItems and
// Items, with their arguments, before they run.
func OnStatement(ix *Index, f func(sql string, args []any)) { ix.statements = f }
