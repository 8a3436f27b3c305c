package eval

import (
	"bytes"
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"memoria/memory"
)

func fakeReport(t *testing.T, name string, recall RecallFunc) *Report {
	t.Helper()
	rep, err := Run(context.Background(), fakeQueries(), recall, RunOptions{Name: name})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func TestWriteTable(t *testing.T) {
	got := fakeReport(t, "fake", fakeRecall).Table()
	want := `fake
category    n    R@5   R@10    MRR  NDCG@10  Lines@10
x           2  1.000  1.000  0.750    0.815       6.0
y           2  0.500  0.500  0.125    0.132       7.0
overall     4  0.750  0.750  0.438    0.474       6.5
`
	if got != want {
		t.Errorf("table =\n%s\nwant\n%s", got, want)
	}
}

func TestWriteJSON(t *testing.T) {
	rep := fakeReport(t, "fake", fakeRecall)
	var buf bytes.Buffer
	if err := rep.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{`"name": "fake"`, `"memory/d.md#L4-L6"`, `"first_hit": 2`, `"category": "overall"`} {
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

func TestCitationsJSON(t *testing.T) {
	tests := []struct {
		json    string
		want    Citations
		wantErr bool
	}{
		{`["memory/a.md#L5","memory/a.md#L5-L7","memory/b.md"]`, Citations{src("a", 5, 5), src("a", 5, 7), {Path: "memory/b.md"}}, false},
		{`[]`, Citations{}, false},
		{`["#L5"]`, nil, true},
		{`"memory/a.md"`, nil, true},
	}
	for _, tt := range tests {
		var c Citations
		err := json.Unmarshal([]byte(tt.json), &c)
		if (err != nil) != tt.wantErr {
			t.Errorf("%s: err = %v", tt.json, err)
			continue
		}
		if !tt.wantErr && len(c)+len(tt.want) > 0 && !reflect.DeepEqual(c, tt.want) {
			t.Errorf("%s: got %v, want %v", tt.json, c, tt.want)
		}
	}
}

func TestComparison(t *testing.T) {
	a := fakeReport(t, "base", fakeRecall)
	better := func(ctx context.Context, q Query) ([]memory.Source, error) {
		if q.ID == "e" {
			return []memory.Source{src("d", 2, 2)}, nil
		}
		return fakeRecall(ctx, q)
	}
	b := fakeReport(t, "new", better)
	got := Comparison(a, b)
	lines := strings.Split(strings.TrimSpace(got), "\n")
	if len(lines) != 6 || !strings.Contains(lines[0], "A = base, B = new") {
		t.Fatalf("comparison:\n%s", got)
	}
	// y: R@5 0.5 → 1.0; MRR (0.25+0)/2 → (0.25+1)/2.
	y := strings.Fields(lines[4])
	wantY := []string{"y", "2", "|", "0.500", "1.000", "-0.500", "|", "0.500", "1.000", "-0.500", "|", "0.125", "0.625", "-0.500"}
	if !reflect.DeepEqual(y[:len(wantY)], wantY) {
		t.Errorf("row y = %v, want prefix %v", y, wantY)
	}
	if !strings.HasPrefix(lines[5], "overall") || !strings.HasSuffix(lines[5], "6.5     4.2    +2.2") {
		t.Errorf("overall row = %q, want Lines@10 6.5 → 4.2 (e cites 1 line instead of 10)", lines[5])
	}
}
