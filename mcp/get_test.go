//go:build unix

package mcp_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestGetToolSymlinkIntoIndexDirNotReadable: the get tool refuses a memory
// path that is a symlink to the index (memory/X.md →
// ../.memory/index.sqlite returned the SQLite bytes) and answers with none
// of them.
func TestGetToolSymlinkIntoIndexDirNotReadable(t *testing.T) {
	t.Parallel()
	_, cs, dir := serve(t, nil)
	if err := os.Symlink("../.memory/index.sqlite", filepath.Join(dir, "memory", "X.md")); err != nil {
		t.Fatal(err)
	}
	for _, src := range []string{"memory/X.md", "memory/X.md#L1-L3"} {
		res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "get", Arguments: map[string]any{"source": src}})
		if err != nil {
			t.Fatal(err)
		}
		var text strings.Builder
		for _, c := range res.Content {
			if tc, ok := c.(*sdk.TextContent); ok {
				text.WriteString(tc.Text)
			}
		}
		if !res.IsError || !strings.Contains(text.String(), "not a memory file") || strings.Contains(text.String(), "SQLite") {
			t.Errorf("get %s: error %v, %q", src, res.IsError, text.String())
		}
	}
}
