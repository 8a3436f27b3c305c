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
	a, b := splitLines(string(old)), splitLines(string(new))
	type op struct {
		kind byte // ' ', '-', '+'
		text string
	}
	// Common prefix and suffix, then an LCS of the middle.
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	am, bm := a[pre:len(a)-suf], b[pre:len(b)-suf]
	var ops []op
	for _, l := range a[:pre] {
		ops = append(ops, op{' ', l})
	}
	if len(am)*len(bm) <= maxDiffCells {
		n, m := len(am), len(bm)
		t := make([][]int32, n+1)
		for i := range t {
			t[i] = make([]int32, m+1)
		}
		for i := n - 1; i >= 0; i-- {
			for j := m - 1; j >= 0; j-- {
				if am[i] == bm[j] {
					t[i][j] = t[i+1][j+1] + 1
				} else {
					t[i][j] = max(t[i+1][j], t[i][j+1])
				}
			}
		}
		i, j := 0, 0
		for i < n || j < m {
			switch {
			case i < n && j < m && am[i] == bm[j]:
				ops = append(ops, op{' ', am[i]})
				i++
				j++
			case i < n && (j == m || t[i+1][j] >= t[i][j+1]):
				ops = append(ops, op{'-', am[i]})
				i++
			default:
				ops = append(ops, op{'+', bm[j]})
				j++
			}
		}
	} else {
		for _, l := range am {
			ops = append(ops, op{'-', l})
		}
		for _, l := range bm {
			ops = append(ops, op{'+', l})
		}
	}
	for _, l := range a[len(a)-suf:] {
		ops = append(ops, op{' ', l})
	}
	var out strings.Builder
	from := "a/" + path
	if created {
		from = "/dev/null"
	}
	fmt.Fprintf(&out, "--- %s\n+++ b/%s\n", from, path)
	const ctx = 3
	for i := 0; i < len(ops); {
		if ops[i].kind == ' ' {
			i++
			continue
		}
		// A hunk: from ctx lines before this change to ctx lines after the
		// last change that is at most 2*ctx lines further.
		start := max(i-ctx, 0)
		end := i
		for k := i; k < len(ops); k++ {
			if ops[k].kind != ' ' {
				end = k
			} else if k-end > 2*ctx {
				break
			}
		}
		stop := min(end+ctx+1, len(ops))
		aLine, bLine := 1, 1
		for _, o := range ops[:start] {
			if o.kind != '+' {
				aLine++
			}
			if o.kind != '-' {
				bLine++
			}
		}
		na, nb := 0, 0
		for _, o := range ops[start:stop] {
			if o.kind != '+' {
				na++
			}
			if o.kind != '-' {
				nb++
			}
		}
		if na == 0 {
			aLine--
		}
		if nb == 0 {
			bLine--
		}
		fmt.Fprintf(&out, "@@ -%d,%d +%d,%d @@\n", aLine, na, bLine, nb)
		for _, o := range ops[start:stop] {
			out.WriteByte(o.kind)
			out.WriteString(o.text)
			out.WriteByte('\n')
		}
		i = stop
	}
	return out.String()
}

func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}
