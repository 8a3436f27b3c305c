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

// TimeoutError is the error of a lock not taken in time; it wraps
// ErrTimeout and says who holds the lock.
type TimeoutError struct {
	Path   string
	Waited time.Duration
	// Holders are the other processes holding a lock on the file, from
	// the kernel's own table (/proc/locks), so they are the real holders
	// whatever a lock file says; empty where that is not known (not
	// Linux, or the holder is this process).
	Holders []Holder
	// Ahead is how many writers were queued ahead of this one (Queued).
	Ahead int
}

// Holder is a process holding a lock.
type Holder struct {
	PID     int
	Command string // its command line, shortened, or "?"
}

func (h Holder) String() string { return fmt.Sprintf("pid %d (%s)", h.PID, h.Command) }

func (e *TimeoutError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "lock %s: %v (waited %s", e.Path, ErrTimeout, e.Waited)
	if e.Ahead > 0 {
		fmt.Fprintf(&b, ", %d writers queued ahead", e.Ahead)
	}
	b.WriteString(")")
	if len(e.Holders) == 0 {
		b.WriteString("; retry, or find the other memoria process")
		return b.String()
	}
	for i, h := range e.Holders {
		b.WriteString(map[bool]string{true: ": ", false: ", "}[i == 0])
		b.WriteString(h.String())
	}
	b.WriteString("; retry once it is done")
	return b.String()
}

func (e *TimeoutError) Unwrap() error { return ErrTimeout }

// Lock is a held lock; Unlock releases it.
type Lock struct{ f *os.File }

// Shared takes a shared (read) lock on path, creating the file if needed,
// waiting up to timeout.
func Shared(path string, timeout time.Duration) (*Lock, error) {
	return acquire(path, false, timeout)
}

// Exclusive takes an exclusive (write) lock on path, creating the file if
// needed, waiting up to timeout. Waiters are not served in any order: one
// that asks again at once after releasing usually wins; Queued is fair.
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
			err := &TimeoutError{Path: path, Waited: timeout, Holders: holders(f)}
			f.Close()
			return nil, err
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

// Command is this process's command line as a Holder's Command reads
// ("memoria serve --http 127.0.0.1:7377"), for a lock file to record.
func Command() string { return shorten(os.Args) }

// shorten is a command line for a message: the program's base name and
// its arguments, at most 60 bytes.
func shorten(args []string) string {
	var fields []string
	for _, a := range args {
		fields = append(fields, strings.Fields(a)...)
	}
	if len(fields) > 0 {
		fields[0] = fields[0][strings.LastIndexAny(fields[0], `/\`)+1:]
	}
	s := strings.Join(fields, " ")
	if len(s) > 60 {
		s = s[:57] + "..."
	}
	if s == "" {
		return "?"
	}
	return s
}
