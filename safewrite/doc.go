// Package safewrite is the one way Memoria writes into a workspace: every
// writer (retain, core memory, inference review files, and later reflect)
// goes through it, so that concurrent agents, a killed process, a full disk
// or a permission error never cost a byte of what was there and never leave
// a half-written file.
//
// A write is atomic: the new content goes to a temporary file in the same
// folder (a hidden ".NAME.*.tmp" that the indexer ignores), which is
// written, fsynced, given the original file's permissions and renamed over
// the target; then the folder is fsynced so that the rename itself survives
// a power cut. Until the rename the old file is untouched, and after it the
// new file is complete: a reader, or a process killed at any point, sees
// exactly the old or exactly the new version. Temporary files left by a
// killed writer are removed by the next writer of that folder.
//
// Writes are serialised across processes by an exclusive lock on one lock
// file per workspace (LockFile, under .memory/), taken with a timeout and
// served in order of arrival (flock.Queued), so that a writer in a loop
// cannot keep the others out; the lock file records who holds it (the
// process's command line and the write), and a timeout names the process
// the kernel says holds the lock. Paths are
// workspace-relative and confined with workspace.Path: absolute paths, ".."
// and symlinks leading out of the workspace are refused; a symlink inside
// the workspace is written through, so it stays a symlink.
//
// Update is the read-modify-write most callers want. Hash and
// Locked.WriteIfUnchanged let a caller that computed a change from an
// earlier read (reflect) refuse to overwrite a file that changed since.
package safewrite
