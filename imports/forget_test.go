package imports

import (
	"strings"
	"testing"
	"time"
)

// TestFilter: Filter leaves out the lines drop reports and keeps the
// section inert; a session whose heading, or every turn, is dropped is
// not imported at all.
func TestFilter(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 1, 15, 8, 0, 0, 0, time.UTC)
	section, err := Render(Session{Format: "openclaw", ID: "s1", Title: "CI cache", Turns: []Turn{
		{Speaker: "User", Time: at, Text: "Remind me what Tomasz said about the CI cache."},
		{Speaker: "Assistant", Time: at, Text: "Keyed by the lockfile hash,\nand cleared every Monday."},
	}})
	if err != nil {
		t.Fatal(err)
	}
	says := func(s string) func(string) bool {
		return func(l string) bool { return strings.Contains(l, s) }
	}
	out, n, ok := Filter(section, says("Tomasz"))
	if !ok || n != 1 || strings.Contains(out, "Tomasz") || !strings.Contains(out, "lockfile") || !inert(out) {
		t.Errorf("one turn dropped: %v %d\n%s", ok, n, out)
	}
	if out, n, ok := Filter(section, says("nothing")); !ok || n != 0 || out != section {
		t.Errorf("nothing dropped: %v %d", ok, n)
	}
	if _, _, ok := Filter(section, says("## Conversation")); ok {
		t.Error("a session whose heading was forgotten is imported")
	}
	if _, _, ok := Filter(section, func(l string) bool {
		return strings.HasPrefix(strings.TrimSpace(l), "- ") || strings.HasPrefix(l, "    ")
	}); ok {
		t.Error("a session whose every turn was forgotten is imported")
	}
}
