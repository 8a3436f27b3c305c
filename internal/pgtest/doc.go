// Package pgtest runs real, throw-away PostgreSQL servers for tests and
// benchmarks, so that the PostgreSQL back end is tested against the database
// it will meet in production rather than against a fake.
//
// A test binary that uses it calls Main from its TestMain:
//
//	func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }
//
// Tests then call NewDatabase for a fresh, empty database in the one server
// that the binary shares (started on first use, stopped when the binary
// ends). Tests that restart or crash a server (Restart, Kill) call StartOwn
// for a private one instead: doing that to the shared server would break
// every test running beside them.
//
// The binaries are found through MEMORIA_PG_BIN (a directory holding initdb
// and postgres), else pg_ctl or initdb on PATH, else the newest
// /usr/lib/postgresql/*/bin (Debian's layout; scripts/ci-postgres.sh
// installs it). When none is there, or a server cannot be started, the tests
// that need one are skipped with the reason, or fail when
// MEMORIA_REQUIRE_POSTGRES=1 (as in CI), so that a machine without
// PostgreSQL cannot pass silently where it matters.
//
// initdb and postgres refuse to run as root. As root (as in CI), the servers
// run as the "postgres" user (or "nobody"), which then owns their data and
// socket directories; this is supported on Linux only.
//
// The servers keep fsync and synchronous_commit on: the tests check
// durability, which the usual test-speed shortcuts would make meaningless.
package pgtest
