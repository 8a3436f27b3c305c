// Package postgres keeps the indexes of many workspaces in one
// PostgreSQL database, for teams whose agents share a memory: a
// memory.Store like package sqlite's, built from the same rows (package
// ingest), that several processes on several machines read and sync at
// once.
//
// The Markdown stays the truth: a workspace's index is derived from its
// files and rebuilt from them at will, and losing the database loses
// nothing. Every row carries its workspace's id and every transaction
// names the workspaces it may see, which row-level security enforces in
// the database itself. Full-text search is PostgreSQL's own (tsvector, a
// GIN index per workspace partition), ranked by bm25 as the SQLite index
// ranks, made of PostgreSQL's ts_rank_cd and counts; a team-wide recall
// weighs words among the workspaces it asks (Scope). Semantic search
// uses pgvector's HNSW index where the database has it, else scans the
// workspace's vectors exactly in the process that asks. docs/team.md
// says how to run it and what it guarantees.
package postgres
