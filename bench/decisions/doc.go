// Package decisions holds a graded evaluation set of one class of
// question: what was chosen, and why ("why did we go with X?", "what did
// I use instead of Y?"). It has four parts, each a fictional workspace
// with its own queries.jsonl, read by eval.LoadQueries and run with
// `memoria eval bench/decisions/radio/queries.jsonl` (or fieldwork/,
// allotment/, workshop/). See README.md for the parts, how they were
// written and which ones recall was developed on. The package's test only validates the set;
// it does not score recall.
package decisions
