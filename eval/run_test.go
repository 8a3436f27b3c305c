package eval

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"memoria/memory"
)

// fakeQueries are queries whose answers fakeRecall knows.
func fakeQueries() []Query {
	return []Query{
		{ID: "a", Category: "x", Scored: true, Gold: []memory.Source{src("d", 5, 5)}},
		{ID: "b", Category: "x", Scored: true, Gold: []memory.Source{src("d", 9, 9)}},
		{ID: "c", Category: "y", Scored: true, Gold: []memory.Source{src("d", 1, 1), src("d", 30, 30)}},
		{ID: "d", Category: "y", Scored: false},
		{ID: "e", Category: "y", Scored: true, Gold: []memory.Source{src("d", 2, 2)}},
	}
}

// fakeRecall answers by query id, sleeping a little so that workers
// interleave.
func fakeRecall(_ context.Context, q Query) ([]memory.Source, error) {
	time.Sleep(time.Millisecond)
	switch q.ID {
	case "a": // hit at rank 1
		return []memory.Source{src("d", 4, 6), src("d", 20, 22)}, nil
	case "b": // hit at rank 2
		return []memory.Source{src("d", 1, 3), src("d", 8, 10)}, nil
	case "c": // one of two gold at rank 4
		return append(misses(3), src("d", 30, 30)), nil
	case "d":
		return misses(1), nil
	default: // miss
		return misses(10), nil
	}
}

func TestRun(t *testing.T) {
	var first *Report
	for _, workers := range []int{0, 1, 2, 8} {
		t.Run(fmt.Sprintf("workers=%d", workers), func(t *testing.T) {
			rep, err := Run(context.Background(), fakeQueries(), fakeRecall, RunOptions{Name: "fake", Workers: workers})
			if err != nil {
				t.Fatal(err)
			}
			if rep.Unscored != 1 || rep.Errors != 0 || len(rep.Queries) != 5 {
				t.Fatalf("unscored %d errors %d queries %d", rep.Unscored, rep.Errors, len(rep.Queries))
			}
			for i, q := range rep.Queries {
				if q.ID != fakeQueries()[i].ID {
					t.Errorf("query %d is %s, want input order", i, q.ID)
				}
			}
			o := rep.Overall
			wantMRR := (1 + 0.5 + 0.25 + 0) / 4
			if o.N != 4 || o.R5 != 0.75 || o.R10 != 0.75 || !near(o.MRR, wantMRR) || o.Lines10 != (6+6+4+10)/4.0 {
				t.Errorf("overall = %+v", o)
			}
			if len(rep.Categories) != 2 || rep.Categories[0].Category != "x" || rep.Categories[0].N != 2 ||
				rep.Categories[1].Category != "y" || rep.Categories[1].N != 2 || rep.Categories[0].MRR != 0.75 {
				t.Errorf("categories = %+v", rep.Categories)
			}
			if f := rep.Failures(10); len(f) != 1 || f[0].ID != "e" {
				t.Errorf("failures@10 = %v, want [e]", f)
			}
			if f := rep.Failures(1); len(f) != 3 {
				t.Errorf("failures@1 = %d, want 3", len(f))
			}
			if first == nil {
				first = rep
				return
			}
			for i := range rep.Queries {
				a, b := first.Queries[i], rep.Queries[i]
				a.Latency, b.Latency = 0, 0
				if !reflect.DeepEqual(a, b) {
					t.Errorf("query %s differs with %d workers:\n%+v\n%+v", a.ID, workers, a, b)
				}
			}
		})
	}
}

func TestRunErrors(t *testing.T) {
	boom := errors.New("boom")
	failing := func(ctx context.Context, q Query) ([]memory.Source, error) {
		if q.ID == "b" {
			return nil, boom
		}
		return fakeRecall(ctx, q)
	}
	tests := []struct {
		name    string
		opts    RunOptions
		wantErr bool
	}{
		{"stop", RunOptions{Name: "f"}, true},
		{"stop parallel", RunOptions{Name: "f", Workers: 3}, true},
		{"keep going", RunOptions{KeepGoing: true}, false},
		{"keep going parallel", RunOptions{KeepGoing: true, Workers: 3}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep, err := Run(context.Background(), fakeQueries(), failing, tt.opts)
			if tt.wantErr {
				if !errors.Is(err, boom) || !strings.Contains(err.Error(), "query b") {
					t.Errorf("err = %v, want boom naming query b", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			b := rep.Queries[1]
			if rep.Errors != 1 || !strings.Contains(b.Err, "boom") || b.FirstHit != 0 || len(b.Results) != 0 {
				t.Errorf("errors %d, query b = %+v", rep.Errors, b)
			}
		})
	}
	if _, err := Run(context.Background(), fakeQueries(), nil, RunOptions{}); err == nil {
		t.Error("nil recall: no error")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Run(ctx, fakeQueries(), fakeRecall, RunOptions{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: err = %v", err)
	}
}

func TestRunWholeFileLines(t *testing.T) {
	q := Query{ID: "w", Workspace: filepath.Join("testdata", "ws1"), Scored: true, Gold: []memory.Source{src("2024-03-02", 5, 5)}}
	whole := func(context.Context, Query) ([]memory.Source, error) {
		return []memory.Source{{Path: "memory/2024-03-02.md"}, {Path: "memory/absent.md"}, src("2024-03-01", 1, 2)}, nil
	}
	rep, err := Run(context.Background(), []Query{q}, whole, RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := rep.Queries[0]; got.Lines10 != 6+0+2 || got.FirstHit != 1 {
		t.Errorf("lines10 %d first hit %d, want 8 and 1", got.Lines10, got.FirstHit)
	}
}
