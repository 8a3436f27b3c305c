package watch

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/fsnotify/fsnotify"

	"memoria"
	"memoria/memory"
)

// DefaultDebounce is how long changes must be quiet before a sync.
const DefaultDebounce = 300 * time.Millisecond

// MaxDelay bounds how long a sync waits behind a stream of changes that
// never goes quiet.
const MaxDelay = 3 * time.Second

// Options configure Run. The zero value is ready to use.
type Options struct {
	// Debounce is the quiet interval before a sync; 0 means DefaultDebounce.
	Debounce time.Duration
	// OnSync is called after every sync, the first one at start, with its
	// statistics or error. A failed sync does not stop the watch.
	OnSync func(memory.Stats, error)
	// Warn receives one-line warnings (a folder that cannot be watched).
	Warn func(string)
}

// Run keeps ws's index fresh until ctx is done; it syncs once at start.
// It returns nil when ctx ends, or an error if watching cannot start.
func Run(ctx context.Context, ws *memoria.Workspace, o Options) error {
	debounce := o.Debounce
	if debounce <= 0 {
		debounce = DefaultDebounce
	}
	warn := o.Warn
	if warn == nil {
		warn = func(string) {}
	}
	onSync := o.OnSync
	if onSync == nil {
		onSync = func(memory.Stats, error) {}
	}
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		return fmt.Errorf("watch: %w", err)
	}
	defer fw.Close()
	root := ws.Dir()
	if err := fw.Add(root); err != nil {
		return fmt.Errorf("watch %s: %w", root, err)
	}
	w := &watcher{fw: fw, root: root, warn: warn}
	w.addTrees()
	sync := func() {
		st, err := ws.Sync(ctx)
		if ctx.Err() != nil {
			return
		}
		if err == nil && st.Changed() {
			// Semantic recall follows the changes too (when the index
			// holds vectors of the workspace's model).
			if _, eerr := ws.EmbedNew(ctx); eerr != nil && ctx.Err() == nil {
				warn("embedding the new text: " + eerr.Error())
			}
		}
		onSync(st, err)
	}
	sync()

	var timer <-chan time.Time
	var t *time.Timer
	var first time.Time // first change not yet synced
	schedule := func() {
		now := time.Now()
		if first.IsZero() {
			first = now
		}
		wait := debounce
		if rest := MaxDelay - now.Sub(first); rest < wait {
			wait = max(rest, 0)
		}
		if t == nil {
			t = time.NewTimer(wait)
		} else {
			t.Reset(wait)
		}
		timer = t.C
	}
	defer func() {
		if t != nil {
			t.Stop()
		}
	}()
	for {
		select {
		case <-ctx.Done():
			return nil
		case ev, ok := <-fw.Events:
			if !ok {
				return nil
			}
			if changed, _ := w.handle(ev); changed {
				schedule()
			}
		case err, ok := <-fw.Errors:
			if !ok {
				return nil
			}
			if errors.Is(err, fsnotify.ErrEventOverflow) {
				// Events were lost: re-add every folder and sync.
				w.addTrees()
				schedule()
				continue
			}
			warn(fmt.Sprintf("watch: %v", err))
		case <-timer:
			timer, first = nil, time.Time{}
			sync()
		}
	}
}

type watcher struct {
	fw   *fsnotify.Watcher
	root string
	warn func(string)
}

// addTrees watches the folders below the root that hold Markdown, and
// reports whether every one of them is watched.
func (w *watcher) addTrees() bool {
	ok := true
	for _, top := range []string{"memory", "bank"} {
		ok = w.addTree(filepath.Join(w.root, top)) && ok
	}
	return ok
}

// addTree watches dir and every non-hidden folder below it. Symlinked
// folders are not followed, as the index does not follow them. It reports
// whether every folder there is watched (one that vanished meanwhile
// needs none).
func (w *watcher) addTree(dir string) (complete bool) {
	complete = true
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				w.warn(fmt.Sprintf("watch: %v", err))
				complete = false
			}
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if !d.IsDir() {
			return nil
		}
		if p != dir && hidden(d.Name()) {
			return fs.SkipDir
		}
		if err := w.fw.Add(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			w.warn(fmt.Sprintf("watch %s: %v", p, err))
			complete = false
		}
		return nil
	})
	return complete
}

// handle reacts to one event and says whether the index may need a sync,
// and whether every folder of the tree is still watched after a folder
// came into it.
func (w *watcher) handle(ev fsnotify.Event) (changed, complete bool) {
	complete = true
	rel, err := filepath.Rel(w.root, ev.Name)
	if err != nil || rel == "." || strings.HasPrefix(rel, "..") {
		return false, true
	}
	parts := strings.Split(filepath.ToSlash(rel), "/")
	for _, p := range parts {
		if hidden(p) {
			return false, true
		}
	}
	top := parts[0]
	inTree := top == "memory" || top == "bank"
	if len(parts) == 1 && !inTree && !isRootFile(top) {
		return false, true // another file at the root
	}
	if ev.Has(fsnotify.Create) && inTree {
		// A folder created (or moved) into the tree: watch it and what it holds.
		if fi, err := os.Lstat(ev.Name); err == nil && fi.IsDir() {
			return true, w.addTree(ev.Name)
		}
	}
	if ev.Op == fsnotify.Chmod {
		return false, true
	}
	// A removed or renamed folder drops its own watches; a change to a
	// Markdown file (or to a name that might have been a folder) syncs.
	name := parts[len(parts)-1]
	return strings.HasSuffix(strings.ToLower(name), ".md") || !strings.Contains(name, "."), true
}

// isRootFile reports whether name, at the workspace's root, is one of its
// memory files (memory.RootFiles: memory.md, MEMORY.md, USER.md, DREAMS.md…).
func isRootFile(name string) bool {
	for _, f := range memory.RootFiles {
		if strings.EqualFold(name, f) {
			return true
		}
	}
	return false
}

func hidden(name string) bool {
	return strings.HasPrefix(name, ".") || strings.HasSuffix(name, "~") || strings.HasPrefix(name, "#")
}
