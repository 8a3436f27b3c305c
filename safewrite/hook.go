package safewrite

// hook marks a step of a write ("locked", "temp-created", "writing",
// "synced", "renamed", "dir-synced"); n is the bytes written so far for
// "writing". It does nothing unless a test build replaces it (see
// hook_memoriatest.go), so that process tests can kill a writer at a
// chosen point.
var hook = func(step string, n int) {}

// pauseOffset is where, in data of n bytes, the write is split around the
// "writing" hook; n means not split.
var pauseOffset = func(n int) int { return n }
