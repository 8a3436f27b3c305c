package eval

import (
	"context"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"memoria/memory"
)

func TestMatchExpr(t *testing.T) {
	tests := []struct {
		question, want string
	}{
		{"", ""},
		{"?! -- ...", ""},
		{"What is my kitten's name?", `"What" OR "is" OR "my" OR "kitten's" OR "name?"`},
		{`"OR" AND (NEAR* ^ -- tea`, `"""OR""" OR "AND" OR "(NEAR*" OR "tea"`},
		{"go go  Go", `"go" OR "go" OR "Go"`},
		{"café 2023-05-27", `"café" OR "2023-05-27"`},
	}
	for _, tt := range tests {
		if got := MatchExpr(tt.question); got != tt.want {
			t.Errorf("MatchExpr(%q) = %s, want %s", tt.question, got, tt.want)
		}
	}
}

func TestWindows(t *testing.T) {
	tests := []struct {
		name string
		text string
		size int
		want []Window
	}{
		{"empty", "", 3, nil},
		{"lines skip blanks", "a\n\nb\n", 1, []Window{{1, 1, "a"}, {3, 3, "b"}}},
		{"size 0 means 1", "a", 0, []Window{{1, 1, "a"}}},
		{"threes with short tail", "a\nb\nc\nd\n", 3, []Window{{1, 3, "a\nb\nc"}, {4, 4, "d"}}},
		{"blank window skipped", "a\n\n\n \n\nb", 2, []Window{{1, 2, "a\n"}, {5, 6, "\nb"}}},
		{"crlf", "a\r\nb\r\n", 2, []Window{{1, 2, "a\nb"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Windows(tt.text, tt.size); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Windows = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func tinyQueries(t *testing.T) []Query {
	t.Helper()
	qs, err := LoadQueries(filepath.Join("testdata", "queries.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	return qs
}

func TestBaselineTiny(t *testing.T) {
	qs := tinyQueries(t)
	tests := []struct {
		name   string
		size   int
		k      int
		query  int
		wantTo []memory.Source // expected leading results
		wantN  int
	}{
		{"line kitten", 1, 10, 0, []memory.Source{src("2024-03-01", 5, 5)}, 0},
		{"line marathon", 1, 2, 1, []memory.Source{src("2024-03-01", 12, 12), src("2024-03-01", 13, 13)}, 2},
		{"line syntax characters", 1, 10, 3, []memory.Source{src("2024-04-10", 5, 5)}, 1},
		{"window kitten", 3, 10, 0, []memory.Source{src("2024-03-01", 4, 6)}, 0},
		{"window marathon", 3, 1, 1, []memory.Source{src("2024-03-01", 10, 12)}, 1},
		{"window mug in second file", 3, 10, 2, []memory.Source{src("2024-03-02", 4, 6)}, 0},
		{"window tail", 5, 10, 3, []memory.Source{src("2024-04-10", 1, 5)}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := NewBaseline(tt.size, tt.k)
			defer b.Close()
			got, err := b.Recall(context.Background(), qs[tt.query])
			if err != nil {
				t.Fatal(err)
			}
			if len(got) < len(tt.wantTo) || !reflect.DeepEqual(got[:len(tt.wantTo)], tt.wantTo) {
				t.Errorf("results = %v, want prefix %v", got, tt.wantTo)
			}
			if tt.wantN > 0 && len(got) != tt.wantN {
				t.Errorf("%d results, want %d", len(got), tt.wantN)
			}
			for _, s := range got {
				if s.Lines() > tt.size || s.Lines() < 1 || !strings.HasPrefix(s.Path, "memory/") {
					t.Errorf("bad result %v", s)
				}
			}
		})
	}
}

func TestBaselineRun(t *testing.T) {
	qs := tinyQueries(t)
	for _, tt := range []struct {
		name   string
		recall RecallFunc
	}{
		{"lines", BaselineLines(10)},
		{"windows", BaselineWindows(3, 10)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rep, err := Run(context.Background(), qs, tt.recall, RunOptions{Name: tt.name, Workers: 2})
			if err != nil {
				t.Fatal(err)
			}
			if o := rep.Overall; o.N != 3 || o.R5 != 1 || o.MRR != 1 {
				t.Errorf("overall = %+v, want all 3 scored queries hit at rank 1\n%s", o, rep.Table())
			}
		})
	}
}

func TestBaselineCache(t *testing.T) {
	qs := tinyQueries(t)
	b := NewBaseline(1, 3)
	b.MaxCached = 1
	defer b.Close()
	want := map[string][]memory.Source{}
	for _, q := range qs {
		got, err := b.Recall(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		want[q.ID] = got
	}
	// Hammer both workspaces concurrently with a cache of one: eviction must
	// never close an index in use, and answers must not change.
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 20 {
				q := qs[(w+i)%len(qs)]
				got, err := b.Recall(context.Background(), q)
				if err != nil {
					t.Error(err)
					return
				}
				if !reflect.DeepEqual(got, want[q.ID]) {
					t.Errorf("%s: %v, want %v", q.ID, got, want[q.ID])
				}
			}
		}()
	}
	wg.Wait()
	b.mu.Lock()
	n := len(b.cache)
	b.mu.Unlock()
	if n > 1 {
		t.Errorf("%d indexes cached, want at most 1", n)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if got, err := b.Recall(context.Background(), qs[0]); err != nil || !reflect.DeepEqual(got, want[qs[0].ID]) {
		t.Errorf("after Close: %v, %v", got, err)
	}
}

func TestBaselineErrors(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name string
		b    *Baseline
		q    Query
		want string
	}{
		{"bad size", NewBaseline(0, 10), Query{ID: "x", Workspace: "testdata/ws1", Question: "kitten"}, "must be positive"},
		{"bad k", NewBaseline(1, 0), Query{ID: "x", Workspace: "testdata/ws1", Question: "kitten"}, "must be positive"},
		{"no workspace", NewBaseline(1, 10), Query{ID: "x", Question: "kitten"}, "no workspace"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := tt.b.Recall(ctx, tt.q); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want %q", err, tt.want)
			}
		})
	}
	// A workspace without memory files and a question without terms give
	// no results and no error.
	b := NewBaseline(1, 10)
	defer b.Close()
	for _, q := range []Query{
		{ID: "empty", Workspace: t.TempDir(), Question: "kitten"},
		{ID: "noterms", Workspace: "testdata/ws1", Question: "?!"},
	} {
		if got, err := b.Recall(ctx, q); err != nil || len(got) != 0 {
			t.Errorf("%s: %v, %v; want none", q.ID, got, err)
		}
	}
}
