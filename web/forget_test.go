package web_test

import (
	"context"
	"net/url"
	"strings"
	"testing"
	"time"

	"memoria"
)

// TestAPIShowsForgottenLinesNowhere: a line forgotten (memory forget) is
// on no page of the API: not in recall, the entity's page, the timeline
// of its day, the file read with get (whole, or at its old lines), the
// opinions, the graph or the review queues; before, recall, the entity
// and the timeline showed it.
func TestAPIShowsForgottenLinesNowhere(t *testing.T) {
	t.Parallel()
	ws := example(t)
	ts := serve(t, ws, "")
	const secret = "while Peter is in Lisbon"
	pages := []string{
		"/api/recall?q=" + url.QueryEscape("where does Biscuit stay during the Lisbon trip in October?") + "&now=2025-12-01",
		"/api/recall?q=" + url.QueryEscape("who minds the dog when its owner is away?") + "&now=2025-12-01",
		"/api/entity?name=Biscuit",
		"/api/timeline?before=2025-10-14&days=3",
		"/api/get?ref=" + url.QueryEscape("memory/2025-10-13.md"),
		"/api/get?ref=" + url.QueryEscape("memory/2025-10-13.md#L44-L45"),
		"/api/opinions",
		"/api/graph?n=50",
		"/api/entities",
		"/api/proposals",
	}
	shown := func(p string) bool {
		t.Helper()
		code, body, _ := call(t, ts.Client(), "GET", ts.URL+p, "", nil)
		if code != 200 {
			t.Fatalf("GET %s: %d %s", p, code, body)
		}
		return strings.Contains(body, secret)
	}
	for _, p := range pages[:4] {
		if !shown(p) {
			t.Fatalf("before forgetting, %s does not show the line: the test proves nothing", p)
		}
	}
	rep, err := ws.Forget(context.Background(), memoria.ForgetOptions{Sources: []string{"memory/2025-10-13.md#L44-L45"}, Now: time.Date(2025, 12, 2, 0, 0, 0, 0, time.UTC)})
	if err != nil || rep.Lines != 2 {
		t.Fatalf("forget: %+v, %v", rep, err)
	}
	for _, p := range pages {
		if shown(p) {
			t.Errorf("after forgetting, %s shows the line", p)
		}
	}
}
