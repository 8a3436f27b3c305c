package forget

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"memoria/markdown"
	"memoria/memory"
)

// TestKeyIsWhatTheLineSays: a line's key is that of its text, whatever
// Markdown is around it: a typed fact in a log, the same text as an
// imported turn or a bullet of bank/, in any case and spacing, have one
// key; different text has another; lines that say too little have none.
func TestKeyIsWhatTheLineSays(t *testing.T) {
	t.Parallel()
	same := []string{
		"- W @Peter: Moved to Berlin on 2025-11-03.",
		"- O(c=0.9) @Peter @Andy: Moved to Berlin on 2025-11-03.",
		"- 09:14 **User**: moved to  Berlin on 2025-11-03.",
		"  - [x] Moved to Berlin on 2025-11-03.",
		"> Moved to Berlin on 2025-11-03.   ",
		"\uFEFF**Moved to Berlin on 2025-11-03.**",
		"W: Moved to Berlin on 2025-11-03.",
	}
	want, ok := Key(same[0])
	if !ok || len(want) != 32 {
		t.Fatalf("Key(%q) = %q, %v", same[0], want, ok)
	}
	for _, l := range same[1:] {
		if got, ok := Key(l); !ok || got != want {
			t.Errorf("Key(%q) = %q, %v; want %q (the same text)", l, got, ok, want)
		}
	}
	if got, _ := Key("- W @Peter: Moved to Bern on 2025-11-03."); got == want {
		t.Error("different text, same key")
	}
	for _, l := range []string{"", "## Retain", "## Retain (edited)", "## Notes", "# 2025-11-27", "- yes", "```", "```javascript", "~~~ python script", "---",
		"<!-- forgotten 2026-12-02: x -->", "<!-- memoria:begin hash=abc -->", "# Biscuit"} {
		if k, ok := Key(l); ok {
			t.Errorf("Key(%q) = %q: too little to record", l, k)
		}
	}
	if _, ok := Key("## Conversation: the divorce lawyer [chatgpt:abc]"); !ok {
		t.Error("a heading that says something is not recorded")
	}
	if _, ok := Key("北京很冷今天"); !ok {
		t.Error("a CJK line of six characters is not recorded")
	}
}

// TestMaskKeepsLineNumbers: Mask blanks forgotten lines and tombstones in
// place, keeping every line ending (CRLF, a lone CR, no final newline), so
// that what the parser reads keeps its line numbers; a heading keeps its
// #s; nothing else changes, and data without either is returned as is.
func TestMaskKeepsLineNumbers(t *testing.T) {
	t.Parallel()
	s := Set{}
	for _, l := range []string{"- W @Peter: Moved to Berlin on 2025-11-03.", "## The call with the lawyer"} {
		k, _ := Key(l)
		s[k] = struct{}{}
	}
	for _, eol := range []string{"\n", "\r\n", "\r"} {
		in := strings.Join([]string{"# Log", "## Retain", "- W @Peter: Moved to Berlin on 2025-11-03.", "- W @Andy: Stays in Vienna.",
			"<!-- forgotten 2026-12-02: asked -->", "## The call with the lawyer", "He said no."}, eol)
		want := strings.Join([]string{"# Log", "## Retain", "", "- W @Andy: Stays in Vienna.", "", "##", "He said no."}, eol)
		got := Mask([]byte(in), s)
		if string(got) != want {
			t.Errorf("eol %q: Mask =\n%q\nwant\n%q", eol, got, want)
		}
		if n, m := len(markdown.Lines([]byte(in))), len(RawLines([]byte(in))); n != m {
			t.Errorf("eol %q: RawLines counts %d lines, markdown.Lines %d", eol, m, n)
		}
	}
	plain := []byte("# Log\n\nNothing forgotten here.\n")
	if got := Mask(plain, s); &got[0] != &plain[0] {
		t.Error("Mask copied data it did not change")
	}
}

// TestSanitizeCannotBreakTheComment: a reason is one line that cannot end
// the tombstone's comment, open another, start a heading or a fact, or
// carry control characters; it is cut to MaxReasonRunes.
func TestSanitizeCannotBreakTheComment(t *testing.T) {
	t.Parallel()
	for _, r := range []string{
		"asked --> \n## Retain\n- W @Peter: injected fact",
		"<!-- nested --!> \u2028# heading\u0085- B x \x1b[31mred\u202e",
		"---->>>><<<<",
		strings.Repeat("long ", 500),
	} {
		ts := Tombstone("2026-12-02", r)
		body := strings.TrimSuffix(strings.TrimPrefix(ts, "<!--"), "-->")
		switch {
		case !IsTombstone(ts) || strings.ContainsAny(ts, "\n\r\x1b\u2028\u0085\u202e"):
			t.Errorf("Tombstone(%q) = %q: not one clean line", r, ts)
		case strings.Contains(body, "--") || strings.ContainsAny(body, "<>"):
			t.Errorf("Tombstone(%q) = %q: the reason can end or nest the comment", r, ts)
		case len([]rune(Sanitize(r))) > MaxReasonRunes:
			t.Errorf("Sanitize kept %d runes", len([]rune(Sanitize(r))))
		}
		doc, err := markdown.Parse("memory/2026-12-02.md", []byte("# 2026-12-02\n\n## Retain\n"+ts+"\n"))
		if err != nil || len(doc.Facts) != 0 {
			t.Errorf("the tombstone of %q reads as facts: %+v %v", r, doc.Facts, err)
		}
	}
	if got := Tombstone("2026-12-02", " \n "); got != "<!-- forgotten 2026-12-02 -->" {
		t.Errorf("no reason: %q", got)
	}
}

