package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

const (
	// readyTimeout bounds a start, crash recovery included.
	readyTimeout = 60 * time.Second
	// stopTimeout bounds a fast shutdown before the server is killed.
	stopTimeout = 60 * time.Second
	// pollInterval is how often readiness is probed; the only wait by time.
	pollInterval = 20 * time.Millisecond
	// maxSocketPath keeps the socket's path under the kernel's limit of 108
	// bytes (sun_path) with room to spare.
	maxSocketPath = 100
)

// Cluster is one PostgreSQL server with its own data directory. Its methods
// are safe for concurrent use, but Restart and Kill disturb every client.
type Cluster struct {
	bin     string // holds initdb and postgres
	dir     string // data/, postgres.log and (usually) sock/
	data    string
	sock    string // the Unix socket's directory
	logPath string
	port    int
	// uid and gid own the server's files and run it; -1 is the current user.
	uid, gid int
	// ownDir and ownSock: the harness made these, so Stop removes them.
	ownDir, ownSock bool

	mu      sync.Mutex
	proc    *os.Process   // the postmaster; nil when not running
	done    chan struct{} // closed once proc has exited and been reaped
	stopped bool
}

// Start makes a cluster in dir (a new temporary directory when dir is ""),
// running initdb unless dir/data already holds one, and starts it on a free
// port of 127.0.0.1 and on a Unix socket. Stop removes dir only if Start
// created it.
func Start(dir string) (*Cluster, error) {
	bin, err := findBin()
	if err != nil {
		return nil, err
	}
	uid, gid, err := serverAccount()
	if err != nil {
		return nil, err
	}
	c := &Cluster{bin: bin, uid: uid, gid: gid}
	if err := c.layout(dir); err != nil {
		c.removeDirs()
		return nil, err
	}
	if err := c.initdb(); err != nil {
		c.removeDirs()
		return nil, err
	}
	// The free port is only free until someone else takes it; a server that
	// lost that race exits at once and is retried on another port.
	for attempt := 1; ; attempt++ {
		if c.port, err = freePort(); err == nil {
			err = c.start()
		}
		if err == nil {
			return c, nil
		}
		if attempt == 3 || !strings.Contains(err.Error(), "could not create any TCP/IP sockets") {
			c.removeDirs()
			return nil, err
		}
	}
}

// layout makes the directories and gives them to the server's user.
func (c *Cluster) layout(dir string) error {
	var err error
	switch _, statErr := os.Stat(dir); {
	case dir == "":
		dir, err = os.MkdirTemp("", "pgtest-")
		c.ownDir = true
	case errors.Is(statErr, fs.ErrNotExist):
		err = os.MkdirAll(dir, 0o755)
		c.ownDir = true
	default:
		err = statErr
	}
	if err != nil {
		return fmt.Errorf("pgtest: %w", err)
	}
	c.dir = dir
	// Canonical, because Kill finds the server's processes by their working
	// directory, and absolute, because the server runs elsewhere.
	if dir, err = filepath.Abs(dir); err == nil {
		dir, err = filepath.EvalSymlinks(dir)
	}
	if err != nil {
		return fmt.Errorf("pgtest: %w", err)
	}
	c.dir = dir
	c.data = filepath.Join(dir, "data")
	c.logPath = filepath.Join(dir, "postgres.log")
	c.sock = filepath.Join(dir, "sock")
	if len(c.sock)+len("/.s.PGSQL.65535") < maxSocketPath {
		err = os.Mkdir(c.sock, 0o700)
		if errors.Is(err, fs.ErrExist) {
			err = nil
		}
	} else {
		c.sock, err = os.MkdirTemp("", "pg")
		c.ownSock = true
	}
	if err != nil {
		return fmt.Errorf("pgtest: socket directory: %w", err)
	}
	if c.uid < 0 {
		return nil
	}
	if err := reachable(c.dir, c.uid, c.gid); err != nil {
		return err
	}
	if err := os.Chown(c.sock, c.uid, c.gid); err != nil {
		return fmt.Errorf("pgtest: %w", err)
	}
	return nil
}

