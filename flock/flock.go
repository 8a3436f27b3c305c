package flock

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"time"
)

// ErrTimeout is wrapped when a lock could not be taken in time.
var ErrTimeout = errors.New("lock is held by another process")

// Lock is a held lock; Unlock releases it.
type Lock struct{ f *os.File }

// Shared takes a shared (read) lock on path, creating the file if needed,
// waiting up to timeout.
func Shared(path string, timeout time.Duration) (*Lock, error) {
	return acquire(path, false, timeout)
}

// Exclusive takes an exclusive (write) lock on path, creating the file if
// needed, waiting up to timeout.
func Exclusive(path string, timeout time.Duration) (*Lock, error) {
	return acquire(path, true, timeout)
}

// ExclusiveDir takes an exclusive lock on the folder at path, waiting up
// to timeout. It creates no file: nothing is left behind when the lock
// is released, or when its process dies.
func ExclusiveDir(path string, timeout time.Duration) (*Lock, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	return wait(f, path, true, timeout)
}

func acquire(path string, exclusive bool, timeout time.Duration) (*Lock, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	return wait(f, path, exclusive, timeout)
}

// wait takes the lock on f, retrying until timeout.
func wait(f *os.File, path string, exclusive bool, timeout time.Duration) (*Lock, error) {
	deadline := time.Now().Add(timeout)
	wait := time.Millisecond
	for {
		ok, err := tryLock(f, exclusive)
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		if ok {
			return &Lock{f: f}, nil
		}
		if time.Now().After(deadline) {
			h := holders(f)
			f.Close()
			if len(h) > 0 {
				return nil, fmt.Errorf("lock %s: %w (waited %s): %s; retry once it has exited", path, ErrTimeout, timeout, strings.Join(h, ", "))
			}
			return nil, fmt.Errorf("lock %s: %w (waited %s); retry, or find the other memoria process", path, ErrTimeout, timeout)
		}
		// Back off while another process holds the lock; this is waiting
		// for a peer process, not synchronising goroutines.
		time.Sleep(wait)
		wait = min(wait*2, 50*time.Millisecond)
	}
}

// Unlock releases the lock. It is safe to call on a nil Lock.
func (l *Lock) Unlock() error {
	if l == nil || l.f == nil {
		return nil
	}
	err := unlock(l.f)
	cerr := l.f.Close()
	l.f = nil
	return errors.Join(err, cerr)
}
