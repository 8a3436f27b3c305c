//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package uselite

import "os"

// mapFile reads the file into memory (no mmap on this system).
func mapFile(f *os.File, size int64) ([]byte, func(), error) { return readAll(f, size) }
