// Package unseen2 is a second held-out evaluation set for Memoria's recall,
// written from scratch by a helper who never ran Memoria nor read its code or
// its other evaluation sets.
//
// The workspace is the memory of an assistant for Femke de Wit and Joost
// Bakker, who run Trapkracht, a bicycle repair shop and cargo-bike courier in
// Utrecht-Zuilen, from 2026-02-02 to 2026-05-29: 53 daily logs (diary days,
// days with a ## Retain section and chat transcripts), a core memory.md and a
// curated bank that stays stale on purpose while later logs record what
// changed. queries.jsonl holds 74 scored queries (lexical, entity, temporal,
// opinion, decision, update) and 4 abstentions; README.md describes them.
//
// The package holds no code: unseen2_test.go only validates the set (its
// citations, fields and counts) and scores nothing.
package unseen2
