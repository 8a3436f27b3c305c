// Package recall answers a parsed query from the index, in stages: plan
// (which channels run, with which filters), run the channels into one
// candidate pool, compute each candidate's features, score them with the
// fitted ranker, and pack the best results, each citing the exact lines it
// came from, within a size and token budget.
//
// Channels (recall.go): lexical (bm25 over every item, with the query's
// entity aliases expanded to their names), temporal (the same words within
// the window the query speaks of, ranked by distance to the day for
// "around"; or, when the words name no topic, the window listed day by
// day), entity (the named entities' page and typed facts: listed page
// first for "tell me about X", else ranked by the query's other words),
// opinion (for opinion questions: the entities' opinions by the words, then
// by confidence and recency), update (the other version of a fact that a
// candidate supersedes or is superseded by, supersede.go), ongoing (facts
// whose event covers today, for a question about now), phrase (the items
// that say a quoted phrase), semantic (nearest in meaning) and window (a
// window listed day by day). Each channel contributes at most poolDepth
// items, whatever K: the first n results are the same for every K ≥ n.
//
// Ranking (features.go, ranker.go) is one linear model over general
// features of a candidate: each channel's rank, the engines' scores, its
// reciprocal-rank fusion, and what the question asks of it against what it
// is (a time, the present, an amount, a choice; a typed fact, dated,
// superseded, stating a number). The weights are fitted on the development
// sets by `go run ./recall/fit` (ranker_gen.go, one set of weights for
// lexical recall and one per embedding model) and judged by leave-one-
// set-out cross-validation (`go run ./recall/fit -cv`). Candidates that say
// a quoted phrase come first. Result.Explain shows each channel's rank and
// what each feature added to the score.
//
// Packing (pack.go) takes results best first, drops a fact already given
// and lines already cited, widens a passage with its neighbours up to
// Plan.Lines lines (never into cited lines), merges a passage into an
// earlier passage result it overlaps or adjoins when both fit in
// Plan.Lines, and stops at K results or at the token budget.
//
// The token estimate (EstimateTokens and TextTokens, budget.go) is one
// token per four ASCII bytes of content (the usual rule of thumb for BPE
// tokenizers on English) and one per other character (CJK runs close to a
// token per character), plus one token and the name's estimate per entity,
// plus 24 tokens for the fields around the content (id, kind, timestamp,
// source, score) in the JSON shape. It overestimates the compact format, so
// a budget is never exceeded there.
package recall
