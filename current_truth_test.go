package memoria_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"memoria"
	"memoria/recall"
)

// TestCurrentTruthFirst: two facts about the same entity and attribute,
// the newer saying a change, answer a question about now with the newer
// first and a question about a past window with the older first, before
// and after reflect, and the result names the link. The workspaces are
// those a new user tried (issue 43): a ten-line workspace where "where is
// Maya based?" answered Hamburg first, and a move from Hetzner to AWS whose
// current fact ranked 7th, an unrelated opinion first.
func TestCurrentTruthFirst(t *testing.T) {
	t.Parallel()
	day := func(s string) time.Time { d, _ := time.Parse(time.DateOnly, s); return d }
	for _, tc := range []struct {
		name           string
		files          map[string]string
		now            string
		question, want string
		supersedes     string // the source the first result supersedes
	}{
		{"Maya moved", map[string]string{
			"memory/2026-03-02.md": "# 2026-03-02\n\nKick-off for Atlas.\n\n## Retain\n- W @Maya: Backend lead on Project Atlas; based in Hamburg.\n",
			"memory/2026-03-09.md": "# 2026-03-09\n\nShort call with Maya.\n\n## Retain\n- W @Maya: Now based in Berlin; moved from Hamburg last week.\n",
			"memory/2026-03-10.md": "# 2026-03-10\n\nPlanning the Atlas milestones; Maya owns the API.\n",
		}, "2026-03-12", "where is Maya based?", "Berlin", "memory/2026-03-02.md"},
		{"hosting switched", map[string]string{
			"memory/2026-01-12.md": "# 2026-01-12\n\n## Retain\n- W @Infra: We host on Hetzner: two dedicated boxes in Falkenstein.\n- O(c=0.9) @Infra: Managed databases are worth the money for a team our size.\n",
			"memory/2026-02-20.md": "# 2026-02-20\n\nThe outage post-mortem.\n\n## Retain\n- W @Infra: Switched hosting to AWS (eu-central-1) after the Falkenstein outage.\n",
			"memory/2026-02-25.md": "# 2026-02-25\n\nThe dashboards look calmer; nobody misses the pager.\n",
		}, "2026-03-01", "where do we host now?", "AWS", "memory/2026-01-12.md"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			dir := workspaceOf(t, tc.files)
			ws := open(t, dir, nil)
			now := day(tc.now)
			check := func(when string) {
				t.Helper()
				res, err := ws.Recall(ctx, tc.question, memoria.RecallOptions{Now: now, Lexical: true, K: 5})
				if err != nil || len(res) == 0 {
					t.Fatalf("%s: %v %v", when, res, err)
				}
				if !strings.Contains(res[0].Content, tc.want) {
					t.Errorf("%s: %q first, want %q: %v", when, res[0].Content, tc.want, res)
				}
				if !slices.ContainsFunc(res[0].Supersedes, func(l recall.Link) bool { return strings.HasPrefix(l.Source, tc.supersedes) }) {
					t.Errorf("%s: %s supersedes %v, want %s", when, res[0].Source, res[0].Supersedes, tc.supersedes)
				}
			}
			check("before reflect")
			if _, err := ws.Reflect(ctx, memoria.ReflectOptions{Now: now, Lexical: true}); err != nil {
				t.Fatal(err)
			}
			check("after reflect")
		})
	}
	// For a past window, the version true then comes first.
	ws := open(t, workspaceOf(t, map[string]string{
		"memory/2026-03-02.md": "# 2026-03-02\n\n## Retain\n- W @Maya: Backend lead on Project Atlas; based in Hamburg.\n",
		"memory/2026-03-09.md": "# 2026-03-09\n\n## Retain\n- W @Maya: Now based in Berlin; moved from Hamburg last week.\n",
	}), nil)
	res, err := ws.Recall(context.Background(), "where was Maya based in early March 2026?", memoria.RecallOptions{Now: day("2026-04-20"), Lexical: true, K: 5})
	if err != nil || len(res) == 0 || !strings.Contains(res[0].Content, "Hamburg") || strings.Contains(res[0].Content, "Berlin") {
		t.Errorf("early March: %v %v; want the Hamburg fact first", res, err)
	}
}
