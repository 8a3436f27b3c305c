package markdown

import (
	"slices"
	"testing"
)

// TestMentions: Mentions reads a line's @mentions as the parser does: not
// the part of an e-mail address or a handle after its '@', not inside a
// code span, and not a slug that is unsafe as a file name.
func TestMentions(t *testing.T) {
	for _, c := range []struct {
		line string
		want []string
	}{
		{"Ask @Peter about the relay.", []string{"Peter"}},
		{"UPI ID: kesarcrumb@okaxis", nil},
		{"write to ana@example.org or @Ana-Lopes", []string{"Ana-Lopes"}},
		{"run `git log @{u}` first", nil},
		{"@Peter and @peter are one", []string{"Peter"}},
	} {
		if got := Mentions(c.line); !slices.Equal(got, c.want) {
			t.Errorf("Mentions(%q) = %q, want %q", c.line, got, c.want)
		}
	}
}
