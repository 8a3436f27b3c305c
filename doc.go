// Package memoria is a long-term memory for AI agents that keeps Markdown as
// the truth and a derived SQLite index beside it.
//
// A workspace is a folder of Markdown written by agents and people:
// memory.md (core memory), memory/YYYY-MM-DD.md (daily logs, with optional
// "## Retain" sections of typed facts) and bank/ (curated pages, opinions,
// entity pages). Open a workspace, then Recall from it; every result cites
// the exact lines it came from, and Get reads those lines back.
//
// The index lives at .memory/index.sqlite, is updated incrementally before
// every recall (only files whose content changed are re-parsed), and is
// rebuilt from the Markdown whenever it is missing, corrupt or outdated.
// Recall and the rest of the library reach it through one interface,
// Store (package memory holds it and the other domain types, named here
// too), so that another backend can sit beside the SQLite one.
//
// The same operations back the memoria command and its MCP server; this
// package needs neither.
package memoria
