package eval

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"memoria/memory"
)

// day is midnight UTC of an ISO day.
func day(s string) time.Time {
	t, err := time.Parse(DayLayout, s)
	if err != nil {
		panic(err)
	}
	return t
}

// window is the inclusive range of days from start to end.
func window(start, end string) *memory.TimeRange {
	return &memory.TimeRange{Start: day(start), End: day(end)}
}

func TestSourceDay(t *testing.T) {
	tests := []struct {
		path string
		want string // "" when the citation has no day
	}{
		{"memory/2025-10-14.md", "2025-10-14"},
		{"memory/2025-02-30.md", ""},
		{"memory/notes.md", ""},
		{"memory.md", ""},
		{"bank/world.md", ""},
		{"bank/entities/Peter.md", ""},
		{"other/2025-10-14.md", ""},
	}
	for _, tt := range tests {
		got, ok := SourceDay(memory.Source{Path: tt.path, Start: 3, End: 3})
		if ok != (tt.want != "") || (ok && !got.Equal(day(tt.want))) {
			t.Errorf("SourceDay(%s) = %v, %v; want %q", tt.path, got, ok, tt.want)
		}
	}
}

func TestInWindowShare(t *testing.T) {
	w := window("2025-10-14", "2025-10-16")
	core := memory.Source{Path: "memory.md", Start: 1, End: 1}
	entity := memory.Source{Path: "bank/entities/Clara-Mendes.md", Start: 6, End: 7}
	outside := make([]memory.Source, 10)
	for i := range outside {
		outside[i] = src("2025-09-15", i+1, i+1)
	}
	tests := []struct {
		name    string
		results []memory.Source
		k       int
		want    float64
	}{
		{"no results", nil, 10, 0},
		{"all inside", []memory.Source{src("2025-10-14", 5, 5), src("2025-10-16", 1, 3)}, 10, 1},
		{"edges", []memory.Source{src("2025-10-13", 5, 5), src("2025-10-14", 5, 5), src("2025-10-16", 5, 5), src("2025-10-17", 5, 5)}, 10, 0.5},
		{"undated count outside", []memory.Source{src("2025-10-15", 2, 2), core, entity, src("2025-10-20", 1, 1)}, 10, 0.25},
		{"whole file", []memory.Source{{Path: "memory/2025-10-15.md"}}, 10, 1},
		{"beyond cutoff", append(append([]memory.Source(nil), outside...), src("2025-10-14", 1, 1), src("2025-10-15", 1, 1)), 10, 0},
		{"deeper cutoff", append(append([]memory.Source(nil), outside...), src("2025-10-14", 1, 1), src("2025-10-15", 1, 1)), 12, 2.0 / 12},
		{"fewer than k", []memory.Source{src("2025-10-15", 2, 2), src("2025-11-01", 2, 2), src("2025-10-16", 9, 9)}, 10, 2.0 / 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := InWindowShare(tt.results, *w, tt.k); !near(got, tt.want) {
				t.Errorf("InWindowShare = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestCurrentFirst(t *testing.T) {
	gold := []memory.Source{src("2025-10-24", 222, 223)}
	old := []memory.Source{src("2025-09-15", 60, 61)}
	now, was := src("2025-10-24", 222, 222), src("2025-09-15", 61, 61)
	tests := []struct {
		name       string
		results    []memory.Source
		gold, sup  []memory.Source
		k          int
		wantResult bool
	}{
		{"current first", []memory.Source{now, was}, gold, old, 10, true},
		{"superseded first", []memory.Source{was, now}, gold, old, 10, false},
		{"only current", append(misses(3), now), gold, old, 10, true},
		{"only superseded", append(misses(3), was), gold, old, 10, false},
		{"neither", misses(10), gold, old, 10, false},
		{"no results", nil, gold, old, 10, false},
		{"current beyond cutoff", append(misses(10), now), gold, old, 10, false},
		{"superseded beyond cutoff", append(append(misses(2), now), append(misses(8), was)...), gold, old, 10, true},
		{"one result hits both", []memory.Source{src("a", 1, 20)}, []memory.Source{src("a", 10, 10)}, []memory.Source{src("a", 5, 5)}, 10, false},
		{"second superseded range first", []memory.Source{src("2025-09-30", 50, 50), now},
			gold, append([]memory.Source{old[0]}, src("2025-09-30", 50, 50)), 10, false},
		{"deeper k", append(misses(10), now), gold, old, 11, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := CurrentFirst(tt.results, tt.gold, tt.sup, tt.k); got != tt.wantResult {
				t.Errorf("CurrentFirst = %v, want %v", got, tt.wantResult)
			}
		})
	}
}

func TestScoreQuery(t *testing.T) {
	gold := []memory.Source{src("2025-10-14", 5, 5)}
	results := []memory.Source{src("2025-09-30", 1, 1), src("2025-10-14", 5, 5)}
	plain := ScoreQuery(results, Query{Gold: gold})
	if !reflect.DeepEqual(plain, Score(results, gold)) || plain.InWindow != nil || plain.CurrentFirst != nil {
		t.Errorf("plain query: %+v", plain)
	}
	s := ScoreQuery(results, Query{Gold: gold, Window: window("2025-10-01", "2025-10-31"), Superseded: []memory.Source{src("2025-09-30", 1, 1)}})
	if s.InWindow == nil || *s.InWindow != 0.5 || s.CurrentFirst == nil || *s.CurrentFirst || s.FirstHit != 2 {
		t.Errorf("query with window and superseded: %+v", s)
	}
}

func TestLoadQueriesTimeAndUpdate(t *testing.T) {
	content := `{"id": "t", "type": "temporal", "question": "q", "window": {"start": "2025-10-14", "end": "2025-10-16"}, "gold": ["memory/2025-10-14.md#L5"]}
{"id": "u", "type": "update", "question": "q", "asof": "now", "gold": ["memory/2025-10-24.md#L222-L223"], "superseded": ["memory/2025-09-15.md#L60-L61", "bank/world.md#L41"]}
{"id": "p", "type": "update", "asof": "2025-10-01", "gold": ["memory/2025-09-30.md#L50"]}
{"id": "l", "type": "lexical"}
`
	path := filepath.Join(t.TempDir(), "q.jsonl")
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	qs, err := LoadQueries(path)
	if err != nil {
		t.Fatal(err)
	}
	want := []Query{
		{ID: "t", Question: "q", Category: "temporal", Scored: true, Gold: []memory.Source{src("2025-10-14", 5, 5)},
			Window: window("2025-10-14", "2025-10-16")},
		{ID: "u", Question: "q", Category: "update", Scored: true, AsOf: AsOfNow, Gold: []memory.Source{src("2025-10-24", 222, 223)},
			Superseded: []memory.Source{src("2025-09-15", 60, 61), {Path: "bank/world.md", Start: 41, End: 41}}},
		{ID: "p", Category: "update", Scored: true, AsOf: "2025-10-01", Gold: []memory.Source{src("2025-09-30", 50, 50)}},
		{ID: "l", Category: "lexical", Scored: true},
	}
	if !reflect.DeepEqual(qs, want) {
		t.Errorf("LoadQueries =\n%+v\nwant\n%+v", qs, want)
	}

	bad := []struct{ name, line, wantErr string }{
		{"bad start", `{"id": "x", "window": {"start": "2025-10", "end": "2025-10-16"}}`, "window: start"},
		{"missing end", `{"id": "x", "window": {"start": "2025-10-14"}}`, "window: end"},
		{"end before start", `{"id": "x", "window": {"start": "2025-10-16", "end": "2025-10-14"}}`, "before start"},
		{"bad superseded", `{"id": "x", "superseded": ["#L4"]}`, "query x: superseded"},
		{"bad asof", `{"id": "x", "asof": "yesterday"}`, "asof"},
		{"asof with time", `{"id": "x", "asof": "2025-10-01T09:00"}`, "asof"},
	}
	for _, tt := range bad {
		t.Run(tt.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "q.jsonl")
			if err := os.WriteFile(p, []byte(tt.line), 0o644); err != nil {
				t.Fatal(err)
			}
			if _, err := LoadQueries(p); err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("err = %v, want one containing %q", err, tt.wantErr)
			}
		})
	}
}

