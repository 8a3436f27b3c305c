package flock

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
)

// TestMain lets the test binary hold a lock as another process:
// FLOCK_TEST_HOLD names the file; it says "held" and keeps the lock
// until its stdin closes.
func TestMain(m *testing.M) {
	if path := os.Getenv("FLOCK_TEST_HOLD"); path != "" {
		l, err := Shared(path, 0)
		if err != nil {
			fmt.Println(err)
			os.Exit(1)
		}
		fmt.Println("held")
		io.Copy(io.Discard, os.Stdin)
		l.Unlock()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestTimeoutNamesHolder: a lock not given up in time names the process
// that keeps it.
func TestTimeoutNamesHolder(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.lock")
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "FLOCK_TEST_HOLD="+path)
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
	defer cmd.Wait()
	defer stdin.Close()
	if line, _ := bufio.NewReader(stdout).ReadString('\n'); line != "held\n" {
		t.Fatalf("holder: %q", line)
	}
	_, err = Exclusive(path, 0)
	want := fmt.Sprintf(": pid %d (", cmd.Process.Pid)
	if !errors.Is(err, ErrTimeout) || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "\n") {
		t.Fatalf("got %v, want one line with %q", err, want)
	}
	// Another lock of this process on the file is not named.
	own, err := Shared(path, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer own.Unlock()
	if _, err := Exclusive(path, 0); strings.Contains(err.Error(), fmt.Sprintf("pid %d ", os.Getpid())) {
		t.Errorf("names this process: %v", err)
	}
}
