//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package sqlite

import (
	"os"
	"syscall"
)

// mapFile maps a file privately (copy-on-write) into memory: no copy of the
// page cache, and only the pages that are used are read. unmap releases it.
func mapFile(f *os.File, size int64) (b []byte, unmap func(), err error) {
	if size <= 0 || int64(int(size)) != size {
		return readAll(f, size)
	}
	b, err = syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE)
	if err != nil {
		return readAll(f, size)
	}
	return b, func() { syscall.Munmap(b) }, nil
}
