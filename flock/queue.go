package flock

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Queued takes an exclusive lock on path like Exclusive, but serves the
// writers that wait for it in order of arrival, across processes and
// goroutines alike: one that releases the lock and asks again at once
// waits behind those already waiting.
//
// flock alone cannot do that: waiters poll (a blocking flock could not be
// given up at a timeout), and one that asks again right after releasing
// finds the lock free before any poller wakes, so a server retaining in a
// loop starved one-shot commands for the whole of their 10 s wait. A
// turnstile (a second lock taken before this one) keeps the releaser
// from taking the lock back at once, but among several waiters for the
// turnstile the order is still the scheduler's. So each waiter takes a
// ticket instead: a file beside the lock, PATH.q<SEQ>-<PID>-<RAND>, that
// it creates and holds a flock on while it waits. A ticket whose file is
// not locked, once older than newTicket, belongs to a process that died
// (the kernel drops the locks of a dead process), and whoever sees it
// removes it; so a crash leaves no waiter blocked and at most a ticket
// that the next waiter removes. A
// waiter tries the lock itself only when no live ticket is ahead of its
// own, and removes its ticket once it holds the lock (or gives up): after
// a normal run no ticket is left. A live waiter first in line that leaves
// the lock free for stalledWaiter (its process stopped with Ctrl-Z) is
// jumped, so that it delays the others rather than blocking them.
//
// The tickets only order the waiters: the lock on path still excludes, so
// a writer that does not queue (an older binary using Exclusive) is still
// kept out, only not in turn.
func Queued(path string, timeout time.Duration) (*Lock, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	// The common case, no writer waiting: no ticket. (A writer that
	// queued since the look is served after this one, as if it had come
	// later.)
	if idle, err := queueEmpty(path); err == nil && idle {
		if ok, err := tryLock(f, true); err != nil || ok {
			return lockOrClose(f, path, err)
		}
	}
	t, err := takeTicket(path)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("lock %s: queueing: %w", path, err)
	}
	defer t.drop()
	deadline := time.Now().Add(timeout)
	pause := 100 * time.Microsecond
	var head string     // the first live ticket ahead
	var since time.Time // since when it has been first, with the lock free
	for {
		ahead, first, err := t.ahead()
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("lock %s: queueing: %w", path, err)
		}
		if first != head {
			head, since = first, time.Now()
		}
		// A waiter first in line that does not take the lock for
		// stalledWaiter, when the lock was free, is stopped (Ctrl-Z,
		// a debugger): it is jumped rather than waited for.
		if ahead == 0 || time.Since(since) > stalledWaiter {
			ok, err := tryLock(f, true)
			if err != nil || ok {
				return lockOrClose(f, path, err)
			}
			// Held: the waiters ahead wait for it too.
			since = time.Now()
		}
		if time.Now().After(deadline) {
			err := &TimeoutError{Path: path, Waited: timeout, Holders: holders(f), Ahead: ahead}
			f.Close()
			return nil, err
		}
		// Polling a peer process's lock, not synchronising goroutines.
		// The first in line polls often, since it alone takes the lock
		// next; the others wait for it and can poll less.
		time.Sleep(pause)
		limit := 2 * time.Millisecond
		if ahead > 0 {
			limit = 20 * time.Millisecond
		}
		pause = min(pause*2, limit)
	}
}

// queueEmpty reports whether no ticket waits in path's queue.
func queueEmpty(path string) (bool, error) {
	dir, base := filepath.Split(path)
	names, err := (&ticket{dir: filepath.Clean(dir), prefix: base + ".q"}).list()
	return len(names) == 0, err
}

func lockOrClose(f *os.File, path string, err error) (*Lock, error) {
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	return &Lock{f: f}, nil
}

// ticket is a waiter's place in the queue of a lock: a file it holds a
// flock on.
type ticket struct {
	dir, prefix string // the lock's folder, and "LOCKNAME.q"
	name        string
	seq         uint64
	f           *os.File
}