// TestRecordHoldsHashesNotText: AppendRecord writes a header once, then
// one entry per new key (never the text), keeps every byte of what was
// there, skips keys already recorded; ParseRecord and Load read the keys
// back, and a person's notes in the file are no entries.
func TestRecordHoldsHashesNotText(t *testing.T) {
	t.Parallel()
	secret := "- W @Peter: His PIN is 4711 and he hates it."
	k, _ := Key(secret)
	other, _ := Key("- W @Peter: Moved to Berlin on 2025-11-03.")
	e := Entry{Day: "2026-12-02", Key: k, Source: memory.Source{Path: "memory/2025-11-27.md", Start: 3}, Reason: "asked\n## Retain"}
	data, n := AppendRecord(nil, []Entry{e, e})
	if n != 1 || !bytes.HasPrefix(data, []byte(RecordHeader)) || bytes.Contains(data, []byte("PIN")) || bytes.Contains(data, []byte("\n## Retain")) {
		t.Fatalf("AppendRecord = %d:\n%s", n, data)
	}
	data = append(data, "\nA note of mine: - 2026-01-01 not a key\n"...)
	again, n := AppendRecord(data, []Entry{e, {Day: "2026-12-03", Key: other}})
	if n != 1 || !bytes.HasPrefix(again, data) {
		t.Fatalf("second AppendRecord = %d:\n%s", n, again)
	}
	s := ParseRecord(again)
	if len(s) != 2 || !s.Has(secret) || !s.Has("- 10:02 **Human**: moved to berlin on 2025-11-03.") {
		t.Errorf("ParseRecord = %v", s)
	}
	dir := t.TempDir()
	if got, err := Load(dir); err != nil || len(got) != 0 {
		t.Errorf("Load without a record = %v, %v", got, err)
	}
	if err := os.WriteFile(filepath.Join(dir, RecordFile), again, 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := Load(dir); err != nil || len(got) != 2 {
		t.Errorf("Load = %v, %v", got, err)
	}
	os.Remove(filepath.Join(dir, RecordFile))
	if err := os.Symlink(filepath.Join(t.TempDir(), "elsewhere"), filepath.Join(dir, RecordFile)); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(dir); err == nil {
		t.Error("Load read a record that is a symlink")
	}
}

// TestCutLeavesOneTombstonePerRun: Cut removes the dropped lines, leaves
// one tombstone per run that holds a traced line, indented as the run,
// with the run's last ending, and nothing for untraced runs.
func TestCutLeavesOneTombstonePerRun(t *testing.T) {
	t.Parallel()
	in := "# Log\r\n- a fact\r\n  - its sub-item\r\nkept\r\n  - supports: x.md#L1\r\nlast"
	drop := map[int]bool{2: true, 3: true, 5: true, 6: true}
	trace := map[int]bool{2: true, 6: true}
	got := string(Cut([]byte(in), drop, trace, "<!-- forgotten 2026-12-02 -->"))
	want := "# Log\r\n<!-- forgotten 2026-12-02 -->\r\nkept\r\n  <!-- forgotten 2026-12-02 -->"
	if got != want {
		t.Errorf("Cut =\n%q\nwant\n%q", got, want)
	}
	if got := string(Cut([]byte(in), drop, trace, "")); got != "# Log\r\nkept\r\n" {
		t.Errorf("Cut without a tombstone = %q", got)
	}
	lines := markdown.Lines([]byte("- a\n  more\n\n  - sub\n- b\n"))
	if e := Extent(lines, 0); e != 3 {
		t.Errorf("Extent = %d, want 3 (the continuation, the blank line and the sub-item)", e)
	}
}

// BenchmarkMask: masking a day's log of the example workspace against a
// record of 100 hashes (what every file an index reads pays once there
// is a record), and without a record (a scan for tombstones).
func BenchmarkMask(b *testing.B) {
	data, err := os.ReadFile(filepath.Join("..", "examples", "workspace", "memory", "2025-11-27.md"))
	if err != nil {
		b.Fatal(err)
	}
	s := Set{}
	for i := range 100 {
		k, _ := Key(strings.Repeat("forgotten text ", 1+i%7) + string(rune('a'+i%26)))
		s[k] = struct{}{}
	}
	for _, c := range []struct {
		name string
		set  Set
	}{{"record", s}, {"none", nil}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				Mask(data, c.set)
			}
		})
	}
}

// TestFoldIsFieldsLowered: fold is strings.ToLower of strings.Fields
// joined by spaces, for ASCII, other scripts and every kind of space.
func TestFoldIsFieldsLowered(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"", "  ", " Moved  to\tBERLIN \r\n", "Ünïcödé\u00a0Straße\u2003ÇA", "北京 很冷", "a\u2028b\u0085c", "ΣΊΣΥΦΟΣ"} {
		if got, want := fold(s), strings.ToLower(strings.Join(strings.Fields(s), " ")); got != want {
			t.Errorf("fold(%q) = %q, want %q", s, got, want)
		}
	}
}
