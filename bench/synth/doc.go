// Package synth generates a deterministic synthetic Memoria workspace for
// benchmarks: years of daily logs (memory/YYYY-MM-DD.md) with sessions,
// bullets, paragraphs, commands and code blocks; typed `## Retain` bullets
// that mention @entities, carry event dates and confidences; memory.md; the
// bank/ pages; and bank/entities/<Slug>.md pages with aliases front matter.
//
// The text is word salad drawn from a Zipf distribution over about 6,000
// real English words (ranked by frequency in Go doc comments and system
// documentation, see words.txt) mixed with entity names, commands, versions
// and numbers, so that full-text index sizes and search latencies measured on
// it are representative of a real, long-lived workspace.
//
// Output depends only on Options: the same seed, start date and number of
// days produce byte-identical files. Each daily log is generated from its own
// random stream (seed, day index), so the first N logs of a long workspace
// are identical to the logs of an N-day workspace with the same seed.
//
// The command bench/genworkspace wraps Generate for use from the shell.
package synth
