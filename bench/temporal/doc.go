// Package temporal holds a graded evaluation set of questions that name
// a time ("what did we serve over the Easter weekend?", "what did Podge
// land on the 3rd?", "where did I climb the week after the move?"). It
// has two halves, each a fictional workspace with its own queries.jsonl,
// read by eval.LoadQueries and run with `memoria eval
// bench/temporal/harbour/queries.jsonl` (or chats/). See README.md for
// the halves, how they were written and which one recall was developed
// on. The package's test only validates the set; it does not score
// recall.
package temporal
