package markdown

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"memoria/memory"
)

// markedString summarises a passage with what a USER.md mark gave it:
// "L7-7 §Section [Peter] 2026-05-10 superseded text".
func markedString(p memory.Passage) string {
	ev := "-"
	if p.Event != nil {
		ev = p.Event.Start.Format("2006-01-02")
		if !p.Event.End.Equal(p.Event.Start) {
			ev += "…" + p.Event.End.Format("2006-01-02")
		}
	}
	st := string(p.Status)
	if st == "" {
		st = "-"
	}
	return fmt.Sprintf("L%d-%d §%s %v %s %s %s", p.Source.Start, p.Source.End, p.Section, p.Entities, ev, st, p.Text)
}

func parseOK(t *testing.T, rel, in string) *memory.Document {
	t.Helper()
	doc, err := Parse(rel, []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

func passagesOf(doc *memory.Document) []string {
	var out []string
	for _, p := range doc.Passages {
		out = append(out, markedString(p))
	}
	return out
}

// USER.md as OpenClaw's user model writes it (docs/concepts/user-model.md):
// a mark, then one directive; a superseded entry kept next to the one that
// replaced it. The marks are metadata (not passages), each entry carries
// its observed day and status, and nothing in the file is a typed fact or
// a heading, a "## Retain" section included.
func TestUserModel(t *testing.T) {
	in := `# User model

## Communication

<!-- observed: 2026-05-10 | status: superseded -->

- Prefer detailed explanations for every code change.

<!-- observed: 2026-07-27 | status: active -->

- Prefer concise implementation summaries unless more detail is requested.

## Retain
- W @Peter: Lives in Tromsø.

<!-- observed: 2026-13-40 | status: maybe -->
- Always answer in English.

<!--   OBSERVED:2026-06-01|Status:Active   -->
Never deploy on Fridays.
  Nor on the eve of a holiday.
---
- Keep the gateway on loopback. <!-- trigger: gateway setup --> <!-- importance: 9 -->
<!-- a note to self, not a mark -->
<!-- status: superseded -->
- Use tabs.
`
	doc := parseOK(t, "USER.md", in)
	if doc.Kind != memory.FileUser || !doc.Date.IsZero() {
		t.Errorf("kind %s, date %v; want user, none", doc.Kind, doc.Date)
	}
	if len(doc.Facts) != 0 {
		t.Errorf("facts %v, want none: USER.md is read as text only", doc.Facts)
	}
	want := []string{
		"L1-1 § [] - - # User model",
		"L3-3 § [] - - ## Communication",
		"L7-7 § [] 2026-05-10 superseded - Prefer detailed explanations for every code change.",
		"L11-11 § [] 2026-07-27 active - Prefer concise implementation summaries unless more detail is requested.",
		"L13-13 § [] - - ## Retain",
		"L14-14 § [Peter] - - - W @Peter: Lives in Tromsø.",
		"L17-17 § [] - - - Always answer in English.",
		"L20-21 § [] 2026-06-01 active Never deploy on Fridays.\n  Nor on the eve of a holiday.",
		"L23-23 § [] - - - Keep the gateway on loopback. <!-- trigger: gateway setup --> <!-- importance: 9 -->",
		"L24-24 § [] - - <!-- a note to self, not a mark -->",
		"L26-26 § [] - superseded - Use tabs.",
	}
	if got := passagesOf(doc); !slices.Equal(got, want) {
		t.Errorf("passages:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	ws := warningStrings(doc.Warnings)
	if len(ws) != 2 || !strings.HasPrefix(ws[0], "L16 ") || !strings.Contains(ws[0], `"2026-13-40"`) ||
		!strings.HasPrefix(ws[1], "L16 ") || !strings.Contains(ws[1], `"maybe"`) {
		t.Errorf("warnings %q, want the bad day and the bad status of line 16", ws)
	}
}

// A mark is OpenClaw's, in USER.md only: elsewhere the same comment is text.
func TestMarksOnlyInUserModel(t *testing.T) {
	in := "<!-- observed: 2026-05-10 | status: superseded -->\n\n- Prefer tabs.\n"
	for _, rel := range []string{"memory.md", "memory/2026-05-10.md", "DREAMS.md", "memory/imports/hermes/USER.md"} {
		doc := parseOK(t, rel, in)
		got := passagesOf(doc)
		if len(got) != 2 || !strings.Contains(got[0], "<!-- observed") || strings.Contains(got[1], "superseded") {
			t.Errorf("%s: %q, want the comment as text and an unmarked passage", rel, got)
		}
	}
}

// DREAMS.md and imported memory are read as text only: a Retain section,
// typed bullets, headings and Memoria's own managed-block marker are all
// text, cited as such; @mentions still name entities.
func TestTextOnlyFiles(t *testing.T) {
	in := `---
name: deploy notes
description: how we deploy
---
# Dream Diary

## Retain
- W @Peter: Moved to Lisbon.
- O(c=0.9) @Peter: Likes trams.

<!-- memoria:begin hash=1 -->
Hidden? No.
<!-- memoria:end -->
`
	for _, rel := range []string{"DREAMS.md", "dreams.md", "memory/dreaming/deep/2026-07-27.md",
		"memory/imports/codex/MEMORY.md", "memory/imports/claude-code/proj/feedback.md"} {
		doc := parseOK(t, rel, in)
		if len(doc.Facts) != 0 {
			t.Errorf("%s: facts %v, want none", rel, doc.Facts)
		}
		var texts []string
		for _, p := range doc.Passages {
			if p.Section != "" || p.Status != "" || p.Event != nil {
				t.Errorf("%s: passage %s has a section, status or event", rel, markedString(p))
			}
			texts = append(texts, p.Text)
		}
		want := []string{"name: deploy notes\ndescription: how we deploy", "# Dream Diary", "## Retain",
			"- W @Peter: Moved to Lisbon.", "- O(c=0.9) @Peter: Likes trams.",
			"<!-- memoria:begin hash=1 -->\nHidden? No.\n<!-- memoria:end -->"}
		if !slices.Equal(texts, want) {
			t.Errorf("%s: passages %q\nwant %q", rel, texts, want)
		}
		if len(doc.Warnings) != 0 {
			t.Errorf("%s: warnings %v", rel, warningStrings(doc.Warnings))
		}
		if doc.Passages[3].Entities == nil || doc.Passages[3].Entities[0] != "Peter" {
			t.Errorf("%s: @Peter is no entity of %q", rel, doc.Passages[3].Text)
		}
	}
	if doc := parseOK(t, "memory/dreaming/deep/2026-07-27.md", in); doc.Kind != memory.FileDreams ||
		doc.Date.Format("2006-01-02") != "2026-07-27" || doc.Passages[0].Written != doc.Date {
		t.Errorf("a dreaming report: kind %s, day %v", doc.Kind, doc.Date)
	}
}

// A daily note with a slug is a daily log of its day, Retain section and all.
func TestSluggedDailyNote(t *testing.T) {
	in := "# Session: 2026-07-27 14:30:00 UTC\n\n## Retain\n- W @Peter: Moved the standup to 9:30.\n\nWe talked about the deploy.\n"
	for _, rel := range []string{"memory/2026-07-27-1430.md", "memory/2026-07-27-vendor-pitch.md", "memory/2026-07-27-vendor-pitch-2.md"} {
		doc := parseOK(t, rel, in)
		if doc.Kind != memory.FileLog || doc.Date.Format("2006-01-02") != "2026-07-27" {
			t.Errorf("%s: kind %s, day %v", rel, doc.Kind, doc.Date)
		}
		if len(doc.Facts) != 1 || doc.Facts[0].Written != doc.Date || doc.Facts[0].Text != "Moved the standup to 9:30." {
			t.Errorf("%s: facts %v", rel, doc.Facts)
		}
		if len(doc.Passages) != 1 || doc.Passages[0].Written != doc.Date {
			t.Errorf("%s: passages %v", rel, doc.Passages)
		}
	}
	doc := parseOK(t, "memory/2026-02-30-standup.md", in)
	if doc.Kind != memory.FileOther || !doc.Date.IsZero() || len(doc.Facts) != 1 || !doc.Facts[0].Written.IsZero() {
		t.Errorf("a malformed date: kind %s, day %v, facts %v", doc.Kind, doc.Date, doc.Facts)
	}
}
