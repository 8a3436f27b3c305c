package eval

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"memoria/memory"
)

// TestCheckCitations: a citation must name a memory file of the workspace
// that exists, with a line range inside it and no blank line in it.
func TestCheckCitations(t *testing.T) {
	ws := t.TempDir()
	if err := os.MkdirAll(filepath.Join(ws, "memory"), 0o755); err != nil {
		t.Fatal(err)
	}
	log := "# 2026-01-05\n\n- Went with the slate roof.\n- The tiles needed a new frame.\n"
	if err := os.WriteFile(filepath.Join(ws, "memory", "2026-01-05.md"), []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		cite string
		want string // in the error; "" for none
	}{
		{"memory/2026-01-05.md#L3", ""},
		{"memory/2026-01-05.md#L3-L4", ""},
		{"memory/2026-01-05.md#L1-L3", "line 2 is blank"},
		{"memory/2026-01-05.md#L4-L5", "past the end"},
		{"memory/2026-01-06.md#L1", "does not exist"},
		{"notes/todo.md#L1", "not a workspace memory file"},
	}
	for _, tc := range tests {
		srcs, err := parseSources([]string{tc.cite})
		if err != nil {
			t.Fatalf("%s: %v", tc.cite, err)
		}
		q := Query{ID: "q", Workspace: ws, Gold: srcs}
		errs := CheckCitations([]Query{q})
		switch {
		case tc.want == "" && len(errs) > 0:
			t.Errorf("%s: %v, want none", tc.cite, errs)
		case tc.want != "" && (len(errs) != 1 || !strings.Contains(errs[0].Error(), tc.want)):
			t.Errorf("%s: %v, want one error saying %q", tc.cite, errs, tc.want)
		}
	}
	// Superseded citations are checked as gold ones are.
	bad := Query{ID: "q", Workspace: ws, Superseded: []memory.Source{{Path: "memory/2026-01-05.md", Start: 2, End: 2}}}
	if errs := CheckCitations([]Query{bad}); len(errs) != 1 {
		t.Errorf("a blank superseded line: %v, want one error", errs)
	}
}
