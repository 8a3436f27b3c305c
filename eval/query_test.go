package eval

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"memoria/memory"
)

func TestLoadQueries(t *testing.T) {
	qs, err := LoadQueries(filepath.Join("testdata", "queries.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	ws1, ws2 := filepath.Join("testdata", "ws1"), filepath.Join("testdata", "ws2")
	want := []Query{
		{
			ID: "t/1", Workspace: ws1, Question: "What is my kitten's name?", Answer: "Pixel",
			Now:      time.Date(2024, 3, 5, 10, 30, 0, 0, time.UTC),
			Category: "single-session-user", Scored: true,
			Gold:         []memory.Source{src("2024-03-01", 5, 5)},
			GoldSessions: []memory.Source{src("2024-03-01", 3, 8)},
			GoldDays:     []string{"2024-03-01"},
		},
		{
			ID: "t/2", Workspace: ws1, Question: "How long did my half marathon take?", Answer: "125",
			Now:      time.Date(2024, 3, 6, 7, 0, 0, 0, time.UTC),
			Category: "temporal-reasoning", Scored: true,
			Gold: []memory.Source{src("2024-03-01", 12, 13)},
		},
		{
			ID: "t/3", Workspace: ws1, Question: "Who broke my coffee mug?",
			Category: "multi-session", Scored: false,
		},
		{
			ID: "t/4", Workspace: ws2, Question: `"OR" AND (NEAR* ^ -- ? tea`,
			Category: "single-session-user", Scored: true,
			Gold: []memory.Source{src("2024-04-10", 5, 5)},
		},
	}
	if !reflect.DeepEqual(qs, want) {
		t.Errorf("LoadQueries =\n%+v\nwant\n%+v", qs, want)
	}
}

func TestLoadQueriesErrors(t *testing.T) {
	tests := []struct {
		name, content, wantErr string
	}{
		{"bad json", `{"id": "x",`, ":1: decode"},
		{"missing id", `{"question": "q"}`, "missing id"},
		{"bad date", `{"id": "x", "question_date": "2024-03-05 10:30"}`, "question_date"},
		{"bad gold", "\n" + `{"id": "x", "gold": ["memory/a.md#Lx"]}`, ":2: query x: gold"},
		{"bad sessions", `{"id": "x", "gold_sessions": ["#L1"]}`, "gold_sessions"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "q.jsonl")
			if err := os.WriteFile(path, []byte(tt.content), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := LoadQueries(path)
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("err = %v, want one containing %q", err, tt.wantErr)
			}
		})
	}
	if _, err := LoadQueries(filepath.Join(t.TempDir(), "absent.jsonl")); err == nil {
		t.Error("missing file: no error")
	}
}

func TestLoadQueriesAbsoluteWorkspace(t *testing.T) {
	dir := t.TempDir()
	abs := filepath.Join(dir, "elsewhere")
	path := filepath.Join(dir, "q.jsonl")
	if err := os.WriteFile(path, []byte(`{"id": "x", "workspace": "`+filepath.ToSlash(abs)+`"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	qs, err := LoadQueries(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(qs) != 1 || qs[0].Workspace != abs {
		t.Errorf("workspace = %+v, want %s", qs, abs)
	}
}
