// Package teamset is an evaluation set for team-wide recall, written from
// scratch by a helper who never ran Memoria nor read its code or its other
// evaluation sets.
//
// Four agents of Atelier Virgule, a translation and localisation agency in
// Montréal, keep a workspace each (workspaces/ops, maelle, karim and
// billing: 69 daily logs from 2026-08-03 to 2026-10-23, core memories and
// curated pages, some stale on purpose). queries.jsonl holds 24 scored
// questions and 2 abstentions, each asked of all four workspaces at once:
// none names a workspace of its own, and each gold line names the
// workspace it is in ("karim:memory/2026-08-24.md#L4"). README.md
// describes them; `go run ./bench/team -leakproof -quality bench/teamset`
// measures them through the shared PostgreSQL index.
//
// The package holds no code: teamset_test.go only validates the set (its
// citations, fields and counts) and scores nothing.
package teamset