// initdb makes the cluster unless dir/data has one already, with the
// superuser named postgres whoever runs it (initdb would name it after the
// OS user) and trust authentication, since only this machine can connect.
func (c *Cluster) initdb() error {
	if _, err := os.Stat(filepath.Join(c.data, "PG_VERSION")); err == nil {
		return nil
	}
	if err := os.Mkdir(c.data, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("pgtest: %w", err)
	}
	if c.uid >= 0 {
		if err := os.Chown(c.data, c.uid, c.gid); err != nil {
			return fmt.Errorf("pgtest: %w", err)
		}
	}
	cmd, log, err := c.command("initdb", "-D", c.data, "-U", "postgres",
		"--auth=trust", "--encoding=UTF8", "--locale=C",
		"--no-sync") // a crash during initdb just fails the test run
	if err != nil {
		return err
	}
	defer log.Close()
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("pgtest: initdb: %w\n%s", err, c.LogTail())
	}
	return nil
}

// command prepares one of the binaries, writing to the log and running as
// the server's user. The caller closes the log once the command has started.
func (c *Cluster) command(name string, args ...string) (*exec.Cmd, *os.File, error) {
	log, err := os.OpenFile(c.logPath, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return nil, nil, fmt.Errorf("pgtest: %w", err)
	}
	cmd := exec.Command(filepath.Join(c.bin, name), args...)
	cmd.Dir = c.dir
	cmd.Stdout, cmd.Stderr = log, log
	// The caller's PGDATA, PGPORT and the like must not steer the server.
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PG") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	runAs(cmd, c.uid, c.gid)
	return cmd, log, nil
}

// start runs the postmaster directly rather than through pg_ctl, so that
// this process is its parent: it learns at once if the server dies, can
// reap it and can kill it by pid.
func (c *Cluster) start() error {
	cmd, log, err := c.command("postgres", "-D", c.data,
		"-p", strconv.Itoa(c.port), "-k", c.sock,
		"-c", "listen_addresses=127.0.0.1",
		"-c", "fsync=on", "-c", "synchronous_commit=on", // durability is tested
		"-c", "max_connections=200", "-c", "shared_buffers=128MB")
	if err != nil {
		return err
	}
	err = startServer(cmd)
	log.Close()
	if err != nil {
		return fmt.Errorf("pgtest: postgres: %w", err)
	}
	done := make(chan struct{})
	go func() {
		_ = cmd.Wait() // the exit status says nothing the log does not
		close(done)
	}()
	c.proc, c.done = cmd.Process, done
	return c.waitReady()
}

// waitReady polls until the server accepts a real connection, it exits, or
// readyTimeout passes. It connects only once postmaster.pid says "ready" (as
// pg_ctl start -w waits for): each early attempt would log a FATAL "not yet
// accepting connections", and crash recovery's lines would scroll out of
// LogTail.
func (c *Cluster) waitReady() error {
	ctx, cancel := context.WithTimeout(context.Background(), readyTimeout)
	defer cancel()
	tick := time.NewTicker(pollInterval)
	defer tick.Stop()
	for {
		err := errors.New("postmaster.pid does not say ready")
		if c.saysReady() {
			if err = ping(ctx, c.URL("postgres")); err == nil {
				return nil
			}
		}
		select {
		case <-c.done:
			c.proc = nil
			return fmt.Errorf("pgtest: postgres exited while starting (%v); log tail:\n%s", err, c.LogTail())
		case <-ctx.Done():
			_ = c.proc.Kill()
			<-c.done
			c.proc = nil
			return fmt.Errorf("pgtest: postgres not ready after %v (%v); log tail:\n%s", readyTimeout, err, c.LogTail())
		case <-tick.C:
		}
	}
}

// saysReady reads the status line of postmaster.pid, checking the pid too:
// a crashed server's file still says ready until the new one rewrites it.
func (c *Cluster) saysReady() bool {
	b, err := os.ReadFile(filepath.Join(c.data, "postmaster.pid"))
	lines := strings.Split(string(b), "\n")
	return err == nil && len(lines) > 7 && lines[0] == strconv.Itoa(c.proc.Pid) &&
		strings.TrimSpace(lines[7]) == "ready"
}

