//go:build !unix

package main

import (
	"fmt"
	"os"
	"syscall"
)

func detachedAttr() *syscall.SysProcAttr { return nil }

// fileIdentity names the file fi describes, as well as this system lets
// it: by size and modification time.
func fileIdentity(fi os.FileInfo) string {
	return fmt.Sprintf("%d:%d", fi.Size(), fi.ModTime().UnixNano())
}
