package web_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"memoria"
	"memoria/mcp"
	"memoria/web"
)

// example copies the example workspace into a temporary folder and opens
// it; the example itself is never written.
func example(t *testing.T) *memoria.Workspace {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("..", "examples", "workspace"))); err != nil {
		t.Fatal(err)
	}
	return open(t, dir)
}

func open(t *testing.T, dir string) *memoria.Workspace {
	t.Helper()
	ws, err := memoria.Open(context.Background(), dir, memoria.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	return ws
}

// serve serves ws as `memoria serve --http` does: MCP at /mcp, the page
// and its API beside it, behind the same checks.
func serve(t *testing.T, ws *memoria.Workspace, token string) *httptest.Server {
	t.Helper()
	srv := mcp.NewServer(ws, mcp.Options{})
	ts := httptest.NewServer(srv.HTTPHandler(mcp.HTTPOptions{Token: token, Page: web.Handler(srv, web.Options{})}))
	t.Cleanup(ts.Close)
	return ts
}

// call sends a request and returns its status and body.
func call(t *testing.T, c *http.Client, method, u, body string, hdr map[string]string) (int, string, http.Header) {
	t.Helper()
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, u, r)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range hdr {
		if k == "Host" {
			req.Host = v
		} else {
			req.Header.Set(k, v)
		}
	}
	res, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b), res.Header
}

func TestAPI(t *testing.T) {
	t.Parallel()
	ws := example(t)
	ts := serve(t, ws, "")
	for _, c := range []struct {
		name, method, path, body string
		status                   int
		want                     string
	}{
		{"page", "GET", "/", "", 200, `<script src="/app.js"`},
		{"script", "GET", "/app.js", "", 200, "openCitation"},
		{"status", "GET", "/api/status", "", 200, `"entities"`},
		{"recall", "GET", "/api/recall?q=what+does+Peter+prefer%3F&now=2025-12-01", "", 200, `"source":"memory/2025-11-27.md#L97"`},
		{"recall explains", "GET", "/api/recall?q=what+does+Peter+prefer%3F&now=2025-12-01", "", 200, `"channels":{`},
		{"recall filters", "GET", "/api/recall?q=the+trip&entity=Andy&kind=world&since=2025-09-01&until=2025-11-30", "", 200, `"kind":"world"`},
		{"recall bad since", "GET", "/api/recall?q=x&since=blah", "", 400, "since"},
		{"recall bad kind", "GET", "/api/recall?q=x&kind=gossip", "", 400, "gossip"},
		{"recall unknown entity", "GET", "/api/recall?q=x&entity=Nobody", "", 404, "Nobody"},
		{"recall k too big", "GET", "/api/recall?q=x&k=5000", "", 400, "k:"},
		{"get", "GET", "/api/get?ref=" + url.QueryEscape("memory/2025-11-27.md#L12-L15"), "", 200, `"cited":true`},
		{"get whole file", "GET", "/api/get?ref=memory.md", "", 200, `"n":1,`},
		{"get past the end", "GET", "/api/get?ref=" + url.QueryEscape("memory/2025-11-27.md#L999"), "", 404, "line 999"},
		{"get outside", "GET", "/api/get?ref=../../etc/passwd", "", 400, "not a memory file"},
		{"get absolute", "GET", "/api/get?ref=/etc/passwd", "", 400, "not a memory file"},
		{"get index", "GET", "/api/get?ref=.memory/index.sqlite", "", 400, "not a memory file"},
		{"get review file", "GET", "/api/get?ref=review/retain-proposals.md", "", 400, "not a memory file"},
		{"get nothing", "GET", "/api/get", "", 400, "ref"},
		{"timeline", "GET", "/api/timeline?days=3", "", 200, `"day":"2025-11-30"`},
		{"timeline older", "GET", "/api/timeline?before=2025-10-01&days=2", "", 200, `"day":"2025-09-30"`},
		{"timeline bad day", "GET", "/api/timeline?before=yesterday", "", 400, "before"},
		{"entities", "GET", "/api/entities?q=pet", "", 200, `"slug":"Peter"`},
		{"entity", "GET", "/api/entity?name=Pete", "", 200, `"name":"Peter Steinberger"`},
		{"entity neighbours", "GET", "/api/entity?name=Pete", "", 200, `"neighbours":[{"slug":`},
		{"entity unknown", "GET", "/api/entity?name=Nobody", "", 404, "unknown entity"},
		{"graph", "GET", "/api/graph?n=5", "", 200, `"edges":[{"a":`},
		{"opinions", "GET", "/api/opinions", "", 200, `"source":"bank/opinions.md#L6-L21"`},
		{"proposals, none yet", "GET", "/api/proposals", "", 200, `"total":0`},
		{"unknown call", "GET", "/api/nope", "", 404, "no such API call"},
		{"write without JSON", "POST", "/api/proposals/retain/accept", "id=x", 415, "JSON"},
		{"write by GET", "GET", "/api/proposals/retain/accept", "", 404, ""},
		{"unknown field", "POST", "/api/infer", `{"evil":1}`, 400, "evil"},
	} {
		t.Run(c.name, func(t *testing.T) {
			hdr := map[string]string{}
			if c.method == "POST" {
				hdr["Content-Type"] = "application/x-www-form-urlencoded"
				if strings.HasPrefix(c.body, "{") {
					hdr["Content-Type"] = "application/json"
				}
			}
			status, body, _ := call(t, ts.Client(), c.method, ts.URL+c.path, c.body, hdr)
			if status != c.status || !strings.Contains(body, c.want) {
				t.Errorf("%s %s: %d %.400s; want %d with %q", c.method, c.path, status, body, c.status, c.want)
			}
		})
	}
}

