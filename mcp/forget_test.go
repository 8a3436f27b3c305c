package mcp_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"memoria"
	"memoria/mcp"
)

// TestForgetTool: through the MCP client, forget with dry_run reports
// the lines that would go and changes nothing; without it the lines go,
// recall answers without them and get reads the tombstone; a citation of
// anything but a memory file is a tool error that writes nothing.
func TestForgetTool(t *testing.T) {
	t.Parallel()
	_, cs, dir := serve(t, mcp.Tools())
	ctx := context.Background()
	log := filepath.Join(dir, "memory", "2025-11-27.md")
	before, _ := os.ReadFile(log)
	call := func(args map[string]any) (*sdk.CallToolResult, memoria.ForgetReport) {
		t.Helper()
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "forget", Arguments: args})
		if err != nil {
			t.Fatal(err)
		}
		var rep memoria.ForgetReport
		data, _ := json.Marshal(res.StructuredContent)
		json.Unmarshal(data, &rep)
		return res, rep
	}
	args := map[string]any{"sources": []string{"memory/2025-11-27.md#L4"}, "reason": "asked", "now": "2025-12-02", "dry_run": true}
	res, rep := call(args)
	if res.IsError || !rep.DryRun || rep.Lines != 1 || len(rep.Files) != 1 || rep.Files[0].Path != "memory/2025-11-27.md" ||
		rep.Files[0].Lines[0].Line != 4 || !strings.Contains(rep.Files[0].Lines[0].Text, "Prefers concise replies") {
		t.Fatalf("dry run: %+v %+v", res, rep)
	}
	if text := res.Content[0].(*sdk.TextContent).Text; !strings.HasPrefix(text, "Dry run: 1 line in 1 file would be forgotten") || !strings.Contains(text, "L4 - O(c=0.9) @Peter") {
		t.Errorf("dry run text: %q", text)
	}
	if now, _ := os.ReadFile(log); string(now) != string(before) {
		t.Fatal("the dry run changed the log")
	}
	delete(args, "dry_run")
	if res, rep = call(args); res.IsError || rep.DryRun || rep.Lines != 1 || rep.Recorded != 1 {
		t.Fatalf("forget: %+v %+v", res, rep)
	}
	got, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "recall", Arguments: map[string]any{"query": "what does Peter prefer on WhatsApp?"}})
	if err != nil || got.IsError {
		t.Fatalf("recall: %v %+v", err, got)
	}
	if text := got.Content[0].(*sdk.TextContent).Text; strings.Contains(text, "concise replies") {
		t.Errorf("recall after forget: %q", text)
	}
	got, err = cs.CallTool(ctx, &sdk.CallToolParams{Name: "get", Arguments: map[string]any{"source": "memory/2025-11-27.md#L4"}})
	if err != nil || got.IsError || !strings.Contains(got.Content[0].(*sdk.TextContent).Text, "<!-- forgotten 2025-12-02: asked -->") {
		t.Errorf("get where the line was: %v %+v", err, got)
	}
	after, _ := os.ReadFile(log)
	for _, src := range []string{"../outside.md#L1", ".memory/index.sqlite#L1", "memory.md"} {
		res, _ := call(map[string]any{"sources": []string{src}})
		if !res.IsError {
			t.Errorf("forget %s: not refused", src)
		}
	}
	if res, _ := call(map[string]any{}); !res.IsError || !strings.Contains(res.Content[0].(*sdk.TextContent).Text, "say what to forget") {
		t.Errorf("forget of nothing: %+v", res)
	}
	if now, _ := os.ReadFile(log); string(now) != string(after) {
		t.Error("a refused forget changed the log")
	}
}
