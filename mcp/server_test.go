package mcp_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"memoria"
	"memoria/mcp"
)

// connect serves a small workspace with tools over an in-memory
// transport and returns the SDK client's session.
func connect(t *testing.T, tools []mcp.Tool) *sdk.ClientSession {
	_, cs, _ := serve(t, tools)
	return cs
}

// serve is connect, with the server and the workspace folder.
func serve(t *testing.T, tools []mcp.Tool) (*mcp.Server, *sdk.ClientSession, string) {
	t.Helper()
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "memory"), 0o755)
	os.WriteFile(filepath.Join(dir, "memory.md"), []byte("# Core memory\n\n## Preferences\n- Tea, not coffee.\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "memory", "2025-11-27.md"), []byte("# 2025-11-27\n\n## Retain\n- O(c=0.9) @Peter: Prefers concise replies on WhatsApp.\n"), 0o644)
	ctx, cancel := context.WithCancel(context.Background())
	ws, err := memoria.Open(ctx, dir, memoria.Options{})
	if err != nil {
		t.Fatal(err)
	}
	srv := mcp.NewServer(ws, mcp.Options{Tools: tools})
	st, ct := sdk.NewInMemoryTransports()
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx, st) }()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		cancel()
		<-done
		if ws := srv.Workspace(); ws != nil {
			ws.Close()
		}
	})
	return srv, cs, dir
}

// TestReplace: calls after a Replace run on the workspace it opened; a
// Replace that fails makes calls fail with its error, until one succeeds.
func TestReplace(t *testing.T) {
	srv, cs, dir := serve(t, mcp.Tools())
	ctx := context.Background()
	recall := func(q string) (string, bool) {
		t.Helper()
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "recall", Arguments: map[string]any{"query": q}})
		if err != nil {
			t.Fatal(err)
		}
		return res.Content[0].(*sdk.TextContent).Text, res.IsError
	}
	reopen := func(old *memoria.Workspace) (*memoria.Workspace, error) {
		if old != nil {
			old.Close()
		}
		return memoria.Open(ctx, dir, memoria.Options{})
	}
	os.WriteFile(filepath.Join(dir, "memory", "2025-11-28.md"), []byte("# 2025-11-28\n\nThe zebra crossing is repainted.\n"), 0o644)
	if err := srv.Replace(reopen); err != nil {
		t.Fatal(err)
	}
	if text, isErr := recall("zebra"); isErr || !strings.Contains(text, "zebra") {
		t.Fatalf("after Replace: %q", text)
	}
	gone := errors.New("the index could not be opened")
	if err := srv.Replace(func(old *memoria.Workspace) (*memoria.Workspace, error) { old.Close(); return nil, gone }); err != gone {
		t.Fatalf("failed Replace: %v", err)
	}
	if text, isErr := recall("zebra"); !isErr || !strings.Contains(text, "workspace unavailable: the index could not be opened") {
		t.Fatalf("after a failed Replace: %v %q", isErr, text)
	}
	if err := srv.Replace(reopen); err != nil {
		t.Fatal(err)
	}
	if text, isErr := recall("zebra"); isErr || !strings.Contains(text, "zebra") {
		t.Fatalf("after a second Replace: %q", text)
	}
}

