// Package evalset holds a graded evaluation set over the bundled example
// workspace (examples/workspace): queries.jsonl, read by eval.LoadQueries
// and run with `memoria eval bench/evalset/queries.jsonl`. See README.md for
// the query types, the fields and how the gold lines were chosen. The
// package's test keeps every gold and superseded citation pointing at an
// existing, non-blank line of the workspace, so the set cannot silently
// rot when the example changes.
package evalset
