//go:build !unix

package flock

import "os"

// On systems without flock the lock is advisory only within the process;
// SQLite's own locking still protects the index.
func tryLock(f *os.File, exclusive bool) (bool, error) { return true, nil }

func unlock(f *os.File) error { return nil }

func lockWait(f *os.File) error { return nil }
