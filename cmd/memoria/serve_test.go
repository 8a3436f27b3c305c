package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"memoria/internal/testworkspace"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"memoria/mcp"
)

// startStdioClient starts `memoria serve` on ws as a subprocess and
// connects the SDK's own client to it over stdio.
func startStdioClient(t testing.TB, ws string, extra ...string) *sdk.ClientSession {
	t.Helper()
	cmd := exec.Command(binary, append([]string{"serve", "-w", ws}, extra...)...)
	cmd.Env = []string{"HOME=" + t.TempDir(), "PATH=" + os.Getenv("PATH")}
	cmd.Stderr = &testLog{t: t, prefix: "server: "}
	client := sdk.NewClient(&sdk.Implementation{Name: "memoria-test", Version: "1"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cs, err := client.Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// testLog forwards a subprocess's stderr to the test log.
type testLog struct {
	t      testing.TB
	prefix string
}

func (l *testLog) Write(p []byte) (int, error) {
	for _, line := range strings.Split(strings.TrimRight(string(p), "\n"), "\n") {
		l.t.Log(l.prefix + line)
	}
	return len(p), nil
}

func callTool(t testing.TB, cs *sdk.ClientSession, name string, args map[string]any) *sdk.CallToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return res
}

// structured decodes a tool result's structured content into out; the
// call must have succeeded.
func structured(t testing.TB, res *sdk.CallToolResult, out any) {
	t.Helper()
	if res.IsError {
		t.Fatalf("tool error: %s", resultText(res))
	}
	data, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, out); err != nil {
		t.Fatalf("structured content %s: %v", data, err)
	}
}

func resultText(res *sdk.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// exerciseSession runs the checks common to stdio and HTTP: the tools are
// listed with schemas, recall answers with citations, retain writes the
// log on disk and is recallable at once, get reads the cited lines, bad
// input is a tool error and an unknown tool leaves the session usable.
func exerciseSession(t *testing.T, cs *sdk.ClientSession, ws string) {
	ctx := context.Background()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range tools.Tools {
		names = append(names, tool.Name)
		if tool.Description == "" || tool.InputSchema == nil {
			t.Errorf("tool %s: no description or input schema", tool.Name)
		}
	}
	for _, want := range []string{"recall", "get", "retain", "core", "status", "context", "reflect"} {
		if !slices.Contains(names, want) {
			t.Errorf("tools %v: %s missing", names, want)
		}
	}

	// recall
	var rec mcp.RecallOutput
	structured(t, callTool(t, cs, "recall", map[string]any{"query": "what does Peter prefer on WhatsApp?", "k": 5, "now": "2025-12-01"}), &rec)
	if len(rec.Results) == 0 || len(rec.Results) > 5 {
		t.Fatalf("recall: %d results", len(rec.Results))
	}
	found := false
	for _, r := range rec.Results {
		if !regexp.MustCompile(`^[\w/.-]+\.md#L\d+(-L\d+)?$`).MatchString(r.Source) {
			t.Errorf("recall: bad source %q", r.Source)
		}
		found = found || strings.Contains(r.Content, "WhatsApp")
	}
	if !found {
		t.Errorf("recall: nothing about WhatsApp in %+v", rec.Results)
	}

	// retain: on disk, then recallable, then readable with get
	fact := "W @Peter: Keeps a red sea kayak called Flotsam at the Alte Donau boathouse."
	var ret mcp.RetainOutput
	structured(t, callTool(t, cs, "retain", map[string]any{"facts": []string{fact}, "date": "2025-12-03"}), &ret)
	if ret.Path != "memory/2025-12-03.md" || len(ret.Added) != 1 {
		t.Fatalf("retain: %+v", ret)
	}
	data, err := os.ReadFile(filepath.Join(ws, "memory", "2025-12-03.md"))
	if err != nil || !strings.Contains(string(data), "## Retain\n- "+fact+"\n") {
		t.Fatalf("retain: log on disk is %q (%v)", data, err)
	}
	structured(t, callTool(t, cs, "recall", map[string]any{"query": "kayak Flotsam"}), &rec)
	if len(rec.Results) == 0 || !strings.Contains(rec.Results[0].Content, "Flotsam") || rec.Results[0].Source != ret.Added[0].Source {
		t.Fatalf("recall after retain: %+v (retained at %s)", rec.Results, ret.Added[0].Source)
	}
	var got mcp.GetOutput
	structured(t, callTool(t, cs, "get", map[string]any{"source": ret.Added[0].Source}), &got)
	if got.Content != "- "+fact {
		t.Errorf("get %s: %q", ret.Added[0].Source, got.Content)
	}

	// bad input is a tool error with a useful message, and writes nothing
	res := callTool(t, cs, "retain", map[string]any{"facts": []string{"X @Peter: not a kind"}, "date": "2025-12-04"})
	if !res.IsError || !strings.Contains(resultText(res), "nothing written") {
		t.Errorf("bad fact: isError %v, %q", res.IsError, resultText(res))
	}
	if _, err := os.Stat(filepath.Join(ws, "memory", "2025-12-04.md")); err == nil {
		t.Error("bad fact: a log was written")
	}
	// the zero day is no day: it used to write today's log
	before, _ := os.ReadDir(filepath.Join(ws, "memory"))
	res = callTool(t, cs, "retain", map[string]any{"facts": []string{"W @Peter: Lives in Vienna."}, "date": "0001-01-01"})
	if !res.IsError || !strings.Contains(resultText(res), "1900") {
		t.Errorf("date 0001-01-01: isError %v, %q", res.IsError, resultText(res))
	}
	if after, _ := os.ReadDir(filepath.Join(ws, "memory")); len(after) != len(before) {
		t.Errorf("date 0001-01-01: %d logs, before %d", len(after), len(before))
	}
	res = callTool(t, cs, "get", map[string]any{"source": "memory/2099-01-01.md#L1"})
	if !res.IsError || !strings.Contains(resultText(res), "not found") {
		t.Errorf("get missing: isError %v, %q", res.IsError, resultText(res))
	}
	res = callTool(t, cs, "recall", map[string]any{"query": "x", "k": "many"})
	if !res.IsError {
		t.Errorf("recall with k=\"many\": not an error: %q", resultText(res))
	}
	res = callTool(t, cs, "core", map[string]any{"action": "explode"})
	if !res.IsError {
		t.Errorf("core explode: not an error: %q", resultText(res))
	}
	if _, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "no-such-tool", Arguments: map[string]any{}}); err == nil {
		t.Error("unknown tool: no error")
	}

	// core edit, then the memory.md resource shows it
	var core mcp.CoreOutput
	structured(t, callTool(t, cs, "core", map[string]any{"action": "append", "block": "Preferences", "text": "- Flat white, no sugar."}), &core)
	if !strings.Contains(core.Text, "Flat white") || !strings.HasPrefix(core.Text, "## Preferences") {
		t.Errorf("core append: %q", core.Text)
	}
	rr, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: mcp.CoreURI})
	if err != nil || len(rr.Contents) != 1 || !strings.Contains(rr.Contents[0].Text, "Flat white, no sugar.") {
		t.Fatalf("resource %s: %v %+v", mcp.CoreURI, err, rr)
	}
	var st mcp.StatusOutput
	structured(t, callTool(t, cs, "status", nil), &st)
	if st.Files["log"] == 0 || st.Pending != 0 {
		t.Errorf("status: %+v", st)
	}
	var rf mcp.ReflectOutput
	structured(t, callTool(t, cs, "reflect", map[string]any{"dry_run": true, "now": "2025-12-01"}), &rf)
	if rf.Facts == 0 || len(rf.Changed) == 0 || !strings.Contains(rf.Diff, "+++") {
		t.Errorf("reflect dry run: %d facts, changed %v, diff %d bytes", rf.Facts, rf.Changed, len(rf.Diff))
	}
	var tc struct {
		Tokens, Budget int
		Core           string
	}
	structured(t, callTool(t, cs, "context", map[string]any{"query": "Peter's kayak", "budget": 2500}), &tc)
	if tc.Tokens > 2500 || !strings.Contains(tc.Core, "Flat white") {
		t.Errorf("context: %d tokens of %d, core %q", tc.Tokens, tc.Budget, tc.Core)
	}
}

