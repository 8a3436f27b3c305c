//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package mmapfile

import (
	"os"
	"syscall"
)

func mapFile(f *os.File, size int, mode Mode) ([]byte, func(), bool) {
	prot, flags := syscall.PROT_READ, syscall.MAP_SHARED
	if mode == CopyOnWrite {
		prot, flags = syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE
	}
	b, err := syscall.Mmap(int(f.Fd()), 0, size, prot, flags)
	if err != nil {
		return nil, nil, false
	}
	return b, func() { syscall.Munmap(b) }, true
}
