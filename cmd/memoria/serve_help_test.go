package main

import (
	"fmt"
	"strings"
	"testing"

	"memoria/mcp"
)

// TestServeHelpNamesSessionCap: serve --help says how many MCP sessions
// the HTTP transport keeps and which it closes beyond (TestMCPSessionsCapped
// holds the cap itself).
func TestServeHelpNamesSessionCap(t *testing.T) {
	code, out, errOut := cli(t, "serve", "--help")
	out = strings.Join(strings.Fields(out), " ")
	want := fmt.Sprintf("at most %d MCP sessions are kept (a new one beyond closes the least recently used)", mcp.DefaultMaxSessions)
	if code != exitOK || !strings.Contains(out, want) {
		t.Errorf("serve --help: exit %d, %q %q; want %q", code, out, errOut, want)
	}
}
