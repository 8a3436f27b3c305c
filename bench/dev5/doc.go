// Package dev5 holds a development evaluation set for Memoria's recall: a
// fictional cellist's notebook in Kraków — a string quartet that changes
// rehearsal rooms three times, a partner on tour, a sister visiting, a
// mother's hip operation, a cracked cello at the luthier's, a new car, a new
// landlord and a new agent (workspace/, 2026-01-26 to 2026-04-26) — and
// queries.jsonl, read by eval.LoadQueries and run with
// `memoria eval bench/dev5/queries.jsonl --index-dir /tmp/dev5-idx`.
// Most of its questions are about time: an event under way at the
// question's date, a value that held during a past window, the current
// value after a change said in prose; and phrases quoted exactly. See
// README.md for the query types, the fields and how the gold lines were
// chosen. The package's test only validates the set; it does not score
// recall.
package dev5
