//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package uselite

import (
	"os"
	"syscall"
)

// mapFile maps a file read-only into memory; unmap releases it.
func mapFile(f *os.File, size int64) ([]byte, func(), error) {
	if size <= 0 || int64(int(size)) != size {
		return readAll(f, size)
	}
	b, err := syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return readAll(f, size)
	}
	return b, func() { syscall.Munmap(b) }, nil
}
