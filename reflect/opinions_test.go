package reflect

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"memoria/memory"
)

// view is the parsed content of an opinions file, without raw lines.
func view(t *testing.T, data []byte) [][]string {
	t.Helper()
	f, err := ParseOpinions(data)
	if err != nil {
		t.Fatal(err)
	}
	var out [][]string
	for _, op := range f.Opinions() {
		v := []string{op.Statement, strings.Join(op.Entities, ","), FormatConfidence(op.Confidence)}
		for _, it := range op.Items {
			e := ""
			if it.Evidence != nil {
				e = it.Evidence.String()
			}
			v = append(v, it.Key+"="+it.Value+"|"+e)
		}
		out = append(out, v)
	}
	return out
}

// TestOpinionsRoundTrip: parse → write is byte-identical for files as
// people write them, and parse → change → write → parse keeps every
// change and every hand edit.
func TestOpinionsRoundTrip(t *testing.T) {
	example, err := os.ReadFile(filepath.Join("..", "examples", "workspace", "bank", "opinions.md"))
	if err != nil {
		t.Fatal(err)
	}
	inputs := map[string]string{
		"example":          string(example),
		"empty":            "",
		"no final newline": "# Opinions\n\n- O(c=0.5) @A: x\n  - supports: memory/2025-01-01.md#L3",
		"crlf":             "# Opinions\r\n\r\n- O(c=0.5) @A: likes x\r\n  - last_updated: 2025-01-01\r\n  - supports: f_0123456789ab memory/2025-01-01.md#L3 (c 0.4->0.5)\r\n",
		"hand edits":       "- O @A: no confidence\n  - odd line\n  - why: because\n    continued\n* O(c=.9) @B: star bullet\n\ttabbed: x\n\nprose\n",
	}
	for name, in := range inputs {
		t.Run(name, func(t *testing.T) {
			f, err := ParseOpinions([]byte(in))
			if err != nil {
				t.Fatal(err)
			}
			if got := string(f.Bytes()); got != in {
				t.Fatalf("parse → write changed the file:\n%s", UnifiedDiff("x", []byte(in), []byte(got), false))
			}
			if !reflect.DeepEqual(view(t, f.Bytes()), view(t, []byte(in))) {
				t.Fatal("parse → write → parse differs")
			}
			// Change every opinion, add one; hand-written lines stay.
			for i, op := range f.Opinions() {
				op.setConfidence(0.42)
				op.addEvidence(i%2 == 0, Evidence{FactID: "f_aaaaaaaaaaaa", Source: memory.Source{Path: "memory/2025-02-01.md", Start: 4, End: 4}, Note: "c 0.5->0.42"})
				op.setItem(KeyLastUpdated, "2025-02-01")
			}
			f.Add(&Opinion{Statement: "Brand new,\nover two lines.", Entities: []string{"New"}, Confidence: 0.6, HasConfidence: true,
				Items: []Item{{Key: KeyLastUpdated, Value: "2025-02-02"}}})
			out := f.Bytes()
			v := view(t, out)
			if len(v) != len(f.Opinions()) {
				t.Fatalf("%d opinions read back, %d written:\n%s", len(v), len(f.Opinions()), out)
			}
			for i, op := range v {
				if op[2] != "0.42" && i < len(v)-1 {
					t.Errorf("opinion %d: confidence %s", i, op[2])
				}
			}
			again, _ := ParseOpinions(out)
			if string(again.Bytes()) != string(out) || !reflect.DeepEqual(view(t, again.Bytes()), v) {
				t.Error("second round trip differs")
			}
			for _, l := range strings.Split(in, "\n") {
				if t := strings.TrimSpace(l); strings.HasPrefix(t, "- O") || strings.HasPrefix(t, "* O") || strings.Contains(l, "last_updated") {
					continue
				}
				if !strings.Contains(string(out), l) {
					t.Errorf("hand-written line %q lost:\n%s", l, out)
				}
			}
		})
	}
}

func TestParseEvidence(t *testing.T) {
	tests := []struct {
		in   string
		want Evidence
		ok   bool
	}{
		{"memory/2025-10-09.md#L31", Evidence{Source: memory.Source{Path: "memory/2025-10-09.md", Start: 31, End: 31}}, true},
		{"f_441b24b9fd72 memory/2025-11-27.md#L97-L98 (strong; c 0.8->0.71)",
			Evidence{FactID: "f_441b24b9fd72", Source: memory.Source{Path: "memory/2025-11-27.md", Start: 97, End: 98}, Note: "strong; c 0.8->0.71"}, true},
		{"f_441b24b9fd72", Evidence{FactID: "f_441b24b9fd72"}, true},
		{"a conversation on the phone", Evidence{}, false},
	}
	for _, tt := range tests {
		got, ok := ParseEvidence(tt.in)
		if ok != tt.ok || got != tt.want {
			t.Errorf("ParseEvidence(%q) = %+v, %v", tt.in, got, ok)
		}
		if ok && tt.in != got.String() {
			t.Errorf("String() = %q, want %q", got.String(), tt.in)
		}
	}
}
