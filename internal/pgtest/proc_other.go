//go:build !linux

package pgtest

import (
	"errors"
	"os"
	"os/exec"
)

// serverAccount: switching to another user is only done on Linux, where CI
// runs as root; elsewhere the tests must run as an ordinary user.
func serverAccount() (uid, gid int, err error) {
	if os.Geteuid() == 0 {
		return 0, 0, errors.New("pgtest: postgres will not run as root; run the tests as another user")
	}
	return -1, -1, nil
}

func runAs(*exec.Cmd, int, int) {}

func reachable(string, int, int) error { return nil }

func startServer(cmd *exec.Cmd) error { return cmd.Start() }

// killChildren: without /proc the server's other processes cannot be found;
// they end by themselves on noticing that the postmaster has died.
func killChildren(string) error { return nil }