// typedQueries are queries of the new types with their optional fields.
func typedQueries() []Query {
	return []Query{
		{ID: "l1", Category: "lexical", Scored: true, Gold: []memory.Source{src("a", 5, 5)}},
		{ID: "t1", Category: "temporal", Scored: true, Window: window("2025-10-14", "2025-10-16"),
			Gold: []memory.Source{src("2025-10-14", 5, 5)}},
		{ID: "t2", Category: "temporal", Scored: true, Window: window("2025-10-01", "2025-10-31"),
			Gold: []memory.Source{src("2025-10-02", 3, 3)}},
		{ID: "t3", Category: "temporal", Scored: false, Window: window("2025-10-01", "2025-10-31")},
		{ID: "u1", Category: "update", Scored: true, AsOf: AsOfNow,
			Gold: []memory.Source{src("2025-10-24", 222, 223)}, Superseded: []memory.Source{src("2025-09-15", 60, 61)}},
		{ID: "u2", Category: "update", Scored: true, AsOf: AsOfNow,
			Gold: []memory.Source{src("2025-10-24", 222, 223)}, Superseded: []memory.Source{src("2025-09-15", 60, 61)}},
	}
}

// typedRecall answers typedQueries; fixed makes u1 rank the current fact
// first.
func typedRecall(fixed bool) RecallFunc {
	return func(_ context.Context, q Query) ([]memory.Source, error) {
		switch q.ID {
		case "l1":
			return []memory.Source{src("a", 5, 5)}, nil
		case "t1": // hit at 1; in window: 10-14 and 10-15 of 4 → 0.5
			return []memory.Source{src("2025-10-14", 5, 5), src("2025-10-20", 1, 1), src("2025-10-15", 2, 2),
				{Path: "memory.md", Start: 1, End: 1}}, nil
		case "t2": // miss; 09-30 is outside October → 0
			return []memory.Source{src("2025-09-30", 3, 3)}, nil
		case "t3":
			return []memory.Source{src("2025-10-03", 1, 1)}, nil
		case "u1": // superseded at 1, current at 2 → false (true when fixed)
			if fixed {
				return []memory.Source{src("2025-10-24", 222, 222), src("2025-09-15", 60, 60)}, nil
			}
			return []memory.Source{src("2025-09-15", 60, 60), src("2025-10-24", 222, 222)}, nil
		default: // u2: current only → true
			return []memory.Source{src("2025-10-24", 222, 223)}, nil
		}
	}
}

