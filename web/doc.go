// Package web serves a page to look at a Memoria workspace in a browser,
// and the JSON API the page reads, beside the MCP endpoint of
// `memoria serve --http` (see docs/web.md).
//
// Everything the page shows comes from the memoria.Workspace API and
// cites its lines (path#Lx-Ly); a citation opens the cited lines through
// Workspace.Get. The views are loaded one at a time, each with bounded
// lists, so that the first view of a large workspace is quick:
//
//   - search: Workspace.Recall with the CLI's filters and its explain
//     breakdown;
//   - timeline: Workspace.Timeline, a page of days at a time;
//   - entities: Workspace.Entities, Workspace.Entity and
//     Workspace.EntityGraph;
//   - opinions: bank/opinions.md as reflect keeps it, the confidence of
//     each opinion over time and the evidence behind each change;
//   - review: the inferred facts (Workspace.InferFacts) and core-memory
//     proposals (reflect), accepted or rejected through the Workspace's
//     write methods, which take the workspace write lock and write
//     atomically. The package never writes a file itself.
//
// The page is plain HTML, CSS and JavaScript without a framework or a
// build step, embedded from assets/. Handler does no authentication: the
// caller (mcp.Server.HTTPHandler) checks the Origin, the Host and the
// token before a request reaches it. Requests that change something must
// be POSTs with a JSON body, which a page of another origin cannot send
// without the browser asking first.
package web
