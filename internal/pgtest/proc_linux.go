package pgtest

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"syscall"
	"time"
)

// serverAccount picks who runs initdb and postgres, which refuse to run as
// root: as root, Debian's postgres user, else nobody; -1 for the current user.
func serverAccount() (uid, gid int, err error) {
	if os.Geteuid() != 0 {
		return -1, -1, nil
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		if u, err = user.Lookup("nobody"); err != nil {
			return 0, 0, fmt.Errorf("pgtest: running as root, and neither a postgres nor a nobody user to run the server: %w", err)
		}
	}
	if uid, err = strconv.Atoi(u.Uid); err == nil {
		gid, err = strconv.Atoi(u.Gid)
	}
	if err != nil {
		return 0, 0, fmt.Errorf("pgtest: user %s: %w", u.Username, err)
	}
	return uid, gid, nil
}

func runAs(cmd *exec.Cmd, uid, gid int) {
	cmd.SysProcAttr = &syscall.SysProcAttr{}
	if uid >= 0 {
		// No supplementary groups: the server needs none of root's.
		cmd.SysProcAttr.Credential = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
	}
}

// reachable lets uid/gid search every directory down to dir, which a test's
// temporary directory (mode 0700, owned by root) does not. Only directories
// below the temporary directory are opened up (o+x, search without listing);
// anything else is the caller's to fix.
func reachable(dir string, uid, gid int) error {
	tmp, err := filepath.EvalSymlinks(os.TempDir())
	if err != nil {
		return fmt.Errorf("pgtest: %w", err)
	}
	for p := dir; ; p = filepath.Dir(p) {
		fi, err := os.Stat(p)
		if err != nil {
			return fmt.Errorf("pgtest: %w", err)
		}
		st := fi.Sys().(*syscall.Stat_t)
		var search fs.FileMode = 0o001
		switch {
		case int(st.Uid) == uid:
			search = 0o100
		case int(st.Gid) == gid:
			search = 0o010
		}
		if fi.Mode().Perm()&search == 0 {
			if rel, err := filepath.Rel(tmp, p); err != nil || rel == "." || !filepath.IsLocal(rel) {
				return fmt.Errorf("pgtest: uid %d, which runs postgres, cannot enter %s; use a directory under %s", uid, p, tmp)
			}
			if err := os.Chmod(p, fi.Mode().Perm()|search); err != nil {
				return fmt.Errorf("pgtest: %w", err)
			}
		}
		if p == filepath.Dir(p) {
			return nil
		}
	}
}

// spawner forks the postmasters from one OS thread that never exits, since
// the kernel sends Pdeathsig when the forking thread ends, not the process
// (go.dev/issue/27505).
var spawner struct {
	once sync.Once
	work chan func()
}

// startServer starts the postmaster so that it shuts down at once (SIGQUIT)
// if this process dies without stopping it: a test binary that panics or
// times out then leaves no server running.
func startServer(cmd *exec.Cmd) error {
	spawner.once.Do(func() {
		spawner.work = make(chan func())
		go func() {
			runtime.LockOSThread() // and never unlocked
			for f := range spawner.work {
				f()
			}
		}()
	})
	cmd.SysProcAttr.Pdeathsig = syscall.SIGQUIT
	errc := make(chan error, 1)
	spawner.work <- func() { errc <- cmd.Start() }
	return <-errc
}

// killChildren SIGKILLs what is left of a server whose postmaster is dead,
// and waits until it is gone: its processes are the ones whose working
// directory is the data directory. A new postmaster refuses to start while
// any of them still holds the old shared memory.
func killChildren(data string) error {
	deadline := time.Now().Add(10 * time.Second)
	for {
		pids := serverPids(data)
		if len(pids) == 0 {
			return nil
		}
		for _, pid := range pids {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("pgtest: kill: processes %v outlived SIGKILL", pids)
		}
		time.Sleep(pollInterval)
	}
}

func serverPids(data string) []int {
	entries, _ := os.ReadDir("/proc")
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		// Zombies have no cwd, and hold no memory either.
		if cwd, err := os.Readlink("/proc/" + e.Name() + "/cwd"); err == nil && cwd == data {
			pids = append(pids, pid)
		}
	}
	return pids
}
