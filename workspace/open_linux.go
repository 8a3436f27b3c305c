package workspace

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// openedPath returns the path the kernel gives for the open file f: where
// it really is, whatever was swapped in while it was opened. A file
// removed or renamed over since it was opened (a writer's atomic save) is
// named where it was, with " (deleted)" after it: it is the version the
// reader opened, at that place, and is judged by it (refusing it made
// reads of a log that writers kept saving fail, and the index left the
// log out). ok is false when /proc is not mounted (then Open falls back
// to comparing the file with the one at its path).
func openedPath(f *os.File) (p string, ok bool) {
	conn, err := f.SyscallConn()
	if err != nil {
		return "", false
	}
	var rerr error
	// SyscallConn rather than Fd: Fd would switch the file to blocking
	// mode.
	if err := conn.Control(func(fd uintptr) {
		p, rerr = os.Readlink("/proc/self/fd/" + strconv.Itoa(int(fd)))
	}); err != nil || rerr != nil {
		return "", false
	}
	p = strings.TrimSuffix(p, " (deleted)")
	if !filepath.IsAbs(p) {
		return "", false
	}
	return filepath.Clean(p), true
}