func TestServeStdioEndToEnd(t *testing.T) {
	needBinary(t)
	ws := testworkspace.CopyExample(t)
	cs := startStdioClient(t, ws)
	exerciseSession(t, cs, ws)
}

// rawServer is `memoria serve` on stdio driven line by line, to send what
// no SDK client would.
type rawServer struct {
	t   *testing.T
	in  io.WriteCloser
	out *bufio.Reader
	cmd *exec.Cmd
}

func startRaw(t *testing.T, ws string) *rawServer {
	cmd := exec.Command(binary, "serve", "-w", ws)
	cmd.Env = []string{"HOME=" + t.TempDir(), "PATH=" + os.Getenv("PATH")}
	cmd.Stderr = &testLog{t: t, prefix: "server: "}
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { in.Close(); cmd.Process.Kill(); cmd.Wait() })
	return &rawServer{t: t, in: in, out: bufio.NewReader(out), cmd: cmd}
}

func (r *rawServer) send(line string) {
	r.t.Helper()
	if _, err := io.WriteString(r.in, line+"\n"); err != nil {
		r.t.Fatalf("send %s: %v (server gone?)", line, err)
	}
}

// reply reads the next message from the server, within a deadline.
func (r *rawServer) reply() map[string]any {
	r.t.Helper()
	type lineErr struct {
		line string
		err  error
	}
	ch := make(chan lineErr, 1)
	go func() {
		l, err := r.out.ReadString('\n')
		ch <- lineErr{l, err}
	}()
	select {
	case le := <-ch:
		if le.err != nil {
			r.t.Fatalf("reading a reply: %v (server gone?)", le.err)
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(le.line), &m); err != nil {
			r.t.Fatalf("reply %q: %v", le.line, err)
		}
		return m
	case <-time.After(60 * time.Second):
		r.t.Fatal("no reply within 60s")
	}
	return nil
}

