//go:build !linux

package flock

import "os"

// holders is only known on Linux (/proc/locks).
func holders(*os.File) []Holder { return nil }
