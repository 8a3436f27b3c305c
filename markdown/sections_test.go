package markdown

import (
	"testing"

	"memoria/memory"
)

func TestHeadings(t *testing.T) {
	src := "---\ntitle: x\n---\n# Day\n\n## Retain (edited)\n- W a\n```\n## not a heading\n```\n### Sub\n## retain\n## Notes ##\n- ## in a list item\n"
	hs, err := Headings([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := []Heading{
		{Line: 4, Level: 1, Text: "Day"},
		{Line: 6, Level: 2, Text: "Retain (edited)", Retain: true},
		{Line: 11, Level: 3, Text: "Sub"},
		{Line: 12, Level: 2, Text: "retain", Retain: true},
		{Line: 13, Level: 2, Text: "Notes"},
	}
	if len(hs) != len(want) {
		t.Fatalf("got %+v", hs)
	}
	for i := range want {
		if hs[i] != want[i] {
			t.Errorf("heading %d: %+v, want %+v", i, hs[i], want[i])
		}
	}
	if _, err := Headings([]byte("a\x00b")); err == nil {
		t.Error("binary accepted")
	}
}

func TestParsePrefix(t *testing.T) {
	tests := []struct {
		in   string
		ok   bool
		want Prefix
	}{
		{"O(c=0.8) @Peter: x", true, Prefix{Kind: memory.KindOpinion, Confidence: 0.8, HasConfidence: true, Rest: "@Peter: x"}},
		{"O(c=1.7) x", true, Prefix{Kind: memory.KindOpinion, BadConfidence: "1.7", Rest: "x"}},
		{"W: x", true, Prefix{Kind: memory.KindWorld, Rest: "x"}},
		{"X x", false, Prefix{}},
		{"Wx", false, Prefix{}},
	}
	for _, tt := range tests {
		got, ok := ParsePrefix(tt.in)
		if ok != tt.ok || got != tt.want {
			t.Errorf("ParsePrefix(%q) = %+v, %v", tt.in, got, ok)
		}
	}
}
