// Package mcp serves a Memoria workspace to AI agents over the Model
// Context Protocol, using the official Go SDK
// (github.com/modelcontextprotocol/go-sdk).
//
// A Server keeps one memoria.Workspace open and exposes it as tools with
// JSON schemas (recall, get, retain, core, context, status; more can be
// added through Options.Tools, which is how reflect joins) and as a
// resource: core memory at memoria://memory.md.
//
// Every tool failure is a tool error (isError, with a message that says
// what to do), never a protocol failure, and a panic in a tool is recovered.
// ServeStdio answers malformed JSON-RPC lines with a JSON-RPC error and keeps
// reading, so no request can end the session. HTTPHandler serves the
// streamable HTTP transport, optionally behind a bearer token, and beside it
// a web page (HTTPOptions.Page, package web) behind the same checks;
// CheckListenAddr refuses a non-loopback address unless remote access is
// asked for explicitly.
//
// Writes (retain, core edits) are serialised within the server, on top of
// the workspace write lock that the library takes for every write.
package mcp
