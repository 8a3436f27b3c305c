package markdown

import (
	"fmt"
	"strings"
	"time"

	"memoria/memory"
)

// OpenClaw's user model, USER.md (its docs/concepts/user-model.md), keeps
// one directive per entry, each after a line that marks it:
//
//	<!-- observed: 2026-07-27 | status: active -->
//
//	- Prefer concise progress updates during implementation work.
//
// The status is active or superseded; a superseded entry stays next to
// the one that replaced it. The parser reads these marks in USER.md only,
// strictly: a line that is nothing but an HTML comment made of "key:
// value" pairs separated by "|", every key "observed" or "status" (any
// case, spaces allowed). The mark is metadata, not a passage; it applies
// to the lines below it up to the next mark, heading or thematic break.
// A day that is not YYYY-MM-DD of the calendar, or a status other than
// active or superseded, is dropped with a warning. Any other comment is
// text. Nothing of a mark becomes a fact, a heading or an entity.

// entryMark is what a USER.md mark says of its entry.
type entryMark struct {
	observed *memory.TimeRange
	status   memory.EntryStatus
}

// markKeys are the keys of a mark, as OpenClaw writes them.
var markKeys = []string{"observed", "status"}

// isMark reports whether line s of a USER.md is a mark.
func (p *parser) isMark(s string) bool {
	if p.doc.Kind != memory.FileUser {
		return false
	}
	_, ok := splitMark(strings.TrimLeft(s, " \t"))
	return ok
}

// readMark reads line i, t without its indentation, as a mark of a
// USER.md entry, and reports whether it is one.
func (p *parser) readMark(i int, t string) bool {
	if p.doc.Kind != memory.FileUser {
		return false
	}
	fields, ok := splitMark(t)
	if !ok {
		return false
	}
	p.entry = entryMark{}
	for _, f := range fields {
		switch f.key {
		case "observed":
			d, err := time.Parse(time.DateOnly, f.value)
			if err != nil {
				p.warn(i+1, fmt.Sprintf("observed day %q is not YYYY-MM-DD: entry kept without it", clipValue(f.value)))
				continue
			}
			p.entry.observed = &memory.TimeRange{Start: d, End: d}
		case "status":
			switch st := memory.EntryStatus(strings.ToLower(f.value)); st {
			case memory.StatusActive, memory.StatusSuperseded:
				p.entry.status = st
			default:
				p.warn(i+1, fmt.Sprintf("status %q is neither active nor superseded: entry kept without it", clipValue(f.value)))
			}
		}
	}
	return true
}

// markField is one "key: value" pair of a mark.
type markField struct{ key, value string }

// splitMark splits a mark's line (without indentation) into its fields,
// keys in lower case, and reports false when the line is not a mark.
func splitMark(t string) ([]markField, bool) {
	inner, ok := strings.CutPrefix(t, "<!--")
	if !ok {
		return nil, false
	}
	if inner, ok = strings.CutSuffix(inner, "-->"); !ok || strings.Contains(inner, "-->") {
		return nil, false
	}
	var fields []markField
	for part := range strings.SplitSeq(inner, "|") {
		key, value, ok := strings.Cut(part, ":")
		key = strings.ToLower(strings.TrimSpace(key))
		value = strings.TrimSpace(value)
		if !ok || value == "" || !isMarkKey(key) {
			return nil, false
		}
		fields = append(fields, markField{key, value})
	}
	return fields, true
}

func isMarkKey(k string) bool {
	for _, m := range markKeys {
		if k == m {
			return true
		}
	}
	return false
}

// clipValue bounds a value quoted in a warning.
func clipValue(s string) string {
	const max = 40
	if r := []rune(s); len(r) > max {
		return string(r[:max]) + "…"
	}
	return s
}
