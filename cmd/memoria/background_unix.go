//go:build unix

package main

import "syscall"

// detachedAttr puts the child in a session of its own: a terminal's
// signals to this command (Ctrl-C) do not reach it.
func detachedAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }
