// Package updates holds a graded evaluation set of facts that changed,
// asked about now or about a past day ("who's our vet now?", "how was I
// getting to work in February?"). It has two halves, each a fictional
// workspace with its own queries.jsonl, read by eval.LoadQueries and run
// with `memoria eval bench/updates/vineyard/queries.jsonl` (or chats/).
// See README.md for the halves, how they were written and which one
// recall was developed on. The package's test only validates the set; it
// does not score recall.
package updates
