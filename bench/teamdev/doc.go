// Package teamdev is a development set for team-wide recall, written from
// scratch by a helper who never ran Memoria nor read its code or its other
// evaluation sets; bench/teamset, written to the same brief in another
// voice, is held out.
//
// Five members of Kahikatea Grove Co-op, a dairy farm, orchard and farm
// shop in the Waikato, keep a workspace each (workspaces/dairy, orchard,
// shop, books and sam: 82 daily logs from 2026-03-02 to 2026-05-29, core
// memories and curated pages, some stale on purpose). queries.jsonl holds
// 42 scored questions and 2 abstentions, each asked of all five
// workspaces at once; each gold line names the workspace it is in.
// README.md describes them; `go run ./bench/team -leakproof -quality
// bench/teamdev` measures them through the shared PostgreSQL index.
//
// The package holds no code: teamdev_test.go only validates the set.
package teamdev
