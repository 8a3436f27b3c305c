package markdown

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"memoria/memory"
)

// factString summarises a fact for comparison:
// "W L2-3 [Peter Andy] c=0.95 text".
func factString(f memory.Fact) string {
	conf := ""
	if f.HasConfidence {
		conf = fmt.Sprintf(" c=%g", f.Confidence)
	}
	return fmt.Sprintf("%s L%d-%d %v%s %s", f.Kind.Letter(), f.Source.Start, f.Source.End, f.Entities, conf, f.Text)
}

// passageString summarises a passage for comparison:
// "L4-5 §Section [Peter] text".
func passageString(p memory.Passage) string {
	return fmt.Sprintf("L%d-%d §%s %v %s", p.Source.Start, p.Source.End, p.Section, p.Entities, p.Text)
}

func warningStrings(ws []memory.Warning) []string {
	var out []string
	for _, w := range ws {
		out = append(out, fmt.Sprintf("L%d %s", w.Line, w.Message))
	}
	return out
}

func TestParse(t *testing.T) {
	const log = "memory/2025-11-27.md"
	tests := []struct {
		name     string
		path     string
		in       string
		opts     Options
		facts    []string
		passages []string
		warnings []string // substrings, one per warning, in order
	}{
		{
			name:     "empty",
			path:     log,
			in:       "",
			facts:    nil,
			passages: nil,
		},
		{
			name:     "CRLF",
			path:     log,
			in:       "## Retain\r\n- W @Peter: hi there \r\n\r\nnarrative\r\n",
			facts:    []string{"W L2-2 [Peter] hi there"},
			passages: []string{"L4-4 §Retain [] narrative"},
		},
		{
			name:     "no final newline",
			path:     log,
			in:       "first line\nsecond line",
			passages: []string{"L1-2 § [] first line\nsecond line"},
		},
		{
			name:  "lower-case retain",
			path:  log,
			in:    "## retain\n- W: plain fact\n",
			facts: []string{"W L2-2 [] plain fact"},
		},
		{
			name:  "retain edited",
			path:  log,
			in:    "# Day\n## Retain (edited)\n- S Weekly summary\n",
			facts: []string{"S L3-3 [] Weekly summary"},
		},
		{
			name:     "retain ends at next level-2 heading, not at level 3",
			path:     log,
			in:       "## Retain\n- W a\n### Sub\n- W b\n## Notes\n- W c\n",
			facts:    []string{"W L2-2 [] a", "W L4-4 [] b"},
			passages: []string{"L6-6 §Notes [] - W c"},
		},
		{
			name:     "typed bullet outside retain in a log is a passage",
			path:     log,
			in:       "- W @Peter: not retained\n",
			passages: []string{"L1-1 § [Peter] - W @Peter: not retained"},
		},
		{
			name:  "retain in other files",
			path:  "memory/notes.md",
			in:    "- W outside\n## Retain\n- W inside\n",
			facts: []string{"W L3-3 [] inside"},
			passages: []string{
				"L1-1 § [] - W outside",
			},
		},
		{
			name:  "continuation lines",
			path:  log,
			in:    "## Retain\n- B @warelay: I fixed the crash\n  by wrapping handlers\n\tin try/catch.\n- W next\n",
			facts: []string{"B L2-4 [warelay] I fixed the crash\nby wrapping handlers\nin try/catch.", "W L5-5 [] next"},
		},
		{
			name:  "one-space indent does not continue a fact",
			path:  log,
			in:    "## Retain\n- W a\n b\n",
			facts: []string{"W L2-2 [] a"},
			passages: []string{
				"L3-3 §Retain []  b",
			},
		},
		{
			// Reflect's bookkeeping under an opinion references evidence and
			// is not indexed; other sub-items are passages.
			name:     "sub-items end the fact; bookkeeping is not indexed, the rest become passages",
			path:     "bank/opinions.md",
			in:       "- O(c=0.95) @Peter: Prefers concise replies.\n  on WhatsApp\n  - last_updated: 2025-11-27\n  - supports: f_abc\n    (memory/2025-11-27.md#L12)\n  - a note a person added\n  - contradicts: f_def\n- O(c=0.5) x\n",
			facts:    []string{"O L1-2 [Peter] c=0.95 Prefers concise replies.\non WhatsApp", "O L8-8 [] c=0.5 x"},
			passages: []string{"L6-6 § []   - a note a person added"},
		},
		{
			name:     "reflect's managed block is not indexed; a block left open is",
			path:     "bank/entities/Bob.md",
			in:       "# Bob\n\nPlays the oboe.\n\n<!-- memoria:begin hash=1 -->\n## Summary (memoria)\n\n3 facts in the daily logs.\n\n- 2025-11-27 W: Plays the oboe. (memory/2025-11-27.md#L4)\n<!-- memoria:end -->\n\nLikes figs.\n\n<!-- memoria:begin hash=2 -->\nOpen block text.\n",
			passages: []string{"L3-3 §Bob [Bob] Plays the oboe.", "L13-13 §Bob [Bob] Likes figs.", "L15-16 §Bob [Bob] <!-- memoria:begin hash=2 -->\nOpen block text."},
		},
		{
			name:     "template hints of memoria init are not indexed",
			path:     "bank/world.md",
			in:       "# World\n\nObjective facts about the world, one bullet each (`- W @Entity: …`).\n\nThe tide tables came from the harbour office.\n",
			passages: []string{"L5-5 §World [] The tide tables came from the harbour office."},
		},
		{
			name:  "blank line ends a fact; indented text after it is a passage",
			path:  "MEMORY.md",
			in:    "- W a\n\n  more\n",
			facts: []string{"W L1-1 [] a"},
			passages: []string{
				"L3-3 § []   more",
			},
		},
		{
			name:  "multiple entities",
			path:  "MEMORY.md",
			in:    "- W @Peter @Andy: dinner at @The-Castle. @peter pays, (@Andy) too.\n",
			facts: []string{"W L1-1 [Peter Andy The-Castle] dinner at @The-Castle. @peter pays, (@Andy) too."},
		},
		{
			name:  "comma-separated leading mentions",
			path:  "MEMORY.md",
			in:    "* W @Peter, @Andy: siblings\n+ B: x\n",
			facts: []string{"W L1-1 [Peter Andy] siblings", "B L2-2 [] x"},
		},
		{
			name:  "mentions without colon stay in the text",
			path:  "MEMORY.md",
			in:    "- W @Peter went home.\n",
			facts: []string{"W L1-1 [Peter] @Peter went home."},
		},
		{
			name:  "emails and inline code are not mentions",
			path:  "MEMORY.md",
			in:    "- W: mail a@b.com; run `npm i @types/node` (``@x``) for @Peter's app @\n",
			facts: []string{"W L1-1 [Peter] mail a@b.com; run `npm i @types/node` (``@x``) for @Peter's app @"},
		},
		{
			name:     "unsafe slugs",
			path:     "MEMORY.md",
			in:       "- W @../../etc: stay home\n\nsee @.hidden and @ok and @a/b\n",
			facts:    []string{"W L1-1 [] stay home"},
			passages: []string{"L3-3 § [ok] see @.hidden and @ok and @a/b"},
			warnings: []string{"L1 @mention ignored", "L3 @mention ignored", "L3 @mention ignored"},
		},
		{
			name:  "confidence forms",
			path:  "bank/opinions.md",
			in:    "- O( c = 0.9 ) spaced\n- O (c=1) before\n- O(C=0): upper\n- O(c=1.7) @Peter: too big\n- O(c=abc) junk\n- O(maybe) not typed\n",
			facts: []string{"O L1-1 [] c=0.9 spaced", "O L2-2 [] c=1 before", "O L3-3 [] c=0 upper", "O L4-4 [Peter] too big", "O L5-5 [] junk"},
			passages: []string{
				"L6-6 § [] - O(maybe) not typed",
			},
			warnings: []string{"L4 confidence \"1.7\"", "L5 confidence \"abc\""},
		},
		{
			name: "untyped bullets in retain",
			path: log,
			in:   "## Retain\n- Remember the taxi\n- Went home\n1. W ordered\n- w lower\n- W\n\nplain paragraph\n",
			passages: []string{
				"L2-2 §Retain [] - Remember the taxi",
				"L3-3 §Retain [] - Went home",
				"L4-4 §Retain [] 1. W ordered",
				"L5-5 §Retain [] - w lower",
				"L6-6 §Retain [] - W",
				"L8-8 §Retain [] plain paragraph",
			},
			warnings: []string{"L2 list item in Retain", "L3 list item in Retain", "L4 list item in Retain", "L5 list item in Retain", "L6 typed fact has no text"},
		},
		{
			name:     "invalid UTF-8",
			path:     log,
			in:       "ok\n\xff\xfe bad\nalso \x80\n",
			passages: []string{"L1-3 § [] ok\n\uFFFD bad\nalso \uFFFD"},
			warnings: []string{"L2 invalid UTF-8"},
		},
		{
			name: "code fences are opaque",
			path: "MEMORY.md",
			in:   "# Top\n```sh\n# not a heading\n- W not a fact @Peter\n\n```\nafter\n~~~\n$ go test\n~~~\n````\nunclosed\n```\n",
			passages: []string{
				"L3-4 §Top [] # not a heading\n- W not a fact @Peter",
				"L7-7 §Top [] after",
				"L9-9 §Top [] $ go test",
				"L12-13 §Top [] unclosed\n```",
			},
		},
		{
			name:  "fence inside a list item",
			path:  "MEMORY.md",
			in:    "- B fixed it with:\n  ```\n  try { x() }\n# inside code\n  ```\n- W next\n",
			facts: []string{"B L1-1 [] fixed it with:", "W L6-6 [] next"},
			passages: []string{
				"L2-4 § []   ```\n  try { x() }\n# inside code",
				"L5-5 § []   ```",
			},
		},
		{
			name: "headings set sections and are not passages",
			path: log,
			in:   "# Day ##\n\npara one\n#hashtag line\n### Deep  ###\n- item\n#######\n",
			passages: []string{
				"L3-4 §Day [] para one\n#hashtag line",
				"L6-6 §Deep [] - item",
				"L7-7 §Deep [] #######",
			},
		},
		{
			name: "thematic breaks and tables",
			path: log,
			in:   "para\n---\n* * *\nintro\n| a | b |\n|---|---|\n| 1 | 2 |\nafter\n",
			passages: []string{
				"L1-1 § [] para",
				"L4-4 § [] intro",
				"L5-7 § [] | a | b |\n|---|---|\n| 1 | 2 |",
				"L8-8 § [] after",
			},
		},
		{
			name: "windows split long units",
			path: log,
			in:   "l1\nl2\nl3\nl4\nl5\nl6\nl7\n\n- a\n  b\n\n  c\n  d\n",
			passages: []string{
				"L1-3 § [] l1\nl2\nl3",
				"L4-6 § [] l4\nl5\nl6",
				"L7-7 § [] l7",
				"L9-10 § [] - a\n  b",
				"L12-13 § []   c\n  d",
			},
		},
		{
			name: "window size option",
			path: log,
			opts: Options{MaxPassageLines: 2},
			in:   "l1\nl2\nl3\n",
			passages: []string{
				"L1-2 § [] l1\nl2",
				"L3-3 § [] l3",
			},
		},
		{
			name: "nested items are one unit",
			path: log,
			in:   "- top\n  - nested @Andy\n    deeper\n- next\n",
			passages: []string{
				"L1-3 § [Andy] - top\n  - nested @Andy\n    deeper",
				"L4-4 § [] - next",
			},
		},
		{
			name:     "world defaults",
			path:     "bank/world.md",
			in:       "# World\n- Berlin is the capital of Germany.\n- O(c=0.4) The winter is mild.\n1. numbered\n\nfree text\n",
			facts:    []string{"W L2-2 [] Berlin is the capital of Germany.", "O L3-3 [] c=0.4 The winter is mild."},
			passages: []string{"L4-4 §World [] 1. numbered", "L6-6 §World [] free text"},
		},
		{
			name:  "experience defaults",
			path:  "bank/experience.md",
			in:    "- I set up @Peter's laptop.\n  It took an hour.\n",
			facts: []string{"B L1-2 [Peter] I set up @Peter's laptop.\nIt took an hour."},
		},
		{
			name:     "other bank files need letters",
			path:     "bank/projects.md",
			in:       "- memoria is in Go\n- W memoria is in Go\n",
			facts:    []string{"W L2-2 [] memoria is in Go"},
			passages: []string{"L1-1 § [] - memoria is in Go"},
		},
		{
			name:     "front matter lines are never passages",
			path:     log,
			in:       "---\ntitle: Day\n---\ntext\n",
			passages: []string{"L4-4 § [] text"},
		},
		{
			name:     "unclosed front matter is Markdown",
			path:     log,
			in:       "---\ntext\n",
			passages: []string{"L2-2 § [] text"},
		},
		{
			name:     "entity page entities",
			path:     "bank/entities/Peter.md",
			in:       "# Peter\n\nWorks with @Andy and @peter.\n\n- W: Lives in Vienna.\n- B @Andy: Met him.\n",
			facts:    []string{"W L5-5 [Peter] Lives in Vienna.", "B L6-6 [Andy Peter] Met him."},
			passages: []string{"L3-3 §Peter [Andy peter] Works with @Andy and @peter."},
		},
		{
			name:     "unsafe entity page",
			path:     "bank/entities/.hidden.md",
			in:       "- W: x\n",
			facts:    []string{"W L1-1 [] x"},
			warnings: []string{"L0 no entity page"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := ParseWith(tt.path, []byte(tt.in), tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			checkInvariants(t, []byte(tt.in), doc)
			var facts, passages []string
			for _, f := range doc.Facts {
				facts = append(facts, factString(f))
			}
			for _, p := range doc.Passages {
				passages = append(passages, passageString(p))
			}
			if !slices.Equal(facts, tt.facts) {
				t.Errorf("facts:\n got %q\nwant %q", facts, tt.facts)
			}
			if !slices.Equal(passages, tt.passages) {
				t.Errorf("passages:\n got %q\nwant %q", passages, tt.passages)
			}
			warnings := warningStrings(doc.Warnings)
			ok := len(warnings) == len(tt.warnings)
			for i := 0; ok && i < len(warnings); i++ {
				ok = strings.HasPrefix(warnings[i], tt.warnings[i])
			}
			if !ok {
				t.Errorf("warnings:\n got %q\nwant prefixes %q", warnings, tt.warnings)
			}
		})
	}
}

func TestParseDocumentFields(t *testing.T) {
	in := "## Retain\n- O(c=0.95) @Peter: Prefers concise replies.\n\nnote\n"
	doc, err := Parse(`memory\2025-11-27.md`, []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	day := time.Date(2025, 11, 27, 0, 0, 0, 0, time.UTC)
	if doc.Path != "memory/2025-11-27.md" || doc.Kind != memory.FileLog || !doc.Date.Equal(day) {
		t.Errorf("document %q %q %v", doc.Path, doc.Kind, doc.Date)
	}
	f := doc.Facts[0]
	if want := memory.FactID(memory.KindOpinion, "Prefers concise replies.", []string{"Peter"}); f.ID != want {
		t.Errorf("ID %s, want %s", f.ID, want)
	}
	if !f.Written.Equal(day) || f.Event != nil {
		t.Errorf("Written %v, Event %v", f.Written, f.Event)
	}
	if got := f.Source.String(); got != "memory/2025-11-27.md#L2" {
		t.Errorf("source %s", got)
	}
	if p := doc.Passages[0]; !p.Written.Equal(day) || p.Section != "Retain" {
		t.Errorf("passage %+v", p)
	}

	doc, err = Parse("MEMORY.md", []byte("- W: x\n"))
	if err != nil {
		t.Fatal(err)
	}
	if doc.Kind != memory.FileCore || !doc.Facts[0].Written.IsZero() {
		t.Errorf("core: kind %q, written %v", doc.Kind, doc.Facts[0].Written)
	}
	doc, err = Parse("notes/readme.txt", []byte("x\n"))
	if err != nil || doc.Kind != memory.FileOther {
		t.Errorf("unindexed path: %v, %+v", err, doc)
	}
}

func TestParseBinary(t *testing.T) {
	png := "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x01\x00\x00\x00\x01\x00\x08\x06\x00\x00\x00"
	for _, in := range []string{"\x00", "text\x00more", png, strings.Repeat("a\x00", 100)} {
		doc, err := Parse("memory/x.md", []byte(in))
		if !errors.Is(err, ErrBinary) || doc != nil {
			t.Errorf("len %d: got %v, %v; want ErrBinary", len(in), doc, err)
		}
		if err != nil && !strings.Contains(err.Error(), "memory/x.md") {
			t.Errorf("error %q does not name the file", err)
		}
	}
	// A NUL byte past the sniffed prefix is text.
	in := strings.Repeat("a", BinarySniffLen) + "\x00"
	if _, err := Parse("memory/x.md", []byte(in)); err != nil {
		t.Errorf("NUL after %d bytes: %v", BinarySniffLen, err)
	}
}

// TestStrayNUL: one NUL byte in a log (a paste, a bad editor) is read as
// U+FFFD with a warning; the log's facts and passages stay. It used to
// make the whole log "binary" and drop it from the index.
func TestStrayNUL(t *testing.T) {
	in := "# 2025-11-27\n\nPasted from the terminal: ok\x00done.\n\nThen we walked the dog along the canal and talked about the move.\n\n## Retain\n- W @Peter: Lives in Vienna.\n"
	doc, err := Parse("memory/2025-11-27.md", []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Facts) != 1 || doc.Facts[0].Text != "Lives in Vienna." {
		t.Errorf("facts %+v", doc.Facts)
	}
	if len(doc.Warnings) != 1 || !strings.Contains(doc.Warnings[0].Message, "NUL") || doc.Warnings[0].Line != 3 {
		t.Errorf("warnings %+v", doc.Warnings)
	}
	if got := Lines([]byte(in))[2]; got != "Pasted from the terminal: ok\uFFFDdone." {
		t.Errorf("line 3 reads %q", got)
	}
}

// TestCROnlyLines: a file with old Mac line ends (a lone CR) has its lines,
// facts and passages like any other; it used to be one long line with no
// facts.
func TestCROnlyLines(t *testing.T) {
	in := "# 2025-11-27\r\rMet Peter.\r\r## Retain\r- W @Peter: Lives in Vienna.\r"
	doc, err := Parse("memory/2025-11-27.md", []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Facts) != 1 || doc.Facts[0].Source.Start != 6 {
		t.Errorf("facts %+v", doc.Facts)
	}
	if lines := Lines([]byte(in)); len(lines) != 6 || lines[2] != "Met Peter." {
		t.Errorf("lines %q", lines)
	}
	// CRLF and mixed endings keep their lines.
	for in, want := range map[string][]string{
		"a\r\nb\r\n":   {"a", "b"},
		"a\rb\nc\r\nd": {"a", "b", "c", "d"},
		"a\r":          {"a"},
		"a\r\r\nb":     {"a", "", "b"},
	} {
		if got := Lines([]byte(in)); !slices.Equal(got, want) {
			t.Errorf("Lines(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestEntityPage(t *testing.T) {
	tests := []struct {
		name string
		path string
		in   string
		want *memory.EntityPage
	}{
		{
			name: "flow aliases and name",
			path: "bank/entities/Peter.md",
			in:   "---\nname: Peter Steinberger\naliases: [Pete, \"P. Steinberger\", 'Pete']\n---\n# Peter\n",
			want: &memory.EntityPage{Slug: "Peter", Name: "Peter Steinberger", Aliases: []string{"Pete", "P. Steinberger"}},
		},
		{
			name: "block aliases and title",
			path: "bank/entities/The-Castle.md",
			in:   "---\r\ntitle: \"The Castle\"  \r\naliases:\r\n  - Castle\r\n  - 'the old castle'\r\ntags: [place]\r\n---\r\n",
			want: &memory.EntityPage{Slug: "The-Castle", Name: "The Castle", Aliases: []string{"Castle", "the old castle"}},
		},
		{
			name: "scalar alias, name beats title",
			path: "bank/entities/andy.md",
			in:   "---\ntitle: Ignored\nName: Andy S. # comment\nalias: Andreas\n---\n",
			want: &memory.EntityPage{Slug: "andy", Name: "Andy S.", Aliases: []string{"Andreas"}},
		},
		{
			name: "first level-1 heading",
			path: "bank/entities/warelay.md",
			in:   "## Overview\n```\n# not this\n```\n# Warelay relay\n# Second\n",
			want: &memory.EntityPage{Slug: "warelay", Name: "Warelay relay"},
		},
		{
			name: "name from slug",
			path: "bank/entities/The_Old-Castle.md",
			in:   "Just text.\n",
			want: &memory.EntityPage{Slug: "The_Old-Castle", Name: "The Old Castle"},
		},
		{
			name: "unsafe slug",
			path: "bank/entities/-x.md",
			in:   "# X\n",
			want: nil,
		},
		{
			name: "not an entity page",
			path: "bank/world.md",
			in:   "---\nname: World\n---\n",
			want: nil,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := Parse(tt.path, []byte(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			got := doc.Entity
			if (got == nil) != (tt.want == nil) ||
				got != nil && (got.Slug != tt.want.Slug || got.Name != tt.want.Name || !slices.Equal(got.Aliases, tt.want.Aliases)) {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
			if len(doc.Passages) != 0 && strings.HasPrefix(tt.in, "---") && doc.Passages[0].Source.Start == 1 {
				t.Errorf("front matter became a passage: %+v", doc.Passages[0])
			}
		})
	}
}

// TestProperties checks the invariants over the golden inputs at several
// window sizes.
func TestProperties(t *testing.T) {
	for _, name := range testdataFiles(t) {
		data := readFile(t, name)
		for _, max := range []int{1, 2, 3, 5, 100} {
			doc, err := ParseWith(workspacePath(name), data, Options{MaxPassageLines: max})
			if err != nil {
				t.Fatal(err)
			}
			checkInvariants(t, data, doc)
			for _, p := range doc.Passages {
				if p.Source.Lines() > max {
					t.Errorf("%s: passage %s longer than %d lines", name, p.Source, max)
				}
			}
		}
	}
}

// BenchmarkParse measures throughput on a typical daily log (mostly
// narrative, a short Retain section), on a log dense with typed facts, and
// on a 1 MiB file made of repeated logs.
func BenchmarkParse(b *testing.B) {
	typical := readFile(b, "testdata/memory__2025-11-28.md")
	dense := readFile(b, "testdata/memory__2025-11-27.md")
	var big []byte
	for len(big) < 1<<20 {
		big = append(big, typical...)
		big = append(big, dense...)
	}
	for _, bm := range []struct {
		name string
		data []byte
	}{
		{"typical", typical},
		{"dense", dense},
		{"1MiB", big},
	} {
		b.Run(bm.name, func(b *testing.B) {
			b.SetBytes(int64(len(bm.data)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Parse("memory/2025-11-28.md", bm.data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func TestWarningLimit(t *testing.T) {
	in := "## Retain\n" + strings.Repeat("- W: see @.x\n", MaxWarnings+50)
	doc, err := Parse("memory/2025-11-27.md", []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Facts) != MaxWarnings+50 {
		t.Errorf("%d facts, want %d", len(doc.Facts), MaxWarnings+50)
	}
	if len(doc.Warnings) != MaxWarnings+1 {
		t.Fatalf("%d warnings, want %d", len(doc.Warnings), MaxWarnings+1)
	}
	last := doc.Warnings[MaxWarnings]
	if want := "50 more warnings"; !strings.HasPrefix(last.Message, want) || last.Line != MaxWarnings+2 {
		t.Errorf("last warning %+v, want line %d and %q", last, MaxWarnings+2, want)
	}
}

// TestPathological parses adversarial inputs (deep runs of markers, fences,
// blank lines, mentions and backticks) and checks the invariants; it also
// guards against quadratic behaviour by keeping the inputs large enough
// that a quadratic parser would time out.
func TestPathological(t *testing.T) {
	var ticks strings.Builder
	for i := 1; i < 2000; i++ {
		ticks.WriteString(strings.Repeat("`", i%150+1) + "@a ")
	}
	const n = 1 << 15
	inputs := map[string]string{
		"backtick runs":    ticks.String(),
		"blank lines":      "- a\n" + strings.Repeat("\n", n) + "  x\n" + strings.Repeat(" \n", n),
		"empty bullets":    strings.Repeat("-\n", n),
		"at signs":         strings.Repeat("@", n),
		"unsafe mentions":  strings.Repeat("@a/", n),
		"open front":       "---\n" + strings.Repeat("a: b\n", n),
		"fences":           strings.Repeat("```\n", n),
		"fences in item":   "- a\n" + strings.Repeat("  ```\n", n),
		"hashes":           strings.Repeat("# ", n),
		"facts":            "## Retain\n" + strings.Repeat("- W @a @b @c: x @d\n  y\n", n/8),
		"open paren":       "## Retain\n- O" + strings.Repeat("(", n),
		"long indent":      "- x\n" + strings.Repeat(" ", n) + "x",
		"mention run":      "- W: " + strings.Repeat("@a", n),
		"leading mentions": "- W " + strings.Repeat("@a ", n),
	}
	for name, in := range inputs {
		for _, rel := range []string{"bank/entities/x.md", "memory/2025-11-27.md"} {
			doc, err := Parse(rel, []byte(in))
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			checkInvariants(t, []byte(in), doc)
		}
	}
}

// TestMentionForms: an @mention with an invisible character inside is
// refused whole with a warning (it was cut to "@Pe"), and the composed and
// decomposed forms of a name, or its fullwidth letters, are one entity.
func TestMentionForms(t *testing.T) {
	doc, err := Parse("memory/2025-11-27.md", []byte("# 2025-11-27\n\n## Retain\n- W @Pe\u200bter: Lives in Vienna.\n- W @caf\u00e9: Opens at eight.\n- W @cafe\u0301: Closes at six.\n- W @\uff30eter: Likes tea.\n"))
	if err != nil {
		t.Fatal(err)
	}
	var ents []string
	for _, f := range doc.Facts {
		ents = append(ents, f.Entities...)
	}
	if !slices.Equal(ents, []string{"caf\u00e9", "caf\u00e9", "Peter"}) {
		t.Errorf("entities %q", ents)
	}
	if len(doc.Warnings) != 1 || !strings.Contains(doc.Warnings[0].Message, "U+200B") {
		t.Errorf("warnings %+v", doc.Warnings)
	}
}

// TestProseAliases: the opening of an entity page names aliases in prose
// ("also called Lenny", "goes by Rob", `("Kit")`); an alias said further
// down the page (of someone else, often) is not taken.
func TestProseAliases(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     []string
	}{ // the page is bank/entities/Page.md
		{"also called", "# Helena\n\nMy sister, also called Lenny. Lives in Graz.\n", []string{"Lenny"}},
		{"quoted nickname in the title", "# Robert Marsh (\"Rob\")\n\nNeighbour.\n", []string{"Rob"}},
		{"goes by, two words", "# Katherine\n\nColleague; goes by Kit Marlowe at work, a.k.a. \"KM\".\n", []string{"Kit Marlowe", "KM"}},
		{"front matter first", "---\naliases: [Hel]\n---\n# Helena\n\nAlso known as Lenny.\n", []string{"Hel", "Lenny"}},
		{"not past the opening", "# Peter\n\nDeveloper.\n\n- His mother Ingrid, also called Inge, lives downstairs.\n", nil},
		{"lower-case words are no name", "# Tom\n\nAlso called the boss sometimes.\n", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc, err := Parse("bank/entities/Page.md", []byte(tc.in))
			if err != nil || doc.Entity == nil {
				t.Fatalf("%v %v", doc, err)
			}
			if !slices.Equal(doc.Entity.Aliases, tc.want) {
				t.Errorf("aliases %q, want %q", doc.Entity.Aliases, tc.want)
			}
		})
	}
}