func TestSummarizeTimeAndUpdate(t *testing.T) {
	rep, err := Run(context.Background(), typedQueries(), typedRecall(false), RunOptions{Name: "typed"})
	if err != nil {
		t.Fatal(err)
	}
	f := func(v float64) *float64 { return &v }
	type want struct {
		n, winN, curN int
		win, cur      *float64
	}
	wants := map[string]want{
		"lexical":  {n: 1},
		"temporal": {n: 2, winN: 2, win: f((0.5 + 0) / 2)},
		"update":   {n: 2, curN: 2, cur: f((0 + 1) / 2.0)},
		Overall:    {n: 5, winN: 2, win: f(0.25), curN: 2, cur: f(0.5)},
	}
	rows := rep.rows()
	if len(rows) != len(wants) {
		t.Fatalf("rows = %+v", rows)
	}
	for _, a := range rows {
		w := wants[a.Category]
		if a.N != w.n || a.InWindowN != w.winN || a.CurrentFirstN != w.curN ||
			!reflect.DeepEqual(a.InWindow, w.win) || !reflect.DeepEqual(a.CurrentFirst, w.cur) {
			t.Errorf("%s: n %d, in-window %d %v, current-first %d %v; want %+v",
				a.Category, a.N, a.InWindowN, ptrString(a.InWindow), a.CurrentFirstN, ptrString(a.CurrentFirst), w)
		}
	}
	if q := rep.Queries[3]; q.Scored || q.InWindow == nil || *q.InWindow != 1 {
		t.Errorf("unscored t3 is still scored per query: %+v", q)
	}
}

