package watch

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	"github.com/fsnotify/fsnotify"
)

// Folders watches the Markdown of several workspaces with one fsnotify
// watcher, for a process that keeps them all fresh (a team server:
// team.KeepFresh). For each workspace it says when its Markdown last
// changed, so that the process syncs the workspaces that changed instead
// of checking every file of every workspace in turn.
//
// Only folders on a local filesystem are watched, and only on Linux
// (inotify): a change made by another machine to a mounted folder (NFS,
// SMB, FUSE) raises no event here, and kqueue, elsewhere, holds a file
// open for every file watched. Such a folder is reported as not watched,
// as is one whose watches could not all be set (the system's limit on
// watches, say) or were lost; its files must be checked by reading them.
type Folders struct {
	fw      *fsnotify.Watcher
	folders []*folder
	warn    func(string)
	done    chan struct{}
	// changedHook, if set, is told of each change seen, by folder
	// index, after Take can see it (tests wait on it).
	changedHook func(int)
}

// folder is one workspace's folder, watched or not.
type folder struct {
	watcher
	watched atomic.Bool
	changed atomic.Int64 // the latest change not yet taken, in Unix nanoseconds; 0: none
}

// WatchFolders starts watching the workspaces' folders (roots), until
// Close; warn receives one-line warnings (nil: dropped). It fails only if
// no watcher can be made at all.
func WatchFolders(roots []string, warn func(string)) (*Folders, error) {
	return watchFolders(roots, warn, nil)
}

func watchFolders(roots []string, warn func(string), changedHook func(int)) (*Folders, error) {
	if warn == nil {
		warn = func(string) {}
	}
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, fmt.Errorf("watch: %w", err)
	}
	f := &Folders{fw: fw, warn: warn, done: make(chan struct{}), changedHook: changedHook}
	start := time.Now().UnixNano()
	for _, root := range roots {
		d := &folder{watcher: watcher{fw: fw, root: filepath.Clean(root), warn: warn}}
		// Changed as of now: whatever a sync before the watch began
		// found, the caller syncs once more.
		d.changed.Store(start)
		f.folders = append(f.folders, d)
		if root == "" || !localFS(d.root) {
			continue
		}
		if err := fw.Add(d.root); err != nil {
			warn(fmt.Sprintf("watch %s: %v; its files are checked by reading them", d.root, err))
			continue
		}
		d.watched.Store(d.addTrees())
	}
	go f.run()
	return f, nil
}

func (f *Folders) run() {
	defer close(f.done)
	for {
		select {
		case ev, ok := <-f.fw.Events:
			if !ok {
				return
			}
			// Every workspace whose folder holds the path: two may share
			// a folder, or one's be in another's.
			for i, d := range f.folders {
				if !d.watched.Load() || ev.Name != d.root && !strings.HasPrefix(ev.Name, d.root+string(filepath.Separator)) {
					continue
				}
				changed, complete := d.handle(ev)
				if changed {
					d.changed.Store(time.Now().UnixNano())
					if f.changedHook != nil {
						f.changedHook(i)
					}
				}
				if !complete {
					d.watched.Store(false)
					f.warn(fmt.Sprintf("watch %s: a new folder cannot be watched; its files are checked by reading them", d.root))
				}
			}
		case err, ok := <-f.fw.Errors:
			if !ok {
				return
			}
			if !errors.Is(err, fsnotify.ErrEventOverflow) {
				f.warn(fmt.Sprintf("watch: %v", err))
				continue
			}
			// Events were lost: every folder may have changed, and the
			// folders created meanwhile are watched from now on.
			now := time.Now().UnixNano()
			for _, d := range f.folders {
				if d.watched.Load() {
					d.watched.Store(d.addTrees())
					d.changed.Store(now)
				}
			}
		}
	}
}

// Take returns when the i-th folder's Markdown last changed since the
// previous Take (zero if no change was seen; the first Take returns when
// the watch began), and whether the folder is watched. A folder that is
// not watched changes unseen: the caller checks its files itself.
func (f *Folders) Take(i int) (changed time.Time, watched bool) {
	d := f.folders[i]
	if n := d.changed.Swap(0); n != 0 {
		changed = time.Unix(0, n)
	}
	return changed, d.watched.Load()
}

// Close stops watching.
func (f *Folders) Close() error {
	err := f.fw.Close()
	<-f.done
	return err
}