// takeTicket queues at the end of path's queue. Its number is past every
// ticket there, so that it is served after them.
func takeTicket(path string) (*ticket, error) {
	dir, base := filepath.Split(path)
	t := &ticket{dir: filepath.Clean(dir), prefix: base + ".q"}
	for range 100 {
		names, err := t.list()
		if err != nil {
			return nil, err
		}
		seq := uint64(time.Now().UnixNano())
		for _, n := range names {
			if s, ok := t.parse(n); ok && s >= seq {
				seq = s + 1
			}
		}
		t.seq = seq
		t.name = fmt.Sprintf("%s%020d-%d-%08x", t.prefix, seq, os.Getpid(), rand.Uint32())
		p := filepath.Join(t.dir, t.name)
		f, err := os.OpenFile(p, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		// Blocking: another waiter may hold it a moment to see whether it
		// is live.
		if err := lockWait(f); err != nil {
			f.Close()
			os.Remove(p)
			return nil, err
		}
		// Descheduled for over newTicket before it was locked, it may have
		// been taken for a dead one's and removed: then queue again.
		if same(f, p) {
			t.f = f
			return t, nil
		}
		f.Close()
	}
	return nil, errors.New("no ticket could be made")
}

// same reports whether the file at p is f's file.
func same(f *os.File, p string) bool {
	a, err := f.Stat()
	if err != nil {
		return false
	}
	b, err := os.Stat(p)
	return err == nil && os.SameFile(a, b)
}

func (t *ticket) list() ([]string, error) {
	entries, err := os.ReadDir(t.dir)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), t.prefix) {
			names = append(names, e.Name())
		}
	}
	return names, nil
}

// parse reads a ticket's number from its name.
func (t *ticket) parse(name string) (uint64, bool) {
	digits, _, ok := strings.Cut(strings.TrimPrefix(name, t.prefix), "-")
	if !ok {
		return 0, false
	}
	seq, err := strconv.ParseUint(digits, 10, 64)
	return seq, err == nil
}

// ahead counts the live tickets ahead of t, removing dead ones, and names
// the first of them.
func (t *ticket) ahead() (n int, first string, err error) {
	names, err := t.list()
	if err != nil {
		return 0, "", err
	}
	var firstSeq uint64
	for _, name := range names {
		seq, ok := t.parse(name)
		if !ok || name == t.name || seq > t.seq || (seq == t.seq && name > t.name) {
			continue
		}
		if live(filepath.Join(t.dir, name)) {
			n++
			if first == "" || seq < firstSeq || (seq == firstSeq && name < first) {
				first, firstSeq = name, seq
			}
		}
	}
	return n, first, nil
}

// stalledWaiter is how long the first waiter in line may leave the lock
// free before the others take it: it polls every 2 ms, so half a second
// means it is stopped, or starved of the CPU; jumping it then costs only
// its turn.
const stalledWaiter = 500 * time.Millisecond

// newTicket is how long a ticket may stay unlocked after it was made: its
// writer creates it, then locks it, and on a loaded machine may be
// descheduled in between (4 ms was seen with 5 processes on 2 cores). A
// ticket found unlocked within that time is counted as waiting, not
// removed as a dead process's, or its writer would lose its place.
const newTicket = time.Second

// live reports whether the ticket at p is held, or was made a moment ago;
// one that is neither is a dead process's, and is removed.
func live(p string) bool {
	f, err := os.Open(p)
	if err != nil {
		return false // gone: its writer has the lock, or gave up
	}
	defer f.Close()
	ok, err := tryLock(f, false)
	if err != nil {
		return true // cannot tell: wait for it rather than jump it
	}
	if !ok {
		return true
	}
	defer unlock(f)
	if fi, err := f.Stat(); err == nil {
		if age := time.Since(fi.ModTime()); age >= 0 && age < newTicket {
			return true
		}
	}
	os.Remove(p)
	return false
}

// drop leaves the queue: the file goes first, so that no waiter sees it
// unlocked and takes its owner for dead.
func (t *ticket) drop() {
	os.Remove(filepath.Join(t.dir, t.name))
	t.f.Close()
}
