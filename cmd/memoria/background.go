package main

import (
	"os"
	"os/exec"
)

// startDetached starts `memoria ARGS…` as a process of its own that
// outlives this one, its output discarded: work that speeds up later
// commands but that nobody waits for, as `git gc --auto` does. It is
// env.background in the real binary and nil in tests.
func startDetached(args []string) error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	cmd := exec.Command(self, args...)
	cmd.SysProcAttr = detachedAttr()
	if err := cmd.Start(); err != nil {
		return err
	}
	return cmd.Process.Release()
}

// refreshPostingsLater starts writing the postings snapshot in the
// background when this process recalled without a current one, unless
// MEMORIA_NO_BACKGROUND is set.
func refreshPostingsLater(e *env, ws interface {
	PostingsBehind() bool
	Dir() string
	IndexPath() string
}) {
	if e.background == nil || e.getenv("MEMORIA_NO_BACKGROUND") != "" || !ws.PostingsBehind() {
		return
	}
	// Where the snapshot cannot be written (a read-only index folder),
	// starting a writer after every recall would only fail every time.
	lock, err := os.OpenFile(ws.IndexPath()+".lex.lock", os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return
	}
	lock.Close()
	// A failure to start only means the next recall is not faster.
	_ = e.background([]string{"index", "--postings-only", "--workspace", ws.Dir(), "--index", ws.IndexPath()})
}