func TestAuth(t *testing.T) {
	t.Parallel()
	ws := example(t)
	ts := serve(t, ws, "s3cret")
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	// The cookie the token link sets.
	status, _, hdr := call(t, noRedirect, "GET", ts.URL+"/?token=s3cret", "", nil)
	if status != http.StatusSeeOther || hdr.Get("Location") != "/" {
		t.Fatalf("/?token=: %d to %q; want 303 to /", status, hdr.Get("Location"))
	}
	setCookie := hdr.Get("Set-Cookie")
	for _, want := range []string{mcp.PageCookie("s3cret") + "=", "HttpOnly", "SameSite=Strict", "Path=/"} {
		if !strings.Contains(setCookie, want) {
			t.Errorf("Set-Cookie %q lacks %q", setCookie, want)
		}
	}
	if strings.Contains(setCookie, "s3cret") {
		t.Errorf("the cookie carries the token itself: %q", setCookie)
	}
	cookie := strings.SplitN(setCookie, ";", 2)[0]
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	mcpHdr := func(h map[string]string) map[string]string {
		h["Content-Type"], h["Accept"] = "application/json", "application/json, text/event-stream"
		return h
	}
	for _, c := range []struct {
		name, method, path, body string
		hdr                      map[string]string
		status                   int
	}{
		{"page without token", "GET", "/", "", nil, 401},
		{"api without token", "GET", "/api/status", "", nil, 401},
		{"wrong token link", "GET", "/?token=guess", "", nil, 401},
		{"token link by POST", "POST", "/api/infer?token=s3cret", "{}", map[string]string{"Content-Type": "application/json"}, 401},
		{"page with cookie", "GET", "/", "", map[string]string{"Cookie": cookie}, 200},
		{"api with cookie", "GET", "/api/status", "", map[string]string{"Cookie": cookie}, 200},
		{"wrong cookie", "GET", "/api/status", "", map[string]string{"Cookie": mcp.PageCookie("s3cret") + "=00"}, 401},
		{"api with bearer", "GET", "/api/status", "", map[string]string{"Authorization": "Bearer s3cret"}, 200},
		{"api with wrong bearer", "GET", "/api/status", "", map[string]string{"Authorization": "Bearer nope"}, 401},
		{"foreign origin with cookie", "GET", "/api/status", "", map[string]string{"Cookie": cookie, "Origin": "https://evil.example.com"}, 403},
		{"foreign origin writing", "POST", "/api/infer", "{}", map[string]string{"Cookie": cookie, "Origin": "https://evil.example.com", "Content-Type": "application/json"}, 403},
		{"loopback origin", "GET", "/api/status", "", map[string]string{"Cookie": cookie, "Origin": "http://localhost:5173"}, 200},
		{"rebound host", "GET", "/api/status", "", map[string]string{"Cookie": cookie, "Host": "evil.example.com"}, 403},
		{"mcp with the cookie only", "POST", "/mcp", init, mcpHdr(map[string]string{"Cookie": cookie}), 401},
		{"mcp with bearer", "POST", "/mcp", init, mcpHdr(map[string]string{"Authorization": "Bearer s3cret"}), 200},
	} {
		t.Run(c.name, func(t *testing.T) {
			status, body, _ := call(t, noRedirect, c.method, ts.URL+c.path, c.body, c.hdr)
			if status != c.status {
				t.Errorf("%s %s: %d %.300s; want %d", c.method, c.path, status, body, c.status)
			}
		})
	}
}

