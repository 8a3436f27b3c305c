// Package team serves the memory of several workspaces, kept in one
// shared PostgreSQL index (package postgres), to the agents of a team:
// recall across every workspace a token may read, each result naming the
// workspace and file it cites, and writes to the workspaces it may write.
// docs/team.md says how to run it.
package team
