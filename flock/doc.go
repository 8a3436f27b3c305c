// Package flock takes advisory, cross-process locks on a lock file, so that
// several Memoria processes (agents, a watcher, a person's CLI) can share a
// workspace: writers of the same file are serialised and the index is never
// swapped under a process that is reading it.
package flock
