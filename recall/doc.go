// Package recall answers a parsed query from the index, in stages: plan (which channels run, with which filters), run the
// channels, fuse their rankings, and pack the best results, each citing
// the exact lines it came from, within a size and token budget.
//
// Channels (recall.go): lexical (bm25 over every item, with the query's
// entity aliases expanded to their names), temporal (the same words within
// the window the query speaks of, ranked by distance to the day for
// "around"; or, when the words name no topic, the window listed day by
// day), entity (the named entities' page and typed facts: listed page
// first for "tell me about X", else ranked by the query's other words),
// opinion (for opinion questions: the entities' opinions by the words, then
// by confidence and recency), and update (the other version of a fact
// that a candidate supersedes or is superseded by, supersede.go).
//
// Fusion (fuse.go) is reciprocal-rank fusion (k = 60) times small named
// multiplicative boosts; the semantic channel's nearest item, when near in
// meaning, keeps a place among the first ten (keepNearest). Result.Explain
// shows each channel's rank and each boost. docs/recall.md lists the
// constants and their measured effect.
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