func ping(ctx context.Context, url string) error {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	return conn.Ping(ctx)
}

// Stop shuts the server down in fast mode (what pg_ctl stop -m fast does:
// SIGINT, clients are disconnected, a shutdown checkpoint is written) and
// removes the directories that Start created. A second Stop does nothing.
func (c *Cluster) Stop() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.stopped {
		return nil
	}
	c.stopped = true
	err := c.shutdown()
	c.removeDirs()
	return err
}

func (c *Cluster) shutdown() error {
	if c.proc == nil {
		return nil
	}
	defer func() { c.proc = nil }()
	if err := c.proc.Signal(os.Interrupt); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return fmt.Errorf("pgtest: stop: %w", err)
	}
	select {
	case <-c.done:
		return nil
	case <-time.After(stopTimeout):
		_ = c.proc.Kill()
		<-c.done
		return fmt.Errorf("pgtest: fast shutdown took over %v, killed; log tail:\n%s", stopTimeout, c.LogTail())
	}
}

func (c *Cluster) removeDirs() {
	if c.ownSock {
		_ = os.RemoveAll(c.sock)
	}
	if c.ownDir {
		_ = os.RemoveAll(c.dir)
	}
}

// Restart stops the server in fast mode, if it runs, and starts it again on
// the same port; after Kill it is the start that runs crash recovery.
func (c *Cluster) Restart() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.stopped {
		return errors.New("pgtest: restart of a stopped cluster")
	}
	if err := c.shutdown(); err != nil {
		return err
	}
	return c.start()
}

// Kill crashes the server: SIGKILL to the postmaster and to every process
// it had started, as a power cut would leave it (short of losing the OS's
// page cache). It returns once they are all gone, so that Restart can start
// again at once.
func (c *Cluster) Kill() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.proc == nil {
		return errors.New("pgtest: kill: the server is not running")
	}
	if err := c.proc.Kill(); err != nil && !errors.Is(err, os.ErrProcessDone) {
		return fmt.Errorf("pgtest: kill: %w", err)
	}
	<-c.done
	c.proc = nil
	return killChildren(c.data)
}

// Port is the server's TCP port on 127.0.0.1.
func (c *Cluster) Port() int { return c.port }

// Dir is the cluster's directory: data/, postgres.log and usually sock/.
func (c *Cluster) Dir() string { return c.dir }

// SocketDir is the directory of the server's Unix socket (a libpq "host").
func (c *Cluster) SocketDir() string { return c.sock }

// URL is a connection URL for the superuser postgres to database over TCP.
func (c *Cluster) URL(database string) string {
	u := url.URL{
		Scheme:   "postgres",
		User:     url.User("postgres"),
		Host:     net.JoinHostPort("127.0.0.1", strconv.Itoa(c.port)),
		Path:     "/" + database,
		RawQuery: "sslmode=disable",
	}
	return u.String()
}