func errorCode(m map[string]any) int {
	e, _ := m["error"].(map[string]any)
	code, _ := e["code"].(float64)
	return int(code)
}

// TestServeSurvivesMalformedInput sends what a broken client might: text
// that is not JSON, JSON that is not JSON-RPC, a batch, an unknown method,
// an unknown tool, arguments of the wrong type, a line over the size limit.
// Each gets an error reply (or a tool error) and the server keeps serving.
func TestServeSurvivesMalformedInput(t *testing.T) {
	needBinary(t)
	ws := testworkspace.CopyExample(t)
	r := startRaw(t, ws)
	r.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	if m := r.reply(); m["result"] == nil {
		t.Fatalf("initialize: %v", m)
	}
	r.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)

	cases := []struct {
		line string
		id   any // expected id of the reply
		code int // expected JSON-RPC error code; 0: a tool error result
	}{
		{`{this is not json`, nil, -32700},
		{`"just a string"`, nil, -32600},
		{`[]`, nil, -32600},
		{`[{"jsonrpc":"2.0","id":2,"method":"tools/list"}]`, nil, -32600},
		{`{"jsonrpc":"1.0","id":3,"method":"tools/list"}`, 3.0, -32600},
		{`{"jsonrpc":"2.0","id":{"x":1},"method":"tools/list"}`, nil, -32600},
		{`{"jsonrpc":"2.0","id":4,"method":"no/such/method"}`, 4.0, -32601},
		{`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"no-such-tool","arguments":{}}}`, 5.0, -1},
		{`{"jsonrpc":"2.0","id":6,"method":"tools/call","params":"not an object"}`, 6.0, -1},
		{`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"recall","arguments":{"query":5}}}`, 7.0, 0},
		{`{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"recall","arguments":{"query":"x","since":"the day after never"}}}`, 8.0, 0},
		{`{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"core","arguments":{"action":"replace","block":"Nope","old":"a","new":"b"}}}`, 9.0, 0},
		{`{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"get","arguments":{"source":"../../etc/passwd"}}}`, 10.0, 0},
		{`{"jsonrpc":"2.0","id":11,"method":"resources/read","params":{"uri":"memoria://nope"}}`, 11.0, -1},
		{strings.Repeat("x", mcp.MaxMessageBytes+10), nil, -32600},
		// An id without a method, and a request with id null, went
		// unanswered: the client waited for ever.
		{`{"jsonrpc":"2.0","id":12}`, 12.0, -32600},
		{`{"jsonrpc":"2.0","id":null,"method":"tools/list"}`, nil, -32600},
	}
	for _, c := range cases {
		r.send(c.line)
		m := r.reply()
		short := c.line[:min(len(c.line), 60)]
		if m["id"] != c.id {
			t.Errorf("%s: reply id %v, want %v (%v)", short, m["id"], c.id, m)
		}
		switch {
		case c.code == 0:
			res, _ := m["result"].(map[string]any)
			if res == nil || res["isError"] != true {
				t.Errorf("%s: want a tool error, got %v", short, m)
			} else {
				t.Logf("%s → tool error %v", short, res["content"])
			}
		case c.code == -1:
			if errorCode(m) == 0 {
				t.Errorf("%s: want an error, got %v", short, m)
			}
		default:
			if errorCode(m) != c.code {
				t.Errorf("%s: error code %d, want %d (%v)", short, errorCode(m), c.code, m)
			}
		}
	}
	// Still serving: a real recall works.
	r.send(`{"jsonrpc":"2.0","id":99,"method":"tools/call","params":{"name":"recall","arguments":{"query":"Biscuit the beagle","k":3}}}`)
	m := r.reply()
	res, _ := m["result"].(map[string]any)
	if m["id"] != 99.0 || res == nil || res["isError"] == true || !strings.Contains(fmt.Sprint(res["structuredContent"]), "Biscuit") {
		t.Fatalf("recall after malformed input: %v", m)
	}
	if r.cmd.ProcessState != nil {
		t.Fatal("server exited")
	}
}

