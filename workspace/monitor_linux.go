package workspace

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"unsafe"

	"golang.org/x/sys/unix"
)

// localFileSystems are the file systems whose every change goes through
// this kernel, so inotify hears of it (statfs f_type magic numbers).
var localFileSystems = map[int64]bool{
	0xEF53:     true, // ext2/3/4
	0x58465342: true, // xfs
	0x9123683E: true, // btrfs
	0x01021994: true, // tmpfs
	0x794c7630: true, // overlayfs
	0xF2F52010: true, // f2fs
	0x2FC12FC1: true, // zfs
	0x3153464a: true, // jfs
	0x52654973: true, // reiserfs
}

const watchMask = unix.IN_MODIFY | unix.IN_ATTRIB | unix.IN_CLOSE_WRITE | unix.IN_CREATE |
	unix.IN_DELETE | unix.IN_MOVED_FROM | unix.IN_MOVED_TO | unix.IN_DELETE_SELF | unix.IN_MOVE_SELF |
	unix.IN_ONLYDIR

type inotifyMonitor struct {
	mu     sync.Mutex
	fd     int
	root   string
	rootWd int32
	dirs   map[int32]string // watch descriptor → workspace-relative folder
	// dropped are watches this monitor removed itself (a folder moved out
	// of the workspace); their IN_IGNORED event is no change.
	dropped map[int32]bool
	buf     []byte
}

func newMonitorImpl(dir string) (monitorImpl, error) {
	root, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return nil, fmt.Errorf("monitor %s: %w", dir, err)
	}
	var fs unix.Statfs_t
	if err := unix.Statfs(root, &fs); err != nil {
		return nil, fmt.Errorf("monitor %s: %w", dir, err)
	}
	if !localFileSystems[int64(fs.Type)] {
		return nil, fmt.Errorf("monitor %s: file system %#x: %w", dir, fs.Type, ErrMonitorUnsupported)
	}
	fd, err := unix.InotifyInit1(unix.IN_NONBLOCK | unix.IN_CLOEXEC)
	if err != nil {
		return nil, fmt.Errorf("monitor %s: %w", dir, err)
	}
	m := &inotifyMonitor{fd: fd, root: root, buf: make([]byte, 64<<10), dropped: map[int32]bool{}}
	if err := m.arm(); err != nil {
		unix.Close(fd)
		return nil, fmt.Errorf("monitor %s: %w", dir, err)
	}
	return m, nil
}

// arm watches the workspace folder and every non-hidden folder under
// memory/ and bank/. Adding a watch that exists returns the same
// descriptor, so arming again after a change is cheap and idempotent.
func (m *inotifyMonitor) arm() error {
	wd, err := unix.InotifyAddWatch(m.fd, m.root, watchMask)
	if err != nil {
		return err
	}
	m.rootWd = int32(wd)
	old := m.dirs
	m.dirs = map[int32]string{}
	for _, top := range []string{"memory", "bank"} {
		if err := m.armTree(top); err != nil {
			return err
		}
	}
	for wd := range old {
		if _, ok := m.dirs[wd]; !ok && wd != m.rootWd {
			if _, err := unix.InotifyRmWatch(m.fd, uint32(wd)); err == nil {
				m.dropped[wd] = true
			}
		}
	}
	return nil
}

func (m *inotifyMonitor) armTree(rel string) error {
	abs := filepath.Join(m.root, filepath.FromSlash(rel))
	mask := uint32(watchMask)
	if strings.Contains(rel, "/") {
		// List follows a symlinked memory/ or bank/ but no symlinked
		// folder below them; the watches do the same.
		mask |= unix.IN_DONT_FOLLOW
	}
	wd, err := unix.InotifyAddWatch(m.fd, abs, mask)
	switch {
	case errors.Is(err, unix.ENOENT) || errors.Is(err, unix.ENOTDIR):
		return nil // not there (yet): the parent's watch reports its creation
	case err != nil:
		return err
	}
	m.dirs[int32(wd)] = rel
	entries, err := os.ReadDir(abs)
	if err != nil {
		return nil // gone meanwhile: reported as a change already
	}
	for _, e := range entries {
		if e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
			if err := m.armTree(rel + "/" + e.Name()); err != nil {
				return err
			}
		}
	}
	return nil
}

func (m *inotifyMonitor) changed() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	changed, rearm := false, false
	for {
		n, err := unix.Read(m.fd, m.buf)
		if err != nil || n <= 0 {
			if err != nil && !errors.Is(err, unix.EAGAIN) && !errors.Is(err, unix.EINTR) {
				changed = true // cannot tell: assume the worst
			}
			break
		}
		for off := 0; off+unix.SizeofInotifyEvent <= n; {
			ev := (*unix.InotifyEvent)(unsafe.Pointer(&m.buf[off]))
			name := ""
			if ev.Len > 0 {
				b := m.buf[off+unix.SizeofInotifyEvent : off+unix.SizeofInotifyEvent+int(ev.Len)]
				name = strings.TrimRight(string(b), "\x00")
			}
			off += unix.SizeofInotifyEvent + int(ev.Len)
			c, r := m.matters(ev.Wd, ev.Mask, name)
			changed, rearm = changed || c, rearm || r
		}
	}
	if rearm {
		if err := m.arm(); err != nil {
			changed = true
		}
	}
	return changed
}

// matters says whether one event may change what List returns, and
// whether the set of watched folders must be looked at again.
func (m *inotifyMonitor) matters(wd int32, mask uint32, name string) (changed, rearm bool) {
	isDir := mask&unix.IN_ISDIR != 0
	switch {
	case mask&unix.IN_Q_OVERFLOW != 0:
		return true, true
	case m.dropped[wd]:
		if mask&unix.IN_IGNORED != 0 {
			delete(m.dropped, wd)
		}
		return false, false
	case mask&(unix.IN_IGNORED|unix.IN_DELETE_SELF|unix.IN_MOVE_SELF) != 0:
		return true, true
	case wd == m.rootWd:
		if !watchedRootNames[name] {
			return false, false
		}
		return true, isDir || name == "memory" || name == "bank"
	case isDir:
		if strings.HasPrefix(name, ".") {
			return false, false
		}
		return true, true
	default:
		return hasMarkdownSuffix(name), false
	}
}

func (m *inotifyMonitor) close() error { return unix.Close(m.fd) }
