package team

import (
	"context"
	"fmt"
	"time"

	"memoria/watch"
)

// recheckWatched is how often KeepFresh checks every file of a watched
// workspace all the same: a watch can miss what no event tells (a
// change written through a memory map, say), and a sync also repairs an
// index that was lost or damaged. A watched workspace that changed is
// synced at the next round, whatever this says.
const recheckWatched = 30 * time.Second

// KeepFresh keeps the workspaces' indexes fresh until ctx ends, as a
// Server does, so that recalls with MaxStale rarely wait for a sync of
// their own: every maxStale/2 it goes through the workspaces, one at a
// time.
//
// Where a workspace's folder is watched (package watch's Folders: a
// local folder, on Linux), it syncs the workspace only if its Markdown
// changed since the last sync began, and otherwise tells the workspace
// that its index is fresh as of now (Workspace.MarkFresh), which costs
// nothing; it also checks every file every recheckWatched. Elsewhere (a
// mounted folder, which another machine may write to unseen) it syncs
// each workspace that no sync began in since the last round, checking
// every file. Checking every file of bench/team's 50 workspaces every
// second took a twentieth of a two-core machine with nothing else to do;
// watching them, a three-hundredth of that (docs/team.md).
//
// A failed sync is said through warn (nil: dropped); a recall that finds
// the index too old then syncs itself, and fails if that fails too. For
// programs that call RecallAll themselves.
func KeepFresh(ctx context.Context, spaces []Space, maxStale time.Duration, warn func(string)) {
	if warn == nil {
		warn = func(string) {}
	}
	every := max(maxStale/2, time.Millisecond)
	dirs := make([]string, len(spaces))
	for i, s := range spaces {
		dirs[i] = s.WS.Dir()
	}
	folders, err := watch.WatchFolders(dirs, warn)
	if err != nil {
		warn(fmt.Sprintf("%v; every file of every workspace is checked every %v", err, every))
	} else {
		defer folders.Close()
	}
	checkedAll := make([]time.Time, len(spaces)) // by this loop, every file
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		for i, s := range spaces {
			if ctx.Err() != nil {
				return
			}
			now := time.Now()
			var changed time.Time
			watched := false
			if folders != nil {
				changed, watched = folders.Take(i)
			}
			switch {
			case watched && (changed.IsZero() || s.WS.Checked().After(changed)) && now.Sub(checkedAll[i]) < recheckWatched:
				// Unchanged since a sync began (this loop's, a recall's
				// or a write's): fresh as of now.
				s.WS.MarkFresh(now)
				continue
			case !watched && now.Sub(s.WS.Checked()) < every:
				continue // polled, and a sync began since the last round
			}
			if _, err := s.WS.Sync(ctx); err != nil {
				// Checked again at the next round, changed or not.
				checkedAll[i] = time.Time{}
				if ctx.Err() == nil {
					warn(fmt.Sprintf("workspace %s: keeping the index fresh: %v", s.Name, err))
				}
				continue
			}
			if checkedAll[i].IsZero() {
				// The first: the workspaces' later checks spread over
				// recheckWatched rather than all in one round.
				now = now.Add(-recheckWatched * time.Duration(i) / time.Duration(len(spaces)))
			}
			checkedAll[i] = now
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
