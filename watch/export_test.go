package watch

// WatchFoldersHook is WatchFolders telling changed of each change seen.
func WatchFoldersHook(roots []string, warn func(string), changed func(int)) (*Folders, error) {
	return watchFolders(roots, warn, changed)
}
