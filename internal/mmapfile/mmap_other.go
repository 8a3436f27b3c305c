//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package mmapfile

import "os"

// mapFile does not map here: Map reads the file instead.
func mapFile(*os.File, int, Mode) ([]byte, func(), bool) { return nil, nil, false }
