package safewrite

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestMain lets the test binary be another writer process:
// SAFEWRITE_TEST_HOLD=ROOT takes the write lock as a library retain does,
// says "held" and keeps it until its stdin closes; SAFEWRITE_TEST_QUEUE=ROOT
// says "waiting", takes the lock and appends SAFEWRITE_TEST_NAME to the
// file SAFEWRITE_TEST_LOG under it.
func TestMain(m *testing.M) {
	if root := os.Getenv("SAFEWRITE_TEST_HOLD"); root != "" {
		k, err := Lock(root, Options{Holder: "memoria retain"})
		if err != nil {
			fmt.Println(err)
			os.Exit(1)
		}
		fmt.Println("held")
		io.Copy(io.Discard, os.Stdin)
		k.Unlock()
		os.Exit(0)
	}
	if root := os.Getenv("SAFEWRITE_TEST_QUEUE"); root != "" {
		fmt.Println("waiting")
		if err := lockAndLog(root, os.Getenv("SAFEWRITE_TEST_LOG"), os.Getenv("SAFEWRITE_TEST_NAME")); err != nil {
			fmt.Println(err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// lockAndLog takes the write lock of root and, under it, appends name to
// the file at log.
func lockAndLog(root, log, name string) error {
	k, err := Lock(root, Options{LockTimeout: time.Minute})
	if err != nil {
		return err
	}
	defer k.Unlock()
	f, err := os.OpenFile(log, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(f, name)
	return errors.Join(err, f.Close())
}

// helper starts the test binary as another process with env, and returns
// it with its first line of output.
func helper(t *testing.T, env ...string) (*exec.Cmd, io.WriteCloser, string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), env...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stdin.Close(); cmd.Wait() })
	line, _ := bufio.NewReader(stdout).ReadString('\n')
	return cmd, stdin, strings.TrimSpace(line)
}

// tickets are the waiters queued for root's write lock.
func tickets(root string) []string {
	m, _ := filepath.Glob(filepath.Join(root, filepath.FromSlash(LockFile)) + ".q*")
	return m
}

// TestLockServesWritersInArrivalOrder: writers waiting for the workspace
// lock get it in the order they came, across processes; one that releases
// it and asks again at once waits behind them (a server retaining in a
// loop used to take it back every time, and a CLI command timed out). No
// queue file is left after.
func TestLockServesWritersInArrivalOrder(t *testing.T) {
	root := newWorkspace(t)
	log := filepath.Join(t.TempDir(), "order")
	first, err := Lock(root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var waiters []*exec.Cmd
	for i, name := range []string{"B", "C", "D"} {
		cmd, _, line := helper(t, "SAFEWRITE_TEST_QUEUE="+root, "SAFEWRITE_TEST_LOG="+log, "SAFEWRITE_TEST_NAME="+name)
		if line != "waiting" {
			t.Fatalf("writer %s: %q", name, line)
		}
		waiters = append(waiters, cmd)
		// It has arrived once its ticket is there. Bounded: without a
		// queue there is no ticket, and the order below tells.
		for deadline := time.Now().Add(3 * time.Second); len(tickets(root)) <= i && time.Now().Before(deadline); {
			time.Sleep(time.Millisecond)
		}
	}
	first.Unlock()
	if err := lockAndLog(root, log, "A"); err != nil {
		t.Fatal(err)
	}
	for _, cmd := range waiters {
		if err := cmd.Wait(); err != nil {
			t.Fatal(err)
		}
	}
	if got := readRaw(t, log); got != "B\nC\nD\nA\n" {
		t.Errorf("served in the order %q, want B, C, D (their order of arrival), then A, which asked again", strings.Fields(got))
	}
	if left := tickets(root); len(left) > 0 {
		t.Errorf("queue files left: %v", left)
	}
}

// TestLockTimeoutNamesRealHolder: a writer that times out names the
// process that holds the lock, by its own command line, with the write it
// does; not the name of the library call (a server retaining for a client
// was named "memoria retain").
func TestLockTimeoutNamesRealHolder(t *testing.T) {
	root := newWorkspace(t)
	cmd, _, line := helper(t, "SAFEWRITE_TEST_HOLD="+root)
	if line != "held" {
		t.Fatalf("holder: %q", line)
	}
	_, err := Lock(root, Options{LockTimeout: -1})
	if !errors.Is(err, ErrLocked) {
		t.Fatalf("err = %v, want ErrLocked", err)
	}
	// The helper's command line, as /proc shows it: the test binary.
	want := fmt.Sprintf("being written by pid %d (%s -test.run=^$; retain, since ", cmd.Process.Pid, filepath.Base(os.Args[0]))
	if msg := err.Error(); !strings.Contains(msg, want) || strings.Contains(msg, "\n") {
		t.Errorf("got %q,\nwant one line with %q", msg, want)
	}
	// A lock file that names another process than the kernel's holder
	// (a line left by an earlier writer) is not believed.
	lockPath := filepath.Join(root, filepath.FromSlash(LockFile))
	if err := os.WriteFile(lockPath, []byte("pid 1 (memoria retain; retain, since 2025-01-01T00:00:00Z)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = Lock(root, Options{LockTimeout: -1})
	want = fmt.Sprintf("being written by pid %d (%s -test.run=^$): ", cmd.Process.Pid, filepath.Base(os.Args[0]))
	if msg := fmt.Sprint(err); !strings.Contains(msg, want) || strings.Contains(msg, "pid 1 ") {
		t.Errorf("got %q,\nwant %q and not the lock file's stale line", msg, want)
	}
}
