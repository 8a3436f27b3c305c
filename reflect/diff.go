package reflect

import (
	"fmt"
	"strings"
)

// Diff renders the plan as a unified diff (a/PATH, b/PATH, three lines of
// context), the output of `memoria reflect --dry-run`.
func (p *Plan) Diff() string {
	var b strings.Builder
	for _, c := range p.Changes {
		b.WriteString(UnifiedDiff(c.Path, c.Old, c.New, c.Created))
	}
	return b.String()
}

// maxDiffCells bounds the LCS table; past it the changed middle of a file
// is shown as removed and added whole.
const maxDiffCells = 4 << 20

// UnifiedDiff is a unified diff of one file; created diffs against
// /dev/null.
func UnifiedDiff(path string, old, new []byte, created bool) string {
	var out strings.Builder
	from := "a/" + path
	if created {
		from = "/dev/null"
	}
	fmt.Fprintf(&out, "--- %s\n+++ b/%s\n", from, path)
	writeHunks(&out, diffLines(splitLines(string(old)), splitLines(string(new))))
	return out.String()
}

// diffOp is one line of a diff: kept (' '), removed ('-') or added ('+').
type diffOp struct {
	kind byte
	text string
}

// diffLines turns a into b: the common prefix and suffix kept, and the
// changed middle by a longest common subsequence of lines.
func diffLines(a, b []string) []diffOp {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	ops := appendOps(nil, ' ', a[:pre])
	ops = append(ops, diffMiddle(a[pre:len(a)-suf], b[pre:len(b)-suf])...)
	return appendOps(ops, ' ', a[len(a)-suf:])
}

// appendOps appends lines to ops as ops of one kind.
func appendOps(ops []diffOp, kind byte, lines []string) []diffOp {
	for _, l := range lines {
		ops = append(ops, diffOp{kind, l})
	}
	return ops
}

// diffMiddle turns a into b by a longest common subsequence, or, past
// maxDiffCells, removes a and adds b whole.
func diffMiddle(a, b []string) []diffOp {
	n, m := len(a), len(b)
	if n*m > maxDiffCells {
		return appendOps(appendOps(nil, '-', a), '+', b)
	}
	t := make([][]int32, n+1) // t[i][j]: the LCS of a[i:] and b[j:]
	for i := range t {
		t[i] = make([]int32, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				t[i][j] = t[i+1][j+1] + 1
			} else {
				t[i][j] = max(t[i+1][j], t[i][j+1])
			}
		}
	}
	var ops []diffOp
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && a[i] == b[j]:
			ops = append(ops, diffOp{' ', a[i]})
			i++
			j++
		case i < n && (j == m || t[i+1][j] >= t[i][j+1]):
			ops = append(ops, diffOp{'-', a[i]})
			i++
		default:
			ops = append(ops, diffOp{'+', b[j]})
			j++
		}
	}
	return ops
}

// diffContext is how many kept lines a hunk shows around a change.
const diffContext = 3

// writeHunks writes the hunks of ops: each from diffContext lines before a
// change to diffContext lines after the last change that is at most
// 2*diffContext lines further.
func writeHunks(out *strings.Builder, ops []diffOp) {
	for i := 0; i < len(ops); {
		if ops[i].kind == ' ' {
			i++
			continue
		}
		start := max(i-diffContext, 0)
		end := i
		for k := i; k < len(ops); k++ {
			if ops[k].kind != ' ' {
				end = k
			} else if k-end > 2*diffContext {
				break
			}
		}
		stop := min(end+diffContext+1, len(ops))
		aLine, bLine := sides(ops[:start])
		na, nb := sides(ops[start:stop])
		// The number of each side's first line in the hunk; the line
		// before it when the hunk holds none of that side's.
		if na > 0 {
			aLine++
		}
		if nb > 0 {
			bLine++
		}
		fmt.Fprintf(out, "@@ -%d,%d +%d,%d @@\n", aLine, na, bLine, nb)
		for _, o := range ops[start:stop] {
			out.WriteByte(o.kind)
			out.WriteString(o.text)
			out.WriteByte('\n')
		}
		i = stop
	}
}

// sides counts the lines of ops in the old file and in the new one.
func sides(ops []diffOp) (a, b int) {
	for _, o := range ops {
		if o.kind != '+' {
			a++
		}
		if o.kind != '-' {
			b++
		}
	}
	return a, b
}

func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}
