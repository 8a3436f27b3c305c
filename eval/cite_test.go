package eval

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

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

// TestCheckSet: a set's queries must have unique ids, be about its
// workspace and of its category, say a question, an answer and a date,
// and have gold lines when scored and none when abstentions.
func TestCheckSet(t *testing.T) {
	ws := t.TempDir()
	if err := os.MkdirAll(filepath.Join(ws, "memory"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, "memory", "2026-01-05.md"), []byte("# 2026-01-05\n\n- Went with the slate roof.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gold := []memory.Source{{Path: "memory/2026-01-05.md", Start: 3, End: 3}}
	now := time.Date(2026, 2, 1, 9, 0, 0, 0, time.UTC)
	good := Query{ID: "q1", Workspace: ws, Category: "decision", Question: "Which roof?", Answer: "Slate.", Now: now, Scored: true, Gold: gold}
	abstention := Query{ID: "q2", Workspace: ws, Category: "decision", Question: "Which gate?", Answer: "None.", Now: now, Abstention: true}
	scored, abstentions, errs := CheckSet([]Query{good, abstention}, ws, "decision")
	if scored != 1 || abstentions != 1 || len(errs) != 0 {
		t.Fatalf("a good set: %d scored, %d abstentions, errors %v", scored, abstentions, errs)
	}
	for _, tc := range []struct {
		name string
		bad  func(q Query) Query
		want string
	}{
		{"a duplicate id", func(q Query) Query { q.ID = "q2"; return q }, "duplicate id"},
		{"another workspace", func(q Query) Query { q.Workspace = t.TempDir(); return q }, "workspace"},
		{"another type", func(q Query) Query { q.Category = "update"; return q }, "want decision"},
		{"no answer", func(q Query) Query { q.Answer = ""; return q }, "an answer"},
		{"no gold", func(q Query) Query { q.Gold = nil; return q }, "needs gold"},
		{"an abstention with gold", func(q Query) Query { q.Abstention = true; return q }, "abstention"},
	} {
		_, _, errs := CheckSet([]Query{tc.bad(good), abstention}, ws, "decision")
		if len(errs) == 0 || !strings.Contains(errs[0].Error(), tc.want) {
			t.Errorf("%s: %v, want an error saying %q", tc.name, errs, tc.want)
		}
	}
}

// TestCheckSetDir: a set's folder holds its queries and its workspace, and
// its counts must be the ones asked for.
func TestCheckSetDir(t *testing.T) {
	dir := t.TempDir()
	ws := filepath.Join(dir, "workspace")
	if err := os.MkdirAll(filepath.Join(ws, "memory"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, "memory", "2026-01-05.md"), []byte("# 2026-01-05\n\n- Went with the slate roof.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	q := `{"id": "q1", "type": "decision", "workspace": "workspace", "question_date": "2026-02-01T09:00", "question": "Which roof?", "answer": "Slate.", "gold": ["memory/2026-01-05.md#L3"]}` + "\n"
	if err := os.WriteFile(filepath.Join(dir, "queries.jsonl"), []byte(q), 0o644); err != nil {
		t.Fatal(err)
	}
	if qs, errs := CheckSetDir(dir, "decision", 1, 0); len(qs) != 1 || len(errs) != 0 {
		t.Errorf("a good set: %d queries, errors %v", len(qs), errs)
	}
	if _, errs := CheckSetDir(dir, "decision", 2, 0); len(errs) != 1 || !strings.Contains(errs[0].Error(), "1 scored and 0 abstentions, want 2 and 0") {
		t.Errorf("a count short: %v, want one error naming the counts", errs)
	}
}
