package markdown

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"
	"unicode"

	"memoria/memory"
)

// referenceLines splits data into lines independently of the parser: the
// lines a citation must point at, trailing white space removed.
func referenceLines(data []byte) []string {
	s := string(bytes.ToValidUTF8(data, []byte("\uFFFD")))
	s = strings.TrimPrefix(s, "\uFEFF")
	if s == "" {
		return nil
	}
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRightFunc(l, unicode.IsSpace)
	}
	return lines
}

// checkInvariants verifies what must hold for any input: sources lie
// within the file with Start ≤ End, a passage's Text is exactly its cited
// lines and neither starts nor ends with a blank line, no line is cited by
// two passages or by a passage and a fact, fact IDs match their content,
// and every entity is a safe slug.
func checkInvariants(t testing.TB, data []byte, doc *memory.Document) {
	t.Helper()
	lines := referenceLines(data)
	owner := make([]string, len(lines)+1)
	claim := func(what string, src memory.Source) bool {
		t.Helper()
		if src.Path != doc.Path {
			t.Errorf("%s: source path %q, want %q", what, src.Path, doc.Path)
		}
		if src.Start < 1 || src.Start > src.End || src.End > len(lines) {
			t.Errorf("%s: source %s outside 1..%d or reversed", what, src, len(lines))
			return false
		}
		for l := src.Start; l <= src.End; l++ {
			if owner[l] != "" {
				t.Errorf("%s: line %d already cited by %s", what, l, owner[l])
			}
			owner[l] = what
		}
		return true
	}
	checkEntities := func(what string, ents []string) {
		t.Helper()
		for _, e := range ents {
			if err := memory.ValidateSlug(e); err != nil {
				t.Errorf("%s: entity %q: %v", what, e, err)
			}
		}
	}
	for i, p := range doc.Passages {
		what := "passage " + p.Source.String()
		if !claim(what, p.Source) {
			continue
		}
		want := strings.Join(lines[p.Source.Start-1:p.Source.End], "\n")
		if p.Text != want {
			t.Errorf("passage %d %s: Text %q, cited lines %q", i, p.Source, p.Text, want)
		}
		if lines[p.Source.Start-1] == "" || lines[p.Source.End-1] == "" {
			t.Errorf("passage %d %s starts or ends with a blank line", i, p.Source)
		}
		checkEntities(what, p.Entities)
	}
	for _, f := range doc.Facts {
		what := "fact " + f.Source.String()
		claim(what, f.Source)
		if strings.TrimSpace(f.Text) == "" {
			t.Errorf("%s: empty text", what)
		}
		if !f.Kind.IsFact() {
			t.Errorf("%s: kind %q", what, f.Kind)
		}
		if id := memory.FactID(f.Kind, f.Text, f.Entities); f.ID != id {
			t.Errorf("%s: ID %s, want %s", what, f.ID, id)
		}
		if f.HasConfidence && (f.Confidence < 0 || f.Confidence > 1) {
			t.Errorf("%s: confidence %v", what, f.Confidence)
		}
		checkEntities(what, f.Entities)
	}
	for _, w := range doc.Warnings {
		if w.Line < 0 || w.Line > len(lines) {
			t.Errorf("warning %q at line %d outside 0..%d", w.Message, w.Line, len(lines))
		}
	}
}

// fuzzPaths are the workspace paths a fuzz input is parsed as, one for each
// kind of file.
var fuzzPaths = []string{
	"memory/2025-11-27.md",
	"MEMORY.md",
	"bank/opinions.md",
	"bank/world.md",
	"bank/experience.md",
	"bank/entities/Peter.md",
	"bank/entities/..md",
	"memory/notes.md",
}

func FuzzParse(f *testing.F) {
	for i, name := range testdataFiles(f) {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(uint8(i), data)
	}
	for i, s := range []string{
		"",
		"\n",
		"---\n",
		"---\n---\n",
		"---\naliases: [a, 'b', \"c\\\"\n---\n# x\n",
		"## Retain\n- W @Peter: x\n  y\n  - z\n\n  w\n- Q\n",
		"## retain\r\n- O(c=1.7) @a@b x\r\n- O( c = .5 ):\r\n- S\r\n",
		"- W @../../etc: x @.a @b- @c_ @-\n",
		"```\n- W x\n",
		"- a\n  ```\n  b\n```\n  c\n",
		"~~~~\n~~~\n~~~~~\nx",
		"| a |\n|---|\n| b |\npara\n",
		"\xff\xfe\n\x80@x\n",
		"\uFEFF# T\n\n\n\n a\n\n\n",
		"1. W x\n2) y\n* * *\n+ z\n",
		"- W `@types/node` and @x`\n",
		"#######\n# \n#\n## Retain ##\n- B:\tx\n",
		"\t- W x\n \t\n\t\ty\n",
	} {
		f.Add(uint8(i), []byte(s))
	}
	f.Fuzz(func(t *testing.T, sel uint8, data []byte) {
		rel := fuzzPaths[int(sel)%len(fuzzPaths)]
		opts := Options{MaxPassageLines: int(sel/8) % 5}
		doc, err := ParseWith(rel, data, opts)
		if err != nil {
			if !errors.Is(err, ErrBinary) {
				t.Fatalf("unexpected error %v", err)
			}
			if !IsBinary(data) {
				t.Fatalf("ErrBinary for text")
			}
			return
		}
		checkInvariants(t, data, doc)
		max := opts.MaxPassageLines
		if max <= 0 {
			max = DefaultMaxPassageLines
		}
		for _, p := range doc.Passages {
			if p.Source.Lines() > max {
				t.Errorf("passage %s longer than %d lines", p.Source, max)
			}
		}
	})
}