// startHTTP starts `memoria serve --http 127.0.0.1:0` and returns the
// endpoint URL it reports. Every line the server writes is logged (a
// server with --watch reports its syncs there too), until the test ends.
func startHTTP(t testing.TB, ws string, extra ...string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, binary, append([]string{"serve", "-w", ws, "--http", "127.0.0.1:0"}, extra...)...)
	cmd.Env = []string{"HOME=" + t.TempDir(), "PATH=" + os.Getenv("PATH")}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	endpoint := make(chan string, 1)
	done := make(chan struct{})
	go func() {
		defer close(done)
		re := regexp.MustCompile(`on (http://127\.0\.0\.1:\d+/mcp)`)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				select {
				case endpoint <- m[1]:
				default:
				}
			}
			t.Log("server: " + sc.Text())
		}
	}()
	t.Cleanup(func() { cancel(); <-done; cmd.Wait() })
	select {
	case u := <-endpoint:
		return u
	case <-done:
		t.Fatal("server exited before listening")
	case <-time.After(60 * time.Second):
		t.Fatal("server did not report its address within 60s")
	}
	return ""
}

// bearer adds a bearer token to every request.
type bearer struct {
	token string
	base  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.base.RoundTrip(r)
}

func TestServeHTTPEndToEnd(t *testing.T) {
	needBinary(t)
	ws := testworkspace.CopyExample(t)
	const token = "s3cret-token-for-tests"
	url := startHTTP(t, ws, "--token", token)

	// Without the token, or with a wrong one: 401, before any MCP.
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`
	post := func(auth, body string) *http.Response {
		req, _ := http.NewRequest("POST", url, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp
	}
	for _, auth := range []string{"", "Bearer wrong", "Basic " + token, token} {
		if resp := post(auth, init); resp.StatusCode != http.StatusUnauthorized || resp.Header.Get("WWW-Authenticate") == "" {
			t.Errorf("Authorization %q: status %d, want 401 with WWW-Authenticate", auth, resp.StatusCode)
		}
	}
	// The SDK client without the token cannot connect.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	client := sdk.NewClient(&sdk.Implementation{Name: "memoria-test", Version: "1"}, nil)
	if cs, err := client.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: url, MaxRetries: -1}, nil); err == nil {
		cs.Close()
		t.Error("connected without the token")
	}
	// Malformed bodies with the token: an HTTP error each, nothing more.
	for _, body := range []string{"{not json", "[]", `{"foo":1}`, `{"jsonrpc":"1.0","id":1,"method":"tools/list"}`, "", `{"jsonrpc":"2.0","id":12}`, `{"jsonrpc":"2.0","id":null,"method":"tools/list"}`} {
		if resp := post("Bearer "+token, body); resp.StatusCode < 400 || resp.StatusCode >= 500 {
			t.Errorf("malformed body %q: status %d, want 4xx", body, resp.StatusCode)
		}
	}

	hc := &http.Client{Transport: bearer{token, http.DefaultTransport}}
	cs, err := client.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: url, HTTPClient: hc}, nil)
	if err != nil {
		t.Fatalf("connect with the token: %v", err)
	}
	defer cs.Close()
	exerciseSession(t, cs, ws)
}

// TestServeHTTPOrigin: the MCP specification says servers MUST validate
// Origin. A request from a page of a foreign origin gets 403, with or
// without a token; pages served from this machine and the origins given
// with --allow-origin pass. It used to answer evil.example.com with 200.
func TestServeHTTPOrigin(t *testing.T) {
	needBinary(t)
	ws := testworkspace.CopyExample(t)
	url := startHTTP(t, ws, "--allow-origin", "https://app.example.com")
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`
	for _, c := range []struct {
		origin string
		want   int
	}{
		{"", http.StatusOK},
		{"http://evil.example.com", http.StatusForbidden},
		{"https://app.example.com.evil.example.com", http.StatusForbidden},
		{"null", http.StatusForbidden},
		{"http://localhost:5173", http.StatusOK},
		{"http://127.0.0.1:8080", http.StatusOK},
		{"https://app.example.com", http.StatusOK},
	} {
		req, _ := http.NewRequest("POST", url, strings.NewReader(init))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if c.origin != "" {
			req.Header.Set("Origin", c.origin)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != c.want {
			t.Errorf("Origin %q: status %d, want %d", c.origin, resp.StatusCode, c.want)
		}
	}
}

func TestServeRefusesRemoteAddress(t *testing.T) {
	ws := testworkspace.CopyExample(t)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--http", "0.0.0.0:0"}, "loopback"},
		{[]string{"--http", ":7377"}, "loopback"},
		{[]string{"--http", "192.0.2.1:7377"}, "loopback"},
		{[]string{"--http", "0.0.0.0:0", "--allow-remote"}, "token"},
		{[]string{"--allow-remote"}, "--http"},
		{[]string{"--http", "nonsense"}, "HOST:PORT"},
	} {
		code, _, errOut := cli(t, append([]string{"serve", "-w", ws}, c.args...)...)
		if code != exitUsage || !strings.Contains(errOut, c.want) {
			t.Errorf("serve %v: exit %d, stderr %q; want exit 2 mentioning %q", c.args, code, errOut, c.want)
		}
	}
	for _, addr := range []string{"127.0.0.1:1", "[::1]:1", "localhost:1"} {
		if err := mcp.CheckListenAddr(addr, false); err != nil {
			t.Errorf("%s: %v", addr, err)
		}
	}
}