// TestNoTokenRebinding: without a token, the page still refuses a Host
// that is not a loopback name (a DNS rebinding), and foreign origins.
func TestNoTokenRebinding(t *testing.T) {
	t.Parallel()
	ts := serve(t, example(t), "")
	for host, want := range map[string]int{"evil.example.com": 403, "localhost": 200, "127.0.0.1": 200, "[::1]:80": 200} {
		if status, body, _ := call(t, ts.Client(), "GET", ts.URL+"/api/status", "", map[string]string{"Host": host}); status != want {
			t.Errorf("Host %s: %d %.200s; want %d", host, status, body, want)
		}
	}
	if status, _, _ := call(t, ts.Client(), "GET", ts.URL+"/", "", map[string]string{"Origin": "http://evil.example.com"}); status != 403 {
		t.Errorf("foreign origin: %d, want 403", status)
	}
}

type proposals struct {
	Retain struct {
		Total int                      `json:"total"`
		Items []memoria.RetainProposal `json:"items"`
	} `json:"retain"`
	Core struct {
		Total int                    `json:"total"`
		Items []memoria.CoreProposal `json:"items"`
	} `json:"core"`
}

func getProposals(t *testing.T, ts *httptest.Server) proposals {
	t.Helper()
	status, body, _ := call(t, ts.Client(), "GET", ts.URL+"/api/proposals", "", nil)
	if status != 200 {
		t.Fatalf("proposals: %d %s", status, body)
	}
	var p proposals
	if err := json.Unmarshal([]byte(body), &p); err != nil {
		t.Fatal(err)
	}
	return p
}

func post(t *testing.T, ts *httptest.Server, path, body string) (int, string) {
	t.Helper()
	status, out, _ := call(t, ts.Client(), "POST", ts.URL+path, body, map[string]string{"Content-Type": "application/json"})
	return status, out
}

func read(t *testing.T, ws *memoria.Workspace, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(ws.Dir(), rel))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestRetainProposals infers facts from the page, accepts one and rejects
// another: the accepted fact is in its log's Retain section (and
// recalled), the rejected one gone from the review file, the logs
// otherwise as they were.
func TestRetainProposals(t *testing.T) {
	t.Parallel()
	ws := example(t)
	ts := serve(t, ws, "")
	if status, body := post(t, ts, "/api/infer", `{"now":"2025-12-01"}`); status != 200 || !strings.Contains(body, `"added":`) {
		t.Fatalf("infer: %d %s", status, body)
	}
	p := getProposals(t, ts)
	if p.Retain.Total < 2 {
		t.Fatalf("%d proposals after infer, want several", p.Retain.Total)
	}
	acc, rej := p.Retain.Items[0], p.Retain.Items[1]
	log := strings.SplitN(acc.Source, "#", 2)[0]
	before := read(t, ws, log)
	status, body := post(t, ts, "/api/proposals/retain/accept", `{"id":"`+acc.ID+`"}`)
	if status != 200 {
		t.Fatalf("accept: %d %s", status, body)
	}
	after := read(t, ws, log)
	if !strings.Contains(after, "## Retain") || !strings.Contains(after, acc.Fact) {
		t.Errorf("%s after accepting lacks the fact %q:\n%s", log, acc.Fact, after)
	}
	if !strings.HasPrefix(after, strings.TrimRight(before, "\n")) {
		t.Errorf("accepting changed the log's existing text")
	}
	var res struct {
		Accepted []struct{ Bullet, Source string }
	}
	json.Unmarshal([]byte(body), &res)
	if len(res.Accepted) != 1 {
		t.Fatalf("accepted %s, want one fact", body)
	}
	if lines, err := ws.Get(res.Accepted[0].Source); err != nil || !strings.Contains(lines.Text, acc.Fact) {
		t.Errorf("the accepted fact's citation %s reads %q, %v", res.Accepted[0].Source, lines.Text, err)
	}
	review := read(t, ws, memoria.ReviewFile)
	if strings.Contains(review, acc.Fact) {
		t.Errorf("the accepted fact is still in the review file")
	}
	status, body = post(t, ts, "/api/proposals/retain/reject", `{"id":"`+rej.ID+`"}`)
	if status != 200 {
		t.Fatalf("reject: %d %s", status, body)
	}
	if review := read(t, ws, memoria.ReviewFile); strings.Contains(review, rej.Fact+" (from "+rej.Source) {
		t.Errorf("the rejected fact is still in the review file")
	}
	if got := getProposals(t, ts).Retain.Total; got != p.Retain.Total-2 {
		t.Errorf("%d proposals left, want %d", got, p.Retain.Total-2)
	}
	for _, c := range []struct{ path, body string }{
		{"/api/proposals/retain/accept", `{"id":"` + acc.ID + `"}`},
		{"/api/proposals/retain/reject", `{"id":"r_000000000000"}`},
	} {
		if status, body := post(t, ts, c.path, c.body); status != http.StatusConflict {
			t.Errorf("%s %s again: %d %s; want 409", c.path, c.body, status, body)
		}
	}
}

