package workspace

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// openedPath returns the path the kernel gives for the open file f: where
// it really is, whatever was swapped in while it was opened. ok is false
// when /proc is not mounted or the file is no longer there (then Open
// falls back to comparing it with the file at its path).
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
	if !filepath.IsAbs(p) || strings.HasSuffix(p, " (deleted)") {
		return "", false
	}
	return filepath.Clean(p), true
}
