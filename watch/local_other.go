//go:build !linux

package watch

// localFS reports whether dir's folders are to be watched: only on Linux,
// whose inotify watches a folder with one descriptor (kqueue holds one
// open for every file).
func localFS(dir string) bool { return false }
