package forget

import (
	"regexp"
	"strconv"
	"strings"

	"memoria/markdown"
	"memoria/memory"
)

// Cut returns data without its lines in drop (1-based line numbers, as
// RawLines counts them). Each run of consecutive dropped lines holding a
// line of trace is replaced by one line, tombstone, indented as the run's
// first line and ended as its last; other runs leave nothing. Every other
// byte is kept.
func Cut(data []byte, drop, trace map[int]bool, tombstone string) []byte {
	lines := RawLines(data)
	out := make([]byte, 0, len(data))
	for i := 0; i < len(lines); {
		if !drop[i+1] {
			out = append(out, lines[i]...)
			i++
			continue
		}
		j, traced := i, false
		for j < len(lines) && drop[j+1] {
			traced = traced || trace[j+1]
			j++
		}
		if traced && tombstone != "" {
			first := string(Body(lines[i]))
			indent := first[:len(first)-len(strings.TrimLeft(first, " \t"))]
			last := lines[j-1]
			if i == 0 && strings.HasPrefix(first, "\uFEFF") {
				out = append(out, "\uFEFF"...)
				indent = strings.TrimPrefix(indent, "\uFEFF")
			}
			out = append(out, indent+tombstone...)
			out = append(out, last[len(Body(last)):]...)
		}
		i = j
	}
	return out
}

// Extent is the last line (0-based) of the list item whose first line is
// lines[i]: the lines after it that are indented deeper than its marker,
// and blank lines followed by such lines (its continuation, nested items
// and sub-items, as the parser reads a list item). A line that is no list
// item is its own extent.
func Extent(lines []string, i int) int {
	w, ok := listIndent(lines[i])
	if !ok {
		return i
	}
	last := i
	for j := i + 1; j < len(lines); j++ {
		t := lines[j]
		if strings.TrimSpace(t) == "" {
			continue
		}
		if iw, _ := markdown.IndentWidth(t); iw <= w {
			break
		}
		last = j
	}
	return last
}

// listIndent is the indentation of a list item's marker; ok is false for
// a line that is no list item.
func listIndent(s string) (int, bool) {
	t := strings.TrimLeft(s, " \t")
	if listItem(t) == t {
		return 0, false
	}
	w, _ := markdown.IndentWidth(s)
	return w, true
}

// citeRE finds citations of memory files in a line: path#Lx or
// path#Lx-Ly (a path of a memory file ends in .md).
var citeRE = regexp.MustCompile(`([^\s()\[\]<>"'` + "`" + `,;]+\.md)#L(\d+)(?:-L?(\d+))?`)

// Cites returns the citations a line holds.
func Cites(line string) []memory.Source {
	var out []memory.Source
	for _, m := range citeRE.FindAllStringSubmatch(line, -1) {
		start, err := strconv.Atoi(m[2])
		if err != nil || start <= 0 {
			continue
		}
		end := start
		if m[3] != "" {
			if e, err := strconv.Atoi(m[3]); err == nil && e >= start {
				end = e
			}
		}
		out = append(out, memory.Source{Path: m[1], Start: start, End: end})
	}
	return out
}

// IsBookkeeping reports whether a line is one of the sub-items reflect
// keeps under an opinion ("  - supports: f_… memory/…#L10"): a reference
// to evidence, not evidence.
func IsBookkeeping(line string) bool {
	t := strings.TrimSpace(line)
	if listItem(t) == t {
		return false
	}
	key, _, ok := strings.Cut(listItem(t), ":")
	if !ok {
		return false
	}
	key = strings.ToLower(strings.TrimSpace(key))
	for _, k := range markdown.BookkeepingKeys {
		if key == k {
			return true
		}
	}
	return false
}

// ManagedBlocks reports, for each line, whether it lies inside a block
// `memoria reflect` manages (between its markers, the markers excluded).
func ManagedBlocks(lines []string) []bool {
	return Blocks(lines, markdown.ManagedBegin, markdown.ManagedEnd)
}

// Blocks reports, for each line, whether it lies between a line that
// starts with begin and the next that starts with end (white space
// trimmed; the markers excluded). A block with no end marks nothing, as
// the parser reads a managed block with no end.
func Blocks(lines []string, begin, end string) []bool {
	in := make([]bool, len(lines))
	for i := 0; i < len(lines); i++ {
		if !strings.HasPrefix(strings.TrimSpace(lines[i]), begin) {
			continue
		}
		stop := -1
		for j := i + 1; j < len(lines); j++ {
			if strings.HasPrefix(strings.TrimSpace(lines[j]), end) {
				stop = j
				break
			}
		}
		if stop < 0 {
			break
		}
		for j := i + 1; j < stop; j++ {
			in[j] = true
		}
		i = stop
	}
	return in
}

// Fold is a line's text for a containment test: white space folded to
// single spaces, lower case, as Content folds it.
func Fold(s string) string { return fold(s) }