func ptrString(v *float64) string {
	if v == nil {
		return "nil"
	}
	b, _ := json.Marshal(*v)
	return string(b)
}

func TestWriteTableTimeAndUpdate(t *testing.T) {
	rep, err := Run(context.Background(), typedQueries(), typedRecall(false), RunOptions{Name: "typed"})
	if err != nil {
		t.Fatal(err)
	}
	// MRR overall (1+1+0+0.5+1)/5; NDCG of u1 is 1/log2(3) = 0.631, so
	// update (0.631+1)/2 = 0.815 and overall (1+1+0+0.631+1)/5 = 0.726;
	// Lines@10 overall (1+4+1+2+2)/5.
	want := `typed
category    n    R@5   R@10    MRR  NDCG@10  Lines@10  InWin@10  CurFirst
lexical     1  1.000  1.000  1.000    1.000       1.0         -         -
temporal    2  0.500  0.500  0.500    0.500       2.5     0.250         -
update      2  1.000  1.000  0.750    0.815       2.0         -     0.500
overall     5  0.800  0.800  0.700    0.726       2.0     0.250     0.500
`
	if got := rep.Table(); got != want {
		t.Errorf("table =\n%s\nwant\n%s", got, want)
	}

	// Only one optional metric present: only its column.
	only := typedQueries()[:4]
	rep2, err := Run(context.Background(), only, typedRecall(false), RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(rep2.Table(), "\n")
	if !strings.HasSuffix(lines[0], "Lines@10  InWin@10") || !strings.HasSuffix(lines[1], "1.0         -") {
		t.Errorf("table with windows only:\n%s", rep2.Table())
	}
}

func TestComparisonTimeAndUpdate(t *testing.T) {
	run := func(fixed bool) *Report {
		rep, err := Run(context.Background(), typedQueries(), typedRecall(fixed), RunOptions{Name: map[bool]string{false: "old", true: "new"}[fixed]})
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	got := Comparison(run(true), run(false))
	lines := strings.Split(strings.TrimSpace(got), "\n")
	if len(lines) != 7 || !strings.Contains(lines[1], "InWin@10") || !strings.Contains(lines[1], "CurFirst") {
		t.Fatalf("comparison:\n%s", got)
	}
	// update: CurFirst 1.0 with the fix, 0.5 without.
	if !strings.HasPrefix(lines[5], "update") || !strings.HasSuffix(lines[5], "|       -       -       - |   1.000   0.500  +0.500") {
		t.Errorf("update row = %q", lines[5])
	}
	// lexical has neither metric.
	if !strings.HasSuffix(lines[3], "|       -       -       - |       -       -       -") {
		t.Errorf("lexical row = %q", lines[3])
	}
}

func TestWriteJSONTimeAndUpdate(t *testing.T) {
	rep, err := Run(context.Background(), typedQueries(), typedRecall(false), RunOptions{Name: "typed"})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := rep.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{`"in_window": 0.5`, `"current_first": false`, `"current_first": true`,
		`"superseded": [`, `"in_window_n": 2`, `"current_first_n": 2`, `"current_first": 0.5`} {
		if !strings.Contains(buf.String(), s) {
			t.Errorf("JSON lacks %s", s)
		}
	}
	var back Report
	if err := json.Unmarshal(buf.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(&back, rep) {
		t.Errorf("JSON round trip differs:\n%+v\n%+v", back, *rep)
	}
}
