package sqlite

import (
	"sync"

	"memoria/workspace"
)

// freshness lets a long-lived Index skip the freshness check's stat of
// every file when a workspace.Monitor vouches that nothing changed since
// the last complete Sync. A process that syncs once (a CLI command) never
// creates the Monitor: it is armed at the second Sync, which still runs the
// full check, and trusted from the third on.
type freshness struct {
	mu      sync.Mutex
	syncs   int
	long    bool // synced twice, or warmed: a long-lived process
	mon     *workspace.Monitor
	trusted bool  // the last full check succeeded and the monitor has seen everything since
	files   int   // files found by that check
	version int64 // the index's data_version when that check began
	// changes counts the drains of the monitor that found a change. A
	// check that began at one count earns trust only if it is still the
	// count when it ends: a concurrent caller may have drained, and so
	// taken from this check's successor, a change that landed after this
	// check listed the files (then trusting it skipped the next check
	// while that change was not in the index).
	changes uint64
}

// quiet reports whether Sync may skip its check: nothing changed in the
// files (the monitor says so) nor in the index (version, its data_version,
// is the one the last check began from). It drains the monitor's events
// either way, so a change that lands during the check that follows is
// reported next time.
//
// epoch is the count of changes the check that follows begins at, for
// checked.
func (f *freshness) quiet(dir string, version int64) (files int, ok bool, epoch uint64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.syncs++
	if f.syncs >= 2 {
		f.arm(dir)
	}
	if f.mon == nil {
		return 0, false, f.changes
	}
	if f.mon.Changed() {
		f.changes++
		f.trusted = false
	}
	if version != f.version {
		f.trusted = false
	}
	return f.files, f.trusted, f.changes
}

// checked records a complete, successful check of files that began at
// epoch (quiet). Symlinked files may point into folders the monitor does
// not watch, so with one the monitor is not trusted.
func (f *freshness) checked(files []workspace.File, version int64, epoch uint64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if epoch != f.changes {
		// A change drained since the check began may be newer than its
		// listing: the next check must look.
		f.trusted = false
		return
	}
	f.trusted, f.version = f.mon != nil, version
	for _, x := range files {
		if x.Symlink {
			f.trusted = false
		}
	}
	f.files = len(files)
}

// count counts a sync made without the monitor (SyncListed).
func (f *freshness) count() {
	f.mu.Lock()
	f.syncs++
	f.mu.Unlock()
}

func (f *freshness) arm(dir string) {
	if f.long {
		return
	}
	f.long = true
	f.mon, _ = workspace.NewMonitor(dir) // nil where unsupported: always check
	// A check under way listed the files before the monitor existed, and
	// a change made between that listing and now is reported by no one:
	// only a check that begins from here on may earn trust.
	f.changes++
}

// longLived reports whether the process has synced more than once.
func (f *freshness) longLived() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.long || f.syncs >= 2
}

// forget makes the next Sync run the full check.
func (f *freshness) forget() {
	f.mu.Lock()
	f.trusted = false
	f.changes++ // nor may a check under way earn trust
	f.mu.Unlock()
}

func (f *freshness) close() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.mon == nil {
		return nil
	}
	err := f.mon.Close()
	f.mon, f.trusted = nil, false
	return err
}