// TestServeStdioInProcess runs the serve command in-process on a pipe,
// as the CLI tests do, and ends it by closing its stdin.
func TestServeStdioInProcess(t *testing.T) {
	ws := testworkspace.CopyExample(t)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var errOut strings.Builder
	e := &env{stdout: outW, stderr: &errOut, stdin: inR, getenv: func(string) string { return "" },
		home: func() (string, error) { return t.TempDir(), nil }}
	done := make(chan int, 1)
	go func() { done <- run(context.Background(), e, []string{"serve", "-w", ws}); outW.Close() }()
	out := bufio.NewReader(outR)
	send := func(s string) { io.WriteString(inW, s+"\n") }
	read := func() string {
		l, err := out.ReadString('\n')
		if err != nil {
			t.Fatalf("read: %v (stderr %q)", err, errOut.String())
		}
		return l
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	if l := read(); !strings.Contains(l, `"serverInfo"`) {
		t.Fatalf("initialize: %s", l)
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send(`nonsense`)
	if l := read(); !strings.Contains(l, "-32700") {
		t.Errorf("nonsense: %s", l)
	}
	send(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	if l := read(); !strings.Contains(l, `"recall"`) || !strings.Contains(l, `"inputSchema"`) {
		t.Errorf("tools/list: %s", l)
	}
	inW.Close()
	select {
	case code := <-done:
		if code != exitOK {
			t.Errorf("exit %d, stderr %q", code, errOut.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatal("serve did not end when stdin closed")
	}
}

// BenchmarkMCPRecall measures a recall through the running MCP server,
// round trip (client → stdio → server → index → client), and reports the
// median and 90th percentile.
func BenchmarkMCPRecall(b *testing.B) {
	if binary == "" {
		b.Skip("needs the binary (not built with -short)")
	}
	ws := b.TempDir()
	if err := os.CopyFS(ws, os.DirFS(filepath.Join("..", "..", "examples", "workspace"))); err != nil {
		b.Fatal(err)
	}
	os.RemoveAll(filepath.Join(ws, ".memory"))
	cs := startStdioClient(b, ws)
	queries := []string{"what does Peter prefer on WhatsApp?", "when is Andy's birthday", "Baileys crash fix", "where does Clara live", "hosting costs"}
	callTool(b, cs, "recall", map[string]any{"query": queries[0]}) // warm up
	var d []time.Duration
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		start := time.Now()
		res := callTool(b, cs, "recall", map[string]any{"query": queries[i%len(queries)], "k": 10})
		d = append(d, time.Since(start))
		if res.IsError {
			b.Fatal(resultText(res))
		}
	}
	sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
	b.ReportMetric(float64(d[len(d)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(d[len(d)*9/10].Microseconds())/1000, "p90-ms")
}

// TestServeWatch checks that `serve --watch` indexes a file written
// behind the server's back without any tool call syncing it: the status
// tool, which does not sync, is polled until the index has caught up.
func TestServeWatch(t *testing.T) {
	needBinary(t)
	ws := testworkspace.CopyExample(t)
	cs := startStdioClient(t, ws, "--watch")
	var st mcp.StatusOutput
	structured(t, callTool(t, cs, "status", nil), &st)
	before := st.Files["log"]
	if err := os.WriteFile(filepath.Join(ws, "memory", "2025-12-08.md"), []byte("# 2025-12-08\n\nA heron stole the koi.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	pollUntil(t, func() bool {
		structured(t, callTool(t, cs, "status", nil), &st)
		return st.Files["log"] == before+1 && st.Pending == 0
	}, func() string { return fmt.Sprintf("not indexed: %+v", st) })
}

// pollUntil calls done until it reports true, every 20 ms for 30 s at
// most, and fails with why() then.
func pollUntil(t *testing.T, done func() bool, why func() string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !done() {
		if time.Now().After(deadline) {
			t.Fatalf("within 30s: %s", why())
		}
		time.Sleep(20 * time.Millisecond) // polling interval, not synchronisation
	}
}

// TestServeYieldsToRebuild: `memoria index --rebuild` in another process
// does not wait for `memoria serve` (it used to wait 30 s for the index and
// fail): the rebuild writes the new index into the open one, and the
// server answers from it. With --watch, the watch goes on too.
func TestServeYieldsToRebuild(t *testing.T) {
	needBinary(t)
	ws := testworkspace.CopyExample(t)
	cs := startStdioClient(t, ws, "--watch")
	var before mcp.StatusOutput
	structured(t, callTool(t, cs, "status", nil), &before)
	out, err := memoriaCmd(context.Background(), "", nil, "index", "-w", ws, "--rebuild", "--no-embed").CombinedOutput()
	if err != nil {
		t.Fatalf("rebuild while serving: %v\n%s", err, out)
	}
	var after mcp.StatusOutput
	structured(t, callTool(t, cs, "status", nil), &after)
	if after.Passages != before.Passages || after.Passages == 0 {
		t.Errorf("after the rebuild: %d passages, before %d", after.Passages, before.Passages)
	}
	// The reopened workspace serves recalls, and its watch indexes a new file.
	if err := os.WriteFile(filepath.Join(ws, "memory", "2025-12-09.md"), []byte("# 2025-12-09\n\nA heron stole the koi again.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var res *sdk.CallToolResult
	pollUntil(t, func() bool {
		res = callTool(t, cs, "recall", map[string]any{"query": "heron koi"})
		return strings.Contains(fmt.Sprint(res.StructuredContent), "2025-12-09")
	}, func() string {
		return fmt.Sprintf("the new file is not recalled after the rebuild: %v", res.StructuredContent)
	})
}

// TestServePage: `memoria serve --http` serves the page beside /mcp, behind
// the same token: refused without it, a cookie from the token link, then
// the page and its API.
func TestServePage(t *testing.T) {
	needBinary(t)
	ws := testworkspace.CopyExample(t)
	const token = "page-token-for-tests"
	base := strings.TrimSuffix(startHTTP(t, ws, "--token", token), "/mcp")
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	get := func(path, cookie string) (*http.Response, string) {
		req, _ := http.NewRequest("GET", base+path, nil)
		if cookie != "" {
			req.Header.Set("Cookie", cookie)
		}
		resp, err := noRedirect.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, string(b)
	}
	for _, p := range []string{"/", "/api/status", "/?token=wrong"} {
		if resp, _ := get(p, ""); resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("GET %s without the token: %d, want 401", p, resp.StatusCode)
		}
	}
	resp, _ := get("/?token="+token, "")
	cookie := strings.SplitN(resp.Header.Get("Set-Cookie"), ";", 2)[0]
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/" || cookie == "" {
		t.Fatalf("the token link: %d to %q, cookie %q; want 303 to / with a cookie", resp.StatusCode, resp.Header.Get("Location"), cookie)
	}
	if resp, body := get("/", cookie); resp.StatusCode != http.StatusOK || !strings.Contains(body, "/app.js") {
		t.Errorf("the page with the cookie: %d %.200s", resp.StatusCode, body)
	}
	if resp, body := get("/api/recall?q=Biscuit", cookie); resp.StatusCode != http.StatusOK || !strings.Contains(body, `"source":"`) {
		t.Errorf("recall with the cookie: %d %.200s", resp.StatusCode, body)
	}
}
