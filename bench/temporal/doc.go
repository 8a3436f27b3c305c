// Package temporal holds a graded evaluation set of questions that name
// a time ("what did we serve over the Easter weekend?", "what did Podge
// land on the 3rd?", "where did I climb the week after the move?"). It
// has three parts, each a fictional workspace with its own queries.jsonl,
// read by eval.LoadQueries and run with `memoria eval
// bench/temporal/harbour/queries.jsonl` (or chats/, apiary/). See
// README.md for the parts, how they were written and which ones recall
// was developed on. The package's test only validates the set; it does not score
// recall.
package temporal
