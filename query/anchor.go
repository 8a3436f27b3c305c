package query

import (
	"maps"
	"regexp"
	"slices"
	"strings"

	"memoria/lang"
)

// Windows anchored on an event the memory itself records: "the week after
// the launch", "the day before her surgery", "his first month at the new
// job". The query names the event, not its date; recall finds the event
// in the memory (Workspace.recall) and makes the window from its day.

// EventAnchor is a window next to an event the query names by words.
type EventAnchor struct {
	Words []string // the event's words, lower-cased ("launch"; "new", "job")
	Days  int      // how long the window is
	// Dir places the window: +1 after the event (from the next day), -1
	// before it (up to the day before), 0 from the event's own day ("first
	// month at the new job").
	Dir int
}

var (
	// "the week after the launch", "the day before her surgery"
	// "in the days after her night in hospital", "the few weeks before
	// the move": some days or weeks (lang.AnchorSomeSpans); "the" makes
	// them a time ("how many days before the party …" asks a count).
	anchorNext = regexp.MustCompile(`(?i)\b(?:(?:the\s+)?(` + alternatives(keys(lang.AnchorSpans)) + `)|the\s+(?:few\s+)?(` +
		alternatives(keys(lang.AnchorSomeSpans)) + `))\s+(` + alternatives(append(slices.Clone(lang.AnchorAfter), lang.AnchorBefore...)) +
		`)\s+(?:` + alternatives(lang.EventOpeners) + `)\s+([\p{L}][\p{L}'’-]*(?:\s+[\p{L}][\p{L}'’-]*){0,2})`)
	// "her first month at the new job", "my first week in the new flat"
	anchorFirst = regexp.MustCompile(`(?i)\b(?:` + alternatives(lang.EventOpeners) + `)\s+first\s+(` + alternatives(keys(lang.AnchorSpans)) +
		`)\s+(?:` + alternatives(lang.EventJoiners) + `)\s+(?:(?:` + alternatives(lang.EventOpeners) + `)\s+)?([\p{L}][\p{L}'’-]*(?:\s+[\p{L}][\p{L}'’-]*){0,2})`)
)

// alternatives is lang.Alternation of phrases whose words a question may
// part by any white space ("the two  weeks after").
func alternatives(phrases []string) string {
	return strings.ReplaceAll(lang.Alternation(phrases), " ", `\s+`)
}

func keys(m map[string]int) []string { return slices.Sorted(maps.Keys(m)) }

// spanDays is how many days a span of an anchored window lasts.
func spanDays(span string) int {
	if d, ok := lang.AnchorSpans[span]; ok {
		return d
	}
	return lang.AnchorSomeSpans[span]
}

// findAnchor reads an event-anchored window from text: the anchor and the
// bytes of text it covers.
func findAnchor(text string) (*EventAnchor, span, bool) {
	if m := anchorNext.FindStringSubmatchIndex(text); m != nil {
		u := m[2:4]
		if u[0] < 0 {
			u = m[4:6] // "the days", "the few weeks"
		}
		unit := strings.ToLower(strings.Join(strings.Fields(text[u[0]:u[1]]), " "))
		dir := 1
		if rel := strings.ToLower(text[m[6]:m[7]]); slices.Contains(lang.AnchorBefore, rel) {
			dir = -1
		}
		words, end := eventWords(text, m[8], m[9])
		if len(words) == 0 {
			return nil, span{}, false
		}
		return &EventAnchor{Words: words, Days: spanDays(unit), Dir: dir}, span{start: m[0], end: end}, true
	}
	if m := anchorFirst.FindStringSubmatchIndex(text); m != nil {
		unit := strings.ToLower(text[m[2]:m[3]])
		words, end := eventWords(text, m[4], m[5])
		if len(words) == 0 {
			return nil, span{}, false
		}
		return &EventAnchor{Words: words, Days: spanDays(unit), Dir: 0}, span{start: m[0], end: end}, true
	}
	return nil, span{}, false
}

// eventWords keeps the words of text[start:end] up to the first stop word
// ("the launch of the app": "launch"), and where they end.
func eventWords(text string, start, end int) ([]string, int) {
	var out []string
	at := start
	for _, w := range strings.Fields(text[start:end]) {
		lw := strings.ToLower(strings.Trim(w, "'’"))
		if IsStopWord(lw) && lw != "new" {
			break
		}
		out = append(out, lw)
		at = strings.Index(text[at:], w) + at + len(w)
	}
	return out, at
}
