package mcp_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"memoria/mcp"
)

// TestMCPSessionsCapped: the HTTP transport keeps at most
// DefaultMaxSessions sessions; a new one beyond closes the least recently
// used. 10,000 idle sessions used to stay for 30 minutes (161 MB).
func TestMCPSessionsCapped(t *testing.T) {
	srv, _, _ := serve(t, mcp.Tools())
	h := srv.HTTPHandler(mcp.HTTPOptions{})
	max := mcp.DefaultMaxSessions
	post := func(session, body string) *httptest.ResponseRecorder {
		req := httptest.NewRequest("POST", mcp.HTTPPath, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if session != "" {
			req.Header.Set("Mcp-Session-Id", session)
			req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		return w
	}
	open := func() string {
		w := post("", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
		id := w.Header().Get("Mcp-Session-Id")
		if w.Code != http.StatusOK || id == "" {
			t.Fatalf("initialize: %d %q", w.Code, w.Body)
		}
		return id
	}
	// alive pings a session: 200, or 404 once it was closed (closing an
	// evicted session runs in the background, so wait for it a while).
	alive := func(id string, want bool) bool {
		for deadline := time.Now().Add(10 * time.Second); ; {
			w := post(id, `{"jsonrpc":"2.0","id":2,"method":"ping"}`)
			got := w.Code == http.StatusOK
			if got == want || want || time.Now().After(deadline) {
				return got
			}
			time.Sleep(time.Millisecond)
		}
	}
	var ids []string
	for range max {
		ids = append(ids, open())
	}
	// The first is used again: the second and third are now the least
	// recently used.
	if !alive(ids[0], true) {
		t.Fatal("a session under the cap was closed")
	}
	ids = append(ids, open(), open())
	for i, id := range ids {
		want := i != 1 && i != 2
		if got := alive(id, want); got != want {
			t.Errorf("session %d of %d (cap %d): alive %v, want %v", i+1, len(ids), max, got, want)
		}
	}
}

// TestMCPSessionCapDocumented: docs/mcp.md gives the cap (serve's --help
// too, TestServeHelpNamesSessionCap).
func TestMCPSessionCapDocumented(t *testing.T) {
	doc, err := os.ReadFile("../docs/mcp.md")
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("at most %d sessions", mcp.DefaultMaxSessions)
	if !strings.Contains(strings.Join(strings.Fields(string(doc)), " "), want) {
		t.Errorf("docs/mcp.md does not say %q", want)
	}
}