// A tool from elsewhere (as reflect will be) joins through Options.Tools;
// a panic in any tool is a tool error and the session goes on.
func TestExtraToolAndPanic(t *testing.T) {
	boom := mcp.Tool{Name: "boom", Add: func(s *mcp.Server) {
		mcp.AddTool(s, &sdk.Tool{Name: "boom", Description: "panics"}, func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, any, error) {
			panic("kaboom")
		})
	}}
	cs := connect(t, append(mcp.Tools(), boom))
	ctx := context.Background()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "boom", Arguments: map[string]any{}})
	if err != nil || !res.IsError || !strings.Contains(res.Content[0].(*sdk.TextContent).Text, "kaboom") {
		t.Fatalf("boom: %v %+v", err, res)
	}
	res, err = cs.CallTool(ctx, &sdk.CallToolParams{Name: "recall", Arguments: map[string]any{"query": "WhatsApp replies"}})
	if err != nil || res.IsError {
		t.Fatalf("recall after a panic: %v %+v", err, res)
	}
	var out mcp.RecallOutput
	data, _ := json.Marshal(res.StructuredContent)
	if json.Unmarshal(data, &out) != nil || len(out.Results) != 1 || out.Results[0].Source != "memory/2025-11-27.md#L4" {
		t.Fatalf("recall: %s", data)
	}
	if text := res.Content[0].(*sdk.TextContent).Text; !strings.HasPrefix(text, "[1] memory/2025-11-27.md#L4 (opinion") {
		t.Errorf("recall text: %q", text)
	}
}

func TestSchemasAndResource(t *testing.T) {
	cs := connect(t, nil)
	ctx := context.Background()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	schemas := map[string]string{}
	for _, tool := range tools.Tools {
		data, _ := json.Marshal(tool.InputSchema)
		schemas[tool.Name] = string(data)
		if tool.OutputSchema == nil {
			t.Errorf("%s: no output schema", tool.Name)
		}
	}
	if len(schemas) != 8 {
		t.Errorf("tools: %v", schemas)
	}
	for name, want := range map[string]string{
		"recall": `"required":["query"]`,
		"retain": `"required":["facts"]`,
		"get":    `"required":["source"]`,
		"core":   `"enum":["show","append","replace","insert"]`,
	} {
		if !strings.Contains(schemas[name], want) {
			t.Errorf("%s schema %s lacks %s", name, schemas[name], want)
		}
	}
	res, err := cs.ListResources(ctx, nil)
	if err != nil || len(res.Resources) != 1 || res.Resources[0].URI != mcp.CoreURI {
		t.Fatalf("resources: %v %+v", err, res)
	}
	rr, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: mcp.CoreURI})
	if err != nil || !strings.Contains(rr.Contents[0].Text, "Tea, not coffee.") {
		t.Fatalf("read %s: %v %+v", mcp.CoreURI, err, rr)
	}
}

func TestCheckListenAddr(t *testing.T) {
	for addr, ok := range map[string]bool{
		"127.0.0.1:7377": true, "127.0.0.2:0": true, "[::1]:7377": true, "localhost:7377": true, "LOCALHOST:1": true,
		"0.0.0.0:7377": false, ":7377": false, "[::]:7377": false, "192.168.1.20:7377": false, "example.com:80": false,
		"127.0.0.1": false,
	} {
		if err := mcp.CheckListenAddr(addr, false); (err == nil) != ok {
			t.Errorf("%s: %v", addr, err)
		}
	}
	if err := mcp.CheckListenAddr("0.0.0.0:7377", true); err != nil {
		t.Errorf("allowed remote: %v", err)
	}
}

// TestRecallTimeWords: the recall tool takes the time bounds its schema
// names ("last week", "yesterday"), and a bad one is a tool error that
// speaks of the tool's argument, not of a CLI flag. "since": "last week"
// used to fail with "--since: invalid time bound".
func TestRecallTimeWords(t *testing.T) {
	cs := connect(t, mcp.Tools())
	ctx := context.Background()
	call := func(args map[string]any) *sdk.CallToolResult {
		t.Helper()
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "recall", Arguments: args})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	res := call(map[string]any{"query": "Peter", "since": "last week", "until": "this week", "now": "2025-12-01"})
	text := res.Content[0].(*sdk.TextContent).Text
	if res.IsError || !strings.Contains(text, "2025-11-27") {
		t.Errorf("since last week: %v %s", res.IsError, text)
	}
	res = call(map[string]any{"query": "Peter", "since": "the day after never"})
	text = res.Content[0].(*sdk.TextContent).Text
	if !res.IsError || strings.Contains(text, "--") || !strings.Contains(text, `argument "since"`) {
		t.Errorf("bad since: %v %s", res.IsError, text)
	}
}