// TestCoreProposals: reflect proposes recurring facts for core memory;
// accepting one from the page appends it to its block of memory.md and
// ticks it, rejecting one marks it [-]; neither can be decided twice.
func TestCoreProposals(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	files := map[string]string{
		"memory.md": "# Core memory\n\n## Facts\n- Lives in Vienna.\n\n## Preferences\n- Short replies.\n",
	}
	for i, day := range []string{"2025-11-01", "2025-11-02", "2025-11-03"} {
		files["memory/"+day+".md"] = "# " + day + "\n\nA day.\n\n## Retain\n- W @Peter: Drinks oat-milk flat whites.\n- O(c=0.8) @Peter: Prefers trains to planes.\n- W Day " + string(rune('A'+i)) + " note.\n"
	}
	for rel, text := range files {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, rel)), 0o755)
		if err := os.WriteFile(filepath.Join(dir, rel), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ws := open(t, dir)
	if _, err := ws.Reflect(context.Background(), memoria.ReflectOptions{Now: time.Date(2025, 11, 4, 0, 0, 0, 0, time.UTC), Lexical: true}); err != nil {
		t.Fatal(err)
	}
	ts := serve(t, ws, "")
	p := getProposals(t, ts)
	if p.Core.Total != 2 {
		t.Fatalf("core proposals %+v, want 2", p.Core.Items)
	}
	var fact, pref memoria.CoreProposal
	for _, c := range p.Core.Items {
		if c.Block == "Facts" {
			fact = c
		} else {
			pref = c
		}
	}
	if fact.Text != "- Peter: Drinks oat-milk flat whites." || len(fact.Sources) != 3 || fact.State != "open" {
		t.Fatalf("fact proposal %+v", fact)
	}
	if status, body := post(t, ts, "/api/proposals/core/accept", `{"id":"`+fact.ID+`"}`); status != 200 {
		t.Fatalf("accept: %d %s", status, body)
	}
	core := read(t, ws, "memory.md")
	if want := "## Facts\n- Lives in Vienna.\n- Peter: Drinks oat-milk flat whites.\n"; !strings.Contains(core, want) {
		t.Errorf("memory.md after accepting:\n%s\nwant it to hold %q", core, want)
	}
	if status, body := post(t, ts, "/api/proposals/core/reject", `{"id":"`+pref.ID+`"}`); status != 200 {
		t.Fatalf("reject: %d %s", status, body)
	}
	props := read(t, ws, memoria.CoreProposalsFile)
	if !strings.Contains(props, "- [x] Facts:") || !strings.Contains(props, "- [-] Preferences:") {
		t.Errorf("proposals file after the decisions:\n%s", props)
	}
	if read(t, ws, "memory.md") != core {
		t.Errorf("rejecting changed memory.md")
	}
	for _, c := range []struct{ path, id string }{
		{"/api/proposals/core/accept", fact.ID}, {"/api/proposals/core/reject", pref.ID}, {"/api/proposals/core/accept", "p_0000000000"},
	} {
		if status, body := post(t, ts, c.path, `{"id":"`+c.id+`"}`); status < 400 || status >= 500 {
			t.Errorf("%s %s again: %d %s; want a refusal", c.path, c.id, status, body)
		}
	}
	if read(t, ws, "memory.md") != core {
		t.Errorf("a refused decision changed memory.md")
	}
	// A second reflect does not propose the decided facts again.
	if _, err := ws.Reflect(context.Background(), memoria.ReflectOptions{Now: time.Date(2025, 11, 4, 0, 0, 0, 0, time.UTC), Lexical: true}); err != nil {
		t.Fatal(err)
	}
	if got := getProposals(t, ts).Core.Total; got != 2 {
		t.Errorf("%d core proposals after reflecting again, want the 2 decided ones", got)
	}
}
