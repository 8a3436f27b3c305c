// Package workspace finds a Memoria workspace on disk and lists the files
// in it that Memoria reads.
//
// A workspace is a folder of Markdown: memory.md, daily logs
// under memory/, curated pages under bank/, and the derived index under
// .memory/. This package resolves which folder is meant (flag, environment,
// OpenClaw config, default), creates the layout on init without ever
// overwriting a file, and lists the indexable files while refusing anything
// that would lead outside the workspace (symlinks out, odd names). Every
// reader of a memory file's content (get, the index, reflect) opens it
// through a Reader, which opens it once, beneath the workspace folder, and
// checks the open file: a memory file, and nothing else, is ever read.
package workspace
