// Package watch keeps a workspace's index fresh while files change.
//
// Run watches the workspace root, memory/ and bank/ and every folder below
// them with fsnotify (which is not recursive: folders created later are
// added as they appear), and after a burst of changes to Markdown files has
// been quiet for the debounce interval it brings the index up to date with
// Workspace.Sync, which re-parses only the files whose content changed.
// Editors that save by writing a temporary file and renaming it over the
// original are handled, since the folder, not the file, is watched.
// Hidden files and folders (.memory, .git, editor swap files) are ignored.
package watch