// LogTail is the end of the server's log (initdb's output included), for
// error messages.
func (c *Cluster) LogTail() string {
	const max = 4096
	f, err := os.Open(c.logPath)
	if err != nil {
		return "(no log: " + err.Error() + ")"
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.Size() > max {
		_, _ = f.Seek(fi.Size()-max, io.SeekStart)
	}
	b, _ := io.ReadAll(f)
	s := string(b)
	if len(b) == max { // drop the partial first line
		if i := strings.IndexByte(s, '\n'); i >= 0 {
			s = s[i+1:]
		}
	}
	return s
}

// CreateDatabase creates database name and returns its URL.
func (c *Cluster) CreateDatabase(ctx context.Context, name string) (string, error) {
	if err := c.exec(ctx, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize()); err != nil {
		return "", fmt.Errorf("pgtest: create database %s: %w", name, err)
	}
	return c.URL(name), nil
}

// exec runs one statement in the postgres database.
func (c *Cluster) exec(ctx context.Context, sql string) error {
	conn, err := pgx.Connect(ctx, c.URL("postgres"))
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	_, err = conn.Exec(ctx, sql)
	return err
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("pgtest: free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// findBin finds the directory that holds initdb and postgres.
func findBin() (string, error) {
	if dir := os.Getenv("MEMORIA_PG_BIN"); dir != "" {
		if hasServer(dir) {
			return dir, nil
		}
		return "", fmt.Errorf("pgtest: MEMORIA_PG_BIN=%s holds no initdb and postgres", dir)
	}
	// PATH often has symlinks (Debian's /usr/local/bin/pg_ctl, Homebrew's)
	// whose targets sit beside postgres; wrappers such as Debian's pg_wrapper
	// do not, and are passed over.
	for _, name := range []string{"pg_ctl", "initdb"} {
		if p, err := exec.LookPath(name); err == nil {
			if p, err = filepath.EvalSymlinks(p); err == nil && hasServer(filepath.Dir(p)) {
				return filepath.Dir(p), nil
			}
		}
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	best, bestVersion := "", -1
	for _, dir := range dirs {
		v, err := strconv.Atoi(filepath.Base(filepath.Dir(dir)))
		if err == nil && v > bestVersion && hasServer(dir) {
			best, bestVersion = dir, v
		}
	}
	if best == "" {
		return "", errors.New("pgtest: no PostgreSQL binaries (set MEMORIA_PG_BIN, put pg_ctl on PATH, or run scripts/ci-postgres.sh)")
	}
	return best, nil
}

func hasServer(dir string) bool {
	for _, name := range []string{"initdb", "postgres"} {
		fi, err := os.Stat(filepath.Join(dir, name))
		if err != nil || fi.IsDir() || fi.Mode()&0o111 == 0 {
			return false
		}
	}
	return true
}

// shared is the test binary's one cluster, started by the first test that
// asks for it, so that binaries whose selected tests need none do not pay
// for an initdb.
var shared struct {
	mu      sync.Mutex
	main    bool // Main is running
	started bool
	c       *Cluster
	err     error
}

// Main runs the tests of a binary that uses NewDatabase or Shared, then
// stops the shared cluster if one was started. Call it from TestMain:
//
//	func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }
func Main(m *testing.M) int {
	shared.mu.Lock()
	shared.main = true
	shared.mu.Unlock()
	code := m.Run()
	shared.mu.Lock()
	defer shared.mu.Unlock()
	shared.main = false
	if shared.c != nil {
		if err := shared.c.Stop(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			if code == 0 {
				code = 1
			}
		}
	}
	return code
}

// Shared returns the binary's shared cluster, starting it on first use, or
// skips t (fails it if MEMORIA_REQUIRE_POSTGRES=1) when there can be none.
// Do not Restart, Kill or Stop it: other tests use it at the same time; use
// StartOwn for that.
func Shared(t testing.TB) *Cluster {
	t.Helper()
	shared.mu.Lock()
	defer shared.mu.Unlock()
	if !shared.main {
		unavailable(t, errors.New("pgtest: the test binary's TestMain must call pgtest.Main"))
	}
	if !shared.started {
		shared.started = true
		shared.c, shared.err = Start("")
	}
	if shared.err != nil {
		unavailable(t, shared.err)
	}
	return shared.c
}

// NewDatabase creates an empty database, named after the test, in the
// shared cluster and returns its URL; it is dropped when the test ends.
// Without a cluster, t is skipped or failed as by Shared.
func NewDatabase(t testing.TB) string {
	t.Helper()
	c := Shared(t)
	name := dbName(t.Name())
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	url, err := c.CreateDatabase(ctx, name)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		// FORCE ends connections that the test left open; an error only
		// leaves a database behind in a cluster that is thrown away anyway.
		_ = c.exec(ctx, "DROP DATABASE IF EXISTS "+pgx.Identifier{name}.Sanitize()+" WITH (FORCE)")
	})
	return url
}

// dbName is unique (random suffix) and recognisable (the test's name), and
// stays under PostgreSQL's 63-byte identifier limit.
func dbName(test string) string {
	var b strings.Builder
	b.WriteString("t_")
	for _, r := range strings.ToLower(test) {
		if b.Len() >= 42 {
			break
		}
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	suffix := make([]byte, 4)
	_, _ = rand.Read(suffix) // never fails (crypto/rand)
	return b.String() + "_" + hex.EncodeToString(suffix)
}

// StartOwn starts a private cluster in t.TempDir(), stopped when the test
// ends: for tests that Restart or Kill it. Without one, t is skipped or
// failed as by Shared.
func StartOwn(t testing.TB) *Cluster {
	t.Helper()
	c, err := Start(t.TempDir())
	if err != nil {
		unavailable(t, err)
	}
	t.Cleanup(func() {
		if err := c.Stop(); err != nil {
			t.Error(err)
		}
	})
	return c
}

func unavailable(t testing.TB, err error) {
	t.Helper()
	if os.Getenv("MEMORIA_REQUIRE_POSTGRES") == "1" {
		t.Fatalf("PostgreSQL is required (MEMORIA_REQUIRE_POSTGRES=1): %v", err)
	}
	t.Skipf("no PostgreSQL (MEMORIA_REQUIRE_POSTGRES=1 makes this fail): %v", err)
}

// NewAppDatabase is NewDatabase owned by a role that is not a superuser,
// and returns that role's URL to it: what an application should connect
// as, since a superuser is not bound by row-level security. It is set up
// as docs/team.md tells an administrator to, the full-text match function
// marked LEAKPROOF included.
func NewAppDatabase(t testing.TB) string {
	t.Helper()
	return newAppDatabase(t, true, false)
}

// NewBareAppDatabase is NewAppDatabase without the LEAKPROOF mark: what
// an administrator who skipped that step gives Memoria.
func NewBareAppDatabase(t testing.TB) string {
	t.Helper()
	return newAppDatabase(t, false, false)
}

// NewVectorAppDatabase is NewAppDatabase with pgvector created in it, as
// docs/team.md tells an administrator to. Where the server has no
// pgvector, t is skipped, or failed if MEMORIA_REQUIRE_PGVECTOR=1 (CI
// sets it where it installed pgvector).
func NewVectorAppDatabase(t testing.TB) string {
	t.Helper()
	return newAppDatabase(t, true, true)
}

func newAppDatabase(t testing.TB, leakproof, pgvector bool) string {
	t.Helper()
	super := NewDatabase(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	conn, err := pgx.Connect(ctx, super)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	u, err := url.Parse(super)
	if err != nil {
		t.Fatal(err)
	}
	dbname := strings.TrimPrefix(u.Path, "/")
	role := "app_" + dbname
	id := pgx.Identifier{role}.Sanitize()
	stmts := []string{
		`CREATE ROLE ` + id + ` LOGIN`,
		`ALTER DATABASE ` + pgx.Identifier{dbname}.Sanitize() + ` OWNER TO ` + id,
		`ALTER SCHEMA public OWNER TO ` + id, // since PostgreSQL 15 only its owner may create in it
	}
	if leakproof {
		stmts = append(stmts, `ALTER FUNCTION pg_catalog.ts_match_vq(tsvector, tsquery) LEAKPROOF`)
	}
	if pgvector {
		var available bool
		if err := conn.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector')`).Scan(&available); err != nil {
			t.Fatal(err)
		}
		if !available {
			if os.Getenv("MEMORIA_REQUIRE_PGVECTOR") == "1" {
				t.Fatal("pgvector is required (MEMORIA_REQUIRE_PGVECTOR=1) and the server does not have it")
			}
			t.Skip("the server has no pgvector (scripts/ci-postgres.sh installs it): the exact vector scan is what the other tests cover")
		}
		stmts = append(stmts, `CREATE EXTENSION vector`)
	}
	for _, q := range stmts {
		if _, err := conn.Exec(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	c := Shared(t)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		_ = c.exec(ctx, "DROP DATABASE IF EXISTS "+pgx.Identifier{dbname}.Sanitize()+" WITH (FORCE)")
		_ = c.exec(ctx, "DROP ROLE IF EXISTS "+id)
	})
	u.User = url.User(role)
	return u.String()
}
