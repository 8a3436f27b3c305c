package memory

import (
	"fmt"
	"strconv"
	"strings"
)

// Source cites the lines that hold a piece of memory: a workspace-relative,
// slash-separated path and an inclusive 1-based line range.
type Source struct {
	Path  string
	Start int
	End   int
}

// String formats the citation as path#Lx, or path#Lx-Ly for several lines.
func (s Source) String() string {
	switch {
	case s.Start <= 0:
		return s.Path
	case s.End <= s.Start:
		return fmt.Sprintf("%s#L%d", s.Path, s.Start)
	default:
		return fmt.Sprintf("%s#L%d-L%d", s.Path, s.Start, s.End)
	}
}

// Lines is how many lines the citation spans.
func (s Source) Lines() int {
	if s.Start <= 0 {
		return 0
	}
	if s.End < s.Start {
		return 1
	}
	return s.End - s.Start + 1
}

// Overlaps reports whether two citations share a line of the same file.
func (s Source) Overlaps(o Source) bool {
	return s.Path == o.Path && s.Start <= o.lastLine() && o.Start <= s.lastLine()
}

// Touches reports whether two citations of the same file overlap or are
// adjacent, so that they can be merged into one range.
func (s Source) Touches(o Source) bool {
	return s.Path == o.Path && s.Start <= o.lastLine()+1 && o.Start <= s.lastLine()+1
}

func (s Source) lastLine() int {
	if s.End < s.Start {
		return s.Start
	}
	return s.End
}

// ParseSource reads "path", "path#L12", "path#L12-L15" or "path#L12-15".
// A bare path cites the whole file (Start 0).
//
// A path may hold "#" ("memory/meeting #3.md#L2"): the lines are what
// follows the last "#", and a citation that ends in ".md" has none, since
// a memory file's name ends so and a line range does not. What String
// writes, ParseSource reads back, whatever the file is called.
func ParseSource(ref string) (Source, error) {
	path, frag, found := ref, "", false
	if i := strings.LastIndexByte(ref, '#'); i >= 0 && !hasMarkdownSuffix(ref) {
		path, frag, found = ref[:i], ref[i+1:], true
	}
	if path == "" {
		return Source{}, fmt.Errorf("source %q: empty path", ref)
	}
	if !found {
		return Source{Path: path}, nil
	}
	bad := fmt.Errorf("source %q: want path#L12 or path#L12-L15", ref)
	a, b, isRange := strings.Cut(frag, "-")
	start, err := lineNumber(a)
	if err != nil {
		return Source{}, bad
	}
	end := start
	if isRange {
		if end, err = lineNumber(strings.TrimPrefix(b, "L")); err != nil {
			return Source{}, bad
		}
		if b == "" {
			return Source{}, bad
		}
		if end < start {
			return Source{}, fmt.Errorf("source %q: the range ends before it starts (want path#L%d-L%d)", ref, end, start)
		}
	}
	return Source{Path: path, Start: start, End: end}, nil
}

func lineNumber(s string) (int, error) {
	s = strings.TrimPrefix(s, "L")
	n, err := strconv.Atoi(s)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("bad line number %q", s)
	}
	return n, nil
}

// hasMarkdownSuffix reports whether s ends in ".md", in any case, as every
// memory file's name does (ClassifyPath).
func hasMarkdownSuffix(s string) bool {
	return len(s) >= 3 && strings.EqualFold(s[len(s)-3:], ".md")
}
