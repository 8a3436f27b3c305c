package imports

import "strings"

// Filter leaves out of a session's section (Render's) the lines drop
// reports: text the workspace forgot (`memoria forget` records it), which
// an import of the same conversation or note must not bring back. It
// returns what is left and how many lines went; ok is false when nothing
// of the session is left to import: its heading went (the heading names
// the session, and its key), or every line under it did. What is left is
// checked as Render's output is: it stays one inert section.
func Filter(section string, drop func(line string) bool) (out string, dropped int, ok bool) {
	lines := strings.SplitAfter(section, "\n")
	var b strings.Builder
	body := false
	for i, l := range lines {
		if drop(strings.TrimRight(l, "\n")) {
			if i == 0 {
				return "", 1, false
			}
			dropped++
			continue
		}
		if i > 0 && strings.TrimSpace(l) != "" {
			body = true
		}
		b.WriteString(l)
	}
	if dropped == 0 {
		return section, 0, true
	}
	if !body {
		return "", dropped, false
	}
	out = b.String()
	if !inert(out) {
		// Lines removed from an inert section leave it inert (fences are
		// never forgotten text); were it otherwise, none of it is written.
		return "", dropped, false
	}
	return out, dropped, true
}
