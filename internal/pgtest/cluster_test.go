package pgtest_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"memoria/internal/pgtest"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

func connect(t *testing.T, url string) *pgx.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return conn
}

func exec(t *testing.T, conn *pgx.Conn, sql string, args ...any) {
	t.Helper()
	if _, err := conn.Exec(context.Background(), sql, args...); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
}

func count(t *testing.T, conn *pgx.Conn, sql string) int {
	t.Helper()
	var n int
	if err := conn.QueryRow(context.Background(), sql).Scan(&n); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
	return n
}

// Two databases of the shared cluster are separate, and each answers.
func TestNewDatabase(t *testing.T) {
	t.Parallel()
	a, b := pgtest.NewDatabase(t), pgtest.NewDatabase(t)
	if a == b {
		t.Fatalf("same URL twice: %s", a)
	}
	ca, cb := connect(t, a), connect(t, b)
	for _, conn := range []*pgx.Conn{ca, cb} {
		if n := count(t, conn, "select 1"); n != 1 {
			t.Fatalf("select 1 = %d", n)
		}
	}
	exec(t, ca, "create table only_in_a (x int)")
	if n := count(t, cb, "select count(*) from pg_tables where tablename = 'only_in_a'"); n != 0 {
		t.Fatal("a table of one database is seen in the other")
	}
	var super bool
	var user string
	if err := ca.QueryRow(context.Background(), "select current_user, usesuper from pg_user where usename = current_user").Scan(&user, &super); err != nil {
		t.Fatal(err)
	}
	if user != "postgres" || !super {
		t.Fatalf("connected as %q (superuser %v), want the superuser postgres", user, super)
	}
}

// The server keeps the settings that the durability tests rely on.
func TestSettings(t *testing.T) {
	t.Parallel()
	conn := connect(t, pgtest.NewDatabase(t))
	for name, want := range map[string]string{
		"fsync": "on", "synchronous_commit": "on", "max_connections": "200",
		"shared_buffers": "128MB", "server_encoding": "UTF8", "lc_collate": "C",
	} {
		var got string
		if err := conn.QueryRow(context.Background(), "select current_setting($1)", name).Scan(&got); err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("%s = %s, want %s", name, got, want)
		}
	}
}

// The Unix socket answers too.
func TestSocket(t *testing.T) {
	t.Parallel()
	c := pgtest.Shared(t)
	conn := connect(t, "host="+c.SocketDir()+" port="+strconv.Itoa(c.Port())+" user=postgres dbname=postgres")
	if n := count(t, conn, "select 1"); n != 1 {
		t.Fatalf("select 1 = %d", n)
	}
}

// A clean restart keeps the data and the port.
func TestRestart(t *testing.T) {
	t.Parallel()
	c := pgtest.StartOwn(t)
	ctx := context.Background()
	url, err := c.CreateDatabase(ctx, "restart")
	if err != nil {
		t.Fatal(err)
	}
	conn := connect(t, url)
	exec(t, conn, "create table t (x int)")
	exec(t, conn, "insert into t select generate_series(1, 1000)")
	port := c.Port()
	if err := c.Restart(); err != nil {
		t.Fatal(err)
	}
	if c.Port() != port {
		t.Fatalf("port %d after restart, was %d", c.Port(), port)
	}
	conn = connect(t, url)
	if n := count(t, conn, "select count(*) from t"); n != 1000 {
		t.Fatalf("%d rows after restart, want 1000", n)
	}
}

// After a crash, recovery brings back what was committed and nothing else.
func TestKill(t *testing.T) {
	t.Parallel()
	c := pgtest.StartOwn(t)
	ctx := context.Background()
	url, err := c.CreateDatabase(ctx, "crash")
	if err != nil {
		t.Fatal(err)
	}
	conn := connect(t, url)
	exec(t, conn, "create table t (x int)")
	exec(t, conn, "insert into t select generate_series(1, 500)")
	open := connect(t, url)
	exec(t, open, "begin")
	exec(t, open, "insert into t select generate_series(501, 1000)")

	if err := c.Kill(); err != nil {
		t.Fatal(err)
	}
	if err := c.Kill(); err == nil {
		t.Fatal("second Kill of a dead server succeeded")
	}
	if err := conn.Ping(ctx); err == nil {
		t.Fatal("the killed server still answers")
	}
	if err := c.Restart(); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(c.LogTail(), "not properly shut down") {
		t.Errorf("no crash recovery in the log:\n%s", c.LogTail())
	}
	conn = connect(t, url)
	if n := count(t, conn, "select count(*) from t"); n != 500 {
		t.Fatalf("%d rows after crash recovery, want the 500 committed", n)
	}
}

// A directory that Start creates is removed by Stop, the socket then lives
// under the temporary directory if dir is too long for it, and a Stopped
// cluster stays stopped.
func TestStartLongDir(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), strings.Repeat("long-", 20), "cluster")
	c, err := pgtest.Start(dir)
	if err != nil {
		if os.Getenv("MEMORIA_REQUIRE_POSTGRES") != "1" && strings.Contains(err.Error(), "no PostgreSQL binaries") {
			t.Skip(err)
		}
		t.Fatal(err)
	}
	if strings.HasPrefix(c.SocketDir(), c.Dir()) {
		t.Errorf("socket dir %s is inside the long dir %s", c.SocketDir(), c.Dir())
	}
	conn := connect(t, "host="+c.SocketDir()+" port="+strconv.Itoa(c.Port())+" user=postgres dbname=postgres")
	if n := count(t, conn, "select 1"); n != 1 {
		t.Fatalf("select 1 = %d", n)
	}
	if err := c.Stop(); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{c.Dir(), c.SocketDir()} {
		if _, err := os.Stat(d); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s left after Stop: %v", d, err)
		}
	}
	if err := c.Stop(); err != nil {
		t.Errorf("second Stop: %v", err)
	}
	if err := c.Restart(); err == nil {
		t.Error("Restart after Stop succeeded")
	}
}
