package flock

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestQueueSkipsDeadWaiters: the ticket of a waiter that died (its file
// left, its flock dropped by the kernel) neither blocks the queue nor
// stays; one made a moment ago, not yet locked by its writer, is waited
// for.
func TestQueueSkipsDeadWaiters(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "write.lock")
	dead := path + ".q00000000000000000001-1-00000000"
	if err := os.WriteFile(dead, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Minute)
	if err := os.Chtimes(dead, old, old); err != nil {
		t.Fatal(err)
	}
	l, err := Queued(path, time.Second)
	if err != nil {
		t.Fatalf("behind a dead waiter: %v", err)
	}
	l.Unlock()
	if m, _ := filepath.Glob(path + ".q*"); len(m) > 0 {
		t.Errorf("tickets left: %v", m)
	}

	fresh := path + ".q00000000000000000002-1-00000000"
	if err := os.WriteFile(fresh, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	var te *TimeoutError
	if _, err := Queued(path, 0); !errors.As(err, &te) || te.Ahead != 1 {
		t.Fatalf("behind a ticket being made: got %v, want a timeout with 1 writer ahead", err)
	}
}

// TestQueueJumpsStoppedWaiter: a waiter ahead that holds its ticket but
// does not take the free lock (its process stopped with Ctrl-Z, or in a
// debugger) delays the others by about stalledWaiter, not for ever.
func TestQueueJumpsStoppedWaiter(t *testing.T) {
	path := filepath.Join(t.TempDir(), "write.lock")
	stopped := path + ".q00000000000000000001-1-00000000"
	f, err := os.Create(stopped)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := lockWait(f); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	l, err := Queued(path, 10*time.Second)
	if err != nil {
		t.Fatalf("behind a stopped waiter: %v", err)
	}
	l.Unlock()
	if took := time.Since(start); took < stalledWaiter {
		t.Errorf("took the lock after %s, before the waiter ahead could be taken for stopped", took)
	}
}
