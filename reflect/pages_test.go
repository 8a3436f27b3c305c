package reflect

import (
	"strings"
	"testing"
)

// TestSplice: where the managed block goes, and that every byte outside
// it is kept.
func TestSplice(t *testing.T) {
	body := []string{"## Summary (memoria)", "", "- 2025-01-01 W: x (memory/2025-01-01.md#L3)"}
	block := BeginMarker + " hash=" + blockHash(body) + ": " + beginComment + " -->\n" + strings.Join(body, "\n") + "\n" + EndMarker + "\n"
	tests := []struct {
		name, in, want string
		edited, fails  bool
	}{
		{"new page", "", "# Ann\n\n" + block, false, false},
		{"append after text", "# Ann\n\nMine.\n", "# Ann\n\nMine.\n\n" + block, false, false},
		{"append after a blank line", "# Ann\n\n", "# Ann\n\n" + block, false, false},
		{"append, no final newline", "# Ann\nMine.", "# Ann\nMine.\n\n" + block, false, false},
		{"replace in place", "# Ann\n\n" + strings.Replace(block, "x (memory", "old (memory", 1) + "\nAfter.\n", "", true, false},
		{"unchanged", "top\n" + block + "bottom", "top\n" + block + "bottom", false, false},
		{"two begins", "x\n" + block + block, "", false, true},
		{"no end", "x\n" + BeginMarker + " hash=0 -->\n", "", false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, edited, err := splice([]byte(tt.in), "Ann", body)
			if (err != nil) != tt.fails {
				t.Fatalf("err %v", err)
			}
			if err != nil {
				return
			}
			if edited != tt.edited {
				t.Errorf("edited %v", edited)
			}
			if tt.want != "" && string(out) != tt.want {
				t.Errorf("got\n%q\nwant\n%q", out, tt.want)
			}
			if tt.edited {
				s := string(out)
				if !strings.HasPrefix(s, "# Ann\n\n"+EditedBegin+"\n") || !strings.Contains(s, "old (memory") ||
					!strings.HasSuffix(s, EditedEnd+"\n"+block+"\nAfter.\n") {
					t.Errorf("edited block not kept beside the new one:\n%s", s)
				}
			}
		})
	}
}
