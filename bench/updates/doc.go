// Package updates holds a graded evaluation set of facts that changed,
// asked about now or about a past day ("who's our vet now?", "how was I
// getting to work in February?"). It has four parts, each a fictional
// workspace with its own queries.jsonl, read by eval.LoadQueries and run
// with `memoria eval bench/updates/vineyard/queries.jsonl` (or chats/,
// chats2/, narrowboat/). See README.md for the parts, how they were
// written and which ones recall was developed on. The package's test only
// validates the set; it does not score recall.
package updates
