// Package multilingual holds a graded evaluation set in the languages
// people write their logs in (issue 8): a workspace of its own with daily
// logs in Chinese, Japanese, Russian, German and Italian, mixed
// English/Chinese logs, and entity pages and Retain facts whose entities
// are named in those scripts (@Пётр, @李娜, @Zoë). queries.jsonl has the
// questions, in those languages, each typed by its language (zh, ja, ru,
// de, it, mixed), with the gold lines; run it with
//
//	go run ./cmd/memoria eval bench/multilingual/queries.jsonl --index-dir /tmp/ml-idx
//
// The package's tests keep the gold lines valid, guard R@5 ≥ 0.9 with
// memoria's own recall, follow entities in other scripts end to end, and
// compare trigram and bigram tokenization for CJK (docs/multilingual.md).
package multilingual
