package web_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAPIEntityNames: the page's entity view and recall filter take names
// as people write them, and a name two entities share is a bad request
// whose message names both (it was a 404, "unknown entity").
func TestAPIEntityNames(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	log := "# 2026-01-10\n\n## Retain\n- W @Project-Atlas: The migration is due in March.\n" +
		"- W @Alex-Kim: Runs the budget.\n- W @Alex-Moreau: Writes the release notes.\n"
	if err := os.MkdirAll(filepath.Join(dir, "memory"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "memory", "2026-01-10.md"), []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	ts := serve(t, open(t, dir), "")
	ambiguous := `entity \"Alex\" is ambiguous: Alex-Kim, Alex-Moreau; name one`
	for _, c := range []struct {
		path   string
		status int
		want   string
	}{
		{"/api/entity?name=Project+Atlas", 200, `"slug":"Project-Atlas"`},
		{"/api/entity?name=atlas", 200, `"slug":"Project-Atlas"`},
		{"/api/recall?q=migration&entity=Atlas", 200, `"Project-Atlas"`},
		{"/api/entity?name=Alex", 400, ambiguous},
		{"/api/recall?q=budget&entity=Alex", 400, ambiguous},
		{"/api/entity?name=Nobody", 404, "unknown entity"},
	} {
		status, body, _ := call(t, ts.Client(), "GET", ts.URL+c.path, "", nil)
		if status != c.status || !strings.Contains(body, c.want) {
			t.Errorf("GET %s: %d %.300s; want %d with %q", c.path, status, body, c.status, c.want)
		}
	}
}
