//go:build unix

// Command team measures the shared PostgreSQL index (package postgres) the
// way a team runs it: many workspaces in one database, served by one
// process that recalls from them and syncs them at once, and what happens
// when a sync is killed or the server restarts.
//
//	go run ./bench/team [-workspaces 50] [-items 1000000] [-duration 60s] [-kills 20]
//	                    [-restarts 2] [-dir DIR] [-json FILE] [-pgstats] [-cpuprofile FILE]
//	                    [-pool N] [-analyze=false] [-leakproof] [-max-stale 2s]
//	                    [-client-pause D] [-writer-pause D] [-sqlite]
//
// In one run it
//
//  1. starts a private PostgreSQL cluster (internal/pgtest; stopped at the
//     end, also on an error or an interrupt), makes a database owned by a
//     role that is not a superuser (row-level security binds it) and
//     connects as that role; generates the workspaces (bench/synth, one
//     seed each, as many days each as give at least -items items in all)
//     and builds their indexes into the one database, reporting the build
//     time per workspace and in all, the items (facts and passages, from
//     each workspace's Status) and the database's size; then times the
//     first sync after the builds, and runs ANALYZE (unless -analyze=false)
//     as autovacuum would in its time, so that the load meets the steady
//     state rather than tables without statistics;
//  2. loads it: 8 writers each append lines to the daily logs of a
//     workspace of its own and sync it, while 16 clients recall fixed
//     questions (lexical, with a fixed "now") in random workspaces, for
//     -duration, none of them pausing (with -client-pause, each client
//     waits a random time of that mean between its recalls, and with
//     -writer-pause each writer between its syncs: agents that think and
//     write between turns rather than back to back); then team-wide
//     recalls (package team, every workspace at once) with that load and
//     without it;
//  3. kills a process syncing a large change to one workspace (-change new
//     and changed daily logs) with SIGKILL at a random moment, -kills
//     times, and checks through a read-only index that the workspace is
//     then exactly as before the change or exactly as after it;
//  4. restarts the server (-restarts times: a fast restart, then a crash
//     and restart, alternately) while writers retain facts and clients
//     recall, and checks that every retain that returned success is in the
//     Markdown and in the index, that no recall returned a wrong answer as
//     a success, and that everything works again without reopening
//     anything.
//
// It prints a table of medians and p99s beside their targets, and writes
// the figures as JSON with -json. Generated workspaces are cached in -dir
// (by default memoria/bench-team in the user cache folder), keyed by the
// generator's output and the parameters, so a second run only copies them.
// With -pgstats the server loads pg_stat_statements and the run ends with
// the statements that took the most time during the load; -cpuprofile
// writes a CPU profile of this process during the load. -pool sets the
// size of the process's connection pool (by default memoria's: 4 per CPU,
// at least 8). The recalls of phases 1 and 2, of one workspace and
// team-wide, answer as a team server's do, from indexes at most -max-stale
// old (2s by default), kept so by a background sync of every workspace
// every -max-stale/2 (team.KeepFresh, running from the idle phase to the
// end of the load); -max-stale 0 has every recall check every file of its
// workspaces first, as phase 4's always do. -leakproof is an experiment: it marks
// the function of tsvector @@ tsquery LEAKPROOF in the bench's database,
// without which row-level security never lets a full-text condition use a
// GIN index (every search reads every item of its workspace).
//
// With -sqlite, phases 1 and 2 run on the embedded SQLite index instead,
// one in each workspace's folder (the default backend), with no database
// server: the same workspaces, questions and load, to tell what the
// machine allows from what the shared database costs. Phases 3 and 4 are
// the shared database's and are skipped, as are -pgstats, -leakproof and
// -pool.
//
// Everything is seeded (-seed) and recall runs at a fixed time, so that
// two runs ask the same questions of the same Markdown; timings vary with
// the machine, which is shared: the load average at the start is printed.
// Phase 3 runs this same binary again as the syncing child process.
//
//	go run ./bench/team -leakproof -quality /work/shared/data/longmemeval100 [-ideal]
//	go run ./bench/team -leakproof -quality bench/teamdev [-per-question]
//
// measures what team-wide recall answers instead of how fast: every
// workspace of a data set (those its queries.jsonl names, and every folder
// of its workspaces folder) is indexed into one database, each question is
// asked of all of them at once (team.RecallAll, lexical, top 10) and, if
// it names a workspace of its own (as longmemeval100's do), of that one
// alone, and each is scored against the gold lines (R@5, R@10, MRR). For
// a question with a workspace of its own, a result from another workspace
// is never a hit; a team question names none, and its gold names the
// workspace of each line ("ops:memory/2026-09-14.md#L7", as
// bench/teamset's). With -ideal it also says how many
// workspaces an exact bound on each workspace's best merge key would
// have had to ask (idealAsked): the least any early stop that keeps the
// answer could ask.
//
// An experiment that asked only the workspaces of the best matches of one
// search over all of them (team.RecallSelected, flag -select) was measured
// and removed; docs/team.md has its figures, and commit 8d88077 the code.
package main
