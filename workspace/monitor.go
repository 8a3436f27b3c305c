package workspace

import (
	"errors"

	"memoria/memory"
)

// ErrMonitorUnsupported is returned by NewMonitor where change
// notification cannot be trusted: another operating system, or a network
// or FUSE file system whose remote changes the kernel never hears of.
var ErrMonitorUnsupported = errors.New("change monitor not supported here")

// A Monitor tells a long-lived process (the MCP server, a program using the
// library) whether the workspace's Markdown may have changed since it last
// asked. The freshness check before a recall stats every file, which on
// years of daily logs costs milliseconds; with a Monitor saying nothing
// happened it costs one system call.
//
// The Monitor only ever errs towards "changed": a queue overflow, a watched
// folder removed or renamed, or a new subfolder all report a change. A
// caller must run its full check once after NewMonitor: changes made
// before the Monitor existed are not reported.
type Monitor struct {
	impl monitorImpl
}

type monitorImpl interface {
	changed() bool
	close() error
}

// NewMonitor watches the workspace in dir: its memory.RootFiles and every
// non-hidden folder under memory/ and bank/ (the files List returns).
func NewMonitor(dir string) (*Monitor, error) {
	impl, err := newMonitorImpl(dir)
	if err != nil {
		return nil, err
	}
	return &Monitor{impl: impl}, nil
}

// Changed reports whether anything that List would see may have changed
// since the previous call (or since NewMonitor). It never blocks.
func (m *Monitor) Changed() bool { return m.impl.changed() }

// Close releases the Monitor's kernel resources.
func (m *Monitor) Close() error { return m.impl.close() }

// watchedRootNames are the entries of the workspace folder itself whose
// changes matter; editors' swap files and the index folder do not.
var watchedRootNames = func() map[string]bool {
	m := map[string]bool{"memory": true, "bank": true}
	for _, name := range memory.RootFiles {
		m[name] = true
	}
	return m
}()
