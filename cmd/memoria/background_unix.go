//go:build unix

package main

import (
	"fmt"
	"os"
	"syscall"
)

// detachedAttr puts the child in a session of its own: a terminal's
// signals to this command (Ctrl-C) do not reach it.
func detachedAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }

// fileIdentity names the file fi describes by device and inode: a file
// renamed over its path has another.
func fileIdentity(fi os.FileInfo) string {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return fmt.Sprintf("%d:%d", st.Dev, st.Ino)
	}
	return fmt.Sprintf("%d:%d", fi.Size(), fi.ModTime().UnixNano())
}
