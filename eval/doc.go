// Package eval measures recall quality against question sets with gold
// citations, such as the LongMemEval-derived development set at
// ../shared/data/longmemeval100 (never copied into this repository).
//
// # Queries
//
// LoadQueries reads a queries.jsonl file into Query values: question,
// "now" (question_date, layout YYYY-MM-DDTHH:MM), category (or its alias
// "type"), abstention, scored (default true), and gold, gold_sessions as
// memory.Source citations. A relative workspace is resolved against the
// JSONL file's directory. Optional fields serve typed sets such as
// bench/evalset: window {"start","end"} (days, both included) for temporal
// queries, and superseded (citations of the competing versions of a fact)
// with asof ("now" or YYYY-MM-DD) for queries about facts that changed.
//
// # Metrics
//
// All metrics compare one ranked list of cited line ranges with a query's
// gold ranges:
//
//   - a result hits when it overlaps a gold range: same path and at least
//     one shared line (a citation without lines cites its whole file);
//   - R@5, R@10: 1 if at least one of the top k results hits, else 0;
//   - MRR: 1/rank of the first hit, 0 if none;
//   - NDCG@10, binary gains: exact duplicate gold ranges are dropped; going
//     down the top 10, a result gains 1 if it overlaps at least one gold
//     range not yet credited to an earlier result, and then credits every
//     gold range it overlaps. So a repeated result gains nothing, and one
//     broad result spanning several gold ranges gains 1, not one per range.
//     DCG = Σ gain_i / log2(i+1); IDCG is the DCG of min(len(gold), 10)
//     gains at ranks 1, 2, …;
//   - Lines@10: the total number of lines cited by the top 10 results
//     (Source.Lines summed, duplicates included; Run counts a whole-file
//     citation at its file's length);
//   - in-window share (InWin@10), for queries with a window: the share of
//     the top 10 results whose cited day (the date of a daily log
//     memory/YYYY-MM-DD.md, see SourceDay) falls inside the window; results
//     without a day (core memory, bank pages) count as outside, and no
//     results score 0;
//   - current-first (CurFirst), for queries with superseded lines: 1 if,
//     within the top 10, the first result hitting gold ranks strictly above
//     the first result hitting a superseded line (a gold hit with no
//     superseded hit counts; no gold hit, or one result hitting both, does
//     not), else 0.
//
// Aggregates are means over scored queries only (Scored false is left
// out), per category and overall; the two optional metrics average over
// the scored queries that have them, and tables show them only when some
// query does.
//
// # Running
//
// Run calls a RecallFunc for every query, optionally with several workers
// (scores do not depend on their number), and returns a Report with the
// per-query results (hit ranks, lines, latency, error) and the aggregates.
// Report.WriteTable and WriteJSON print one run; WriteComparison prints two
// runs side by side with deltas.
//
// # Baselines
//
// Baseline reproduces the data set's lexical baselines in-process: each
// workspace's memory/*.md files are loaded into an in-memory SQLite FTS5
// table (tokenize='porter unicode61', modernc.org/sqlite), one row per
// non-blank line (BaselineLines) or per non-blank, non-overlapping window of
// n lines (BaselineWindows), and queried with the question's whitespace-
// separated terms, each double-quoted, ORed (see MatchExpr), ordered by
// bm25.
package eval
