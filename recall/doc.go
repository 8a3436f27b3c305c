// Package recall answers a parsed query from the index, in the stages of
// DESIGN §3: plan (which channels run, with which filters), run the
// channels, fuse their rankings, and pack the best results, each citing
// the exact lines it came from, within a size and token budget.
package recall
