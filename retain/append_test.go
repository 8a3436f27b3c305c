package retain

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"memoria/markdown"
)

var update = flag.Bool("update", false, "rewrite testdata/append/*.out.md")

// goldenFacts are appended to every testdata/append/*.in.md.
var goldenFacts = []string{"W @Peter: golden fact one.", "O(c=0.8) @Peter @Andy: golden fact two."}

func mustFacts(t testing.TB, texts ...string) []Fact {
	t.Helper()
	var fs []Fact
	for _, s := range texts {
		f, err := Validate(s)
		if err != nil {
			t.Fatal(err)
		}
		fs = append(fs, f)
	}
	return fs
}

// TestAppendGolden appends goldenFacts to each input and compares with the
// golden output; it also checks that removing the added lines gives back
// the input byte for byte (apart from what creating a section needs).
func TestAppendGolden(t *testing.T) {
	ins, _ := filepath.Glob(filepath.Join("testdata", "append", "*.in.md"))
	if len(ins) < 10 {
		t.Fatalf("only %d golden inputs", len(ins))
	}
	facts := mustFacts(t, goldenFacts...)
	for _, in := range ins {
		name := strings.TrimSuffix(filepath.Base(in), ".in.md")
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			res, err := Append(data, "2025-11-27", facts)
			if err != nil {
				t.Fatal(err)
			}
			golden := strings.TrimSuffix(in, ".in.md") + ".out.md"
			if *update {
				if err := os.WriteFile(golden, res.Data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./retain -update)", err)
			}
			if !bytes.Equal(res.Data, want) {
				t.Errorf("got:\n%q\nwant:\n%q", res.Data, want)
			}
			// The added bullets are facts on the lines reported.
			doc, err := markdown.Parse("memory/2025-11-27.md", res.Data)
			if err != nil {
				t.Fatal(err)
			}
			lines := markdown.RawLines(res.Data)
			for i, l := range res.Lines {
				got := strings.TrimRight(string(lines[l-1]), "\r\n")
				if got != res.Added[i] {
					t.Errorf("line %d is %q, want %q", l, got, res.Added[i])
				}
				found := false
				for _, f := range doc.Facts {
					found = found || f.Source.Start == l
				}
				if !found {
					t.Errorf("line %d does not parse as a fact", l)
				}
			}
			// Outside the added lines, the input is intact.
			var rest []byte
			skip := map[int]bool{}
			for _, l := range res.Lines {
				skip[l] = true
			}
			for i, l := range lines {
				if !skip[i+1] {
					rest = append(rest, l...)
				}
			}
			if !bytes.HasPrefix(rest, bytes.TrimRight(data, "\r\n")) && len(bytes.TrimSpace(data)) > 0 {
				t.Errorf("input not preserved:\n%q\nbecame (added lines removed)\n%q", data, rest)
			}
			if strings.Contains(string(data), "\r\n") && strings.Count(string(res.Data), "\n") != strings.Count(string(res.Data), "\r\n") {
				t.Error("CRLF file got LF line endings")
			}
		})
	}
}

func TestAppendPreservesExactlyWhenSectionExists(t *testing.T) {
	// With a Retain section and a final newline, the output is the input
	// with whole lines inserted: nothing else changes.
	for _, name := range []string{"crlf", "lowercase-heading", "edited-heading", "two-sections", "subheading", "front-matter", "bom-trailing-space"} {
		data, err := os.ReadFile(filepath.Join("testdata", "append", name+".in.md"))
		if err != nil {
			t.Fatal(err)
		}
		res, err := Append(data, "x", mustFacts(t, goldenFacts...))
		if err != nil {
			t.Fatal(err)
		}
		lines := markdown.RawLines(res.Data)
		var rest []byte
		for i, l := range lines {
			if i+1 < res.Lines[0] || i+1 > res.Lines[len(res.Lines)-1] {
				rest = append(rest, l...)
			}
		}
		if !bytes.Equal(rest, data) {
			t.Errorf("%s: bytes outside the added lines changed:\n%q\n%q", name, data, rest)
		}
	}
}

func TestAppendDuplicateSkipped(t *testing.T) {
	data := []byte("## Retain\n- W @Peter: golden fact one.\n")
	res, err := Append(data, "", mustFacts(t, goldenFacts...))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Skipped) != 1 || len(res.Added) != 1 {
		t.Errorf("skipped %v, added %v", res.Skipped, res.Added)
	}
	res2, err := Append(res.Data, "", mustFacts(t, goldenFacts...))
	if err != nil || !bytes.Equal(res2.Data, res.Data) || len(res2.Added) != 0 {
		t.Errorf("second append changed the file: %v %q", err, res2.Data)
	}
}

func TestAppendRefusesUnclosedFence(t *testing.T) {
	data := []byte("## Retain\n- W fact.\n```\nopen code\n")
	if _, err := Append(data, "", mustFacts(t, goldenFacts...)); err == nil {
		t.Fatal("appended into an open code block")
	}
}
