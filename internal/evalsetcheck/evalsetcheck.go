// Package evalsetcheck validates a graded recall evaluation set of the
// bench/unseen kind from its own test: queries.jsonl, workspace/ and
// README.md in the test's folder (Run); or a team set of the
// bench/teamset kind, whose questions are asked of every workspace of its
// workspaces/ folder at once (RunTeam). It scores nothing.
package evalsetcheck

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"memoria/eval"
	"memoria/memory"
)

// Set is what a set's README.md says of it: the scored queries per type
// (its table of types must say the same), the total, and the shape of
// its workspace.
type Set struct {
	Scored                         map[string]int
	Total                          int
	MinAbstentions, MaxAbstentions int
	FirstLogDay, LastLogDay        string // YYYY-MM-DD
	MinLogs, MaxLogs               int
	MinEntityPages, MaxEntityPages int
}

// queriesFile and workspaceDir are the set's queries and workspace,
// relative to the test's folder.
const (
	queriesFile  = "queries.jsonl"
	workspaceDir = "workspace"
)

// Run checks the set in the current folder, each check a subtest: every
// query parses and names the workspace; every gold and superseded citation
// names existing lines, and no gold overlaps a superseded line; the fields
// of each type are where they belong and well formed; the counts per type
// are s's; the workspace has the shape s gives; README.md's table of types
// says s's counts.
func Run(t *testing.T, s Set) {
	t.Run("QueriesParse", func(t *testing.T) { queriesParse(t) })
	t.Run("References", func(t *testing.T) { references(t) })
	t.Run("Fields", func(t *testing.T) { fields(t, s) })
	t.Run("Counts", func(t *testing.T) { counts(t, s) })
	t.Run("WorkspaceShape", func(t *testing.T) { workspaceShape(t, s) })
	t.Run("READMECounts", func(t *testing.T) { readmeCounts(t, s) })
}

func load(t *testing.T) []eval.Query {
	t.Helper()
	qs, err := eval.LoadQueries(queriesFile)
	if err != nil {
		t.Fatal(err)
	}
	if len(qs) == 0 {
		t.Fatal("no queries")
	}
	return qs
}

func queriesParse(t *testing.T) {
	qs := load(t)
	abs, err := filepath.Abs(workspaceDir)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, q := range qs {
		if seen[q.ID] {
			t.Errorf("%s: duplicate id", q.ID)
		}
		seen[q.ID] = true
		if got, _ := filepath.Abs(q.Workspace); got != abs {
			t.Errorf("%s: workspace %s, want %s", q.ID, got, abs)
		}
		if strings.TrimSpace(q.Question) == "" || strings.TrimSpace(q.Answer) == "" {
			t.Errorf("%s: needs a question and an answer", q.ID)
		}
		if q.Now.IsZero() {
			t.Errorf("%s: needs a question_date", q.ID)
		}
	}
}

func references(t *testing.T) {
	qs := load(t)
	for _, err := range eval.CheckCitations(qs) {
		t.Error(err)
	}
	for _, q := range qs {
		for _, g := range q.Gold {
			for _, s := range q.Superseded {
				if eval.Hits(g, s) {
					t.Errorf("%s: gold %s overlaps superseded %s", q.ID, g, s)
				}
			}
		}
	}
}

// fields checks the per-type fields: abstentions, windows, asof and
// superseded, each where it belongs and well-formed.
func fields(t *testing.T, s Set) {
	first, _ := time.Parse(eval.DayLayout, s.FirstLogDay)
	for _, q := range load(t) {
		for _, c := range []struct {
			bad bool
			msg string
		}{
			{q.Abstention && (q.Scored || len(q.Gold) > 0 || len(q.Superseded) > 0 || q.Window != nil || q.AsOf != ""),
				"an abstention is not scored and has no gold, superseded, window or asof"},
			{!q.Abstention && (!q.Scored || len(q.Gold) == 0), "a scored query needs gold lines"},
			{!q.Abstention && (q.Window != nil) != (q.Category == "temporal"),
				"a window belongs to temporal queries, and every scored temporal query has one"},
			{q.Window != nil && q.Window.End.Before(q.Window.Start), "window ends before it starts"},
			{q.Window != nil && q.Window.End.After(memory.Day(q.Now)), "window ends after the question date"},
			{q.Window != nil && q.Window.Start.Before(first), "window starts before the first log"},
			{q.Category != "update" && (q.AsOf != "" || len(q.Superseded) > 0), "asof and superseded belong to update queries"},
			{q.Category == "update" && !q.Abstention && q.AsOf == "", "update query without asof"},
			{q.Category == "update" && !q.Abstention && len(q.Superseded) == 0, "update query without superseded lines"},
			{q.AsOf != "" && q.AsOf != eval.AsOfNow && !asofBefore(q.AsOf, q.Now), "a past asof must be before the question date"},
		} {
			if c.bad {
				t.Errorf("%s: %s", q.ID, c.msg)
			}
		}
	}
}

func asofBefore(asof string, now time.Time) bool {
	d, err := time.Parse(eval.DayLayout, asof)
	return err == nil && d.Before(memory.Day(now))
}

func counts(t *testing.T, s Set) {
	scored := map[string]int{}
	total, abstentions := 0, 0
	for _, q := range load(t) {
		if _, ok := s.Scored[q.Category]; !ok {
			t.Errorf("%s: unknown type %q", q.ID, q.Category)
		}
		if q.Abstention {
			abstentions++
		}
		if q.Scored {
			scored[q.Category]++
			total++
		}
	}
	types := make([]string, 0, len(s.Scored))
	for ty := range s.Scored {
		types = append(types, ty)
	}
	sort.Strings(types)
	for _, ty := range types {
		if scored[ty] != s.Scored[ty] {
			t.Errorf("type %s: %d scored queries, README says %d", ty, scored[ty], s.Scored[ty])
		}
	}
	if total != s.Total {
		t.Errorf("%d scored queries, want %d", total, s.Total)
	}
	if abstentions < s.MinAbstentions || abstentions > s.MaxAbstentions {
		t.Errorf("%d abstentions, want %d to %d", abstentions, s.MinAbstentions, s.MaxAbstentions)
	}
	t.Logf("%d scored %v, %d abstentions", total, scored, abstentions)
}

// workspaceShape keeps the workspace within what README.md describes:
// daily logs inside the story's span, a core memory, the curated bank files
// and a handful of entity pages.
func workspaceShape(t *testing.T, s Set) {
	logs, err := filepath.Glob(filepath.Join(workspaceDir, "memory", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	if len(logs) < s.MinLogs || len(logs) > s.MaxLogs {
		t.Errorf("%d daily logs, want %d to %d", len(logs), s.MinLogs, s.MaxLogs)
	}
	for _, p := range logs {
		day := strings.TrimSuffix(filepath.Base(p), ".md")
		if _, err := time.Parse(eval.DayLayout, day); err != nil || day < s.FirstLogDay || day > s.LastLogDay {
			t.Errorf("%s: not a daily log between %s and %s", p, s.FirstLogDay, s.LastLogDay)
		}
	}
	for _, rel := range []string{"memory.md", "bank/world.md", "bank/opinions.md", "bank/experience.md"} {
		if fi, err := os.Stat(filepath.Join(workspaceDir, filepath.FromSlash(rel))); err != nil || fi.Size() == 0 {
			t.Errorf("%s: missing or empty (%v)", rel, err)
		}
	}
	pages, err := filepath.Glob(filepath.Join(workspaceDir, "bank", "entities", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	if len(pages) < s.MinEntityPages || len(pages) > s.MaxEntityPages {
		t.Errorf("%d entity pages, want %d to %d", len(pages), s.MinEntityPages, s.MaxEntityPages)
	}
}

// readmeRow is a row of README.md's table of types: | `type` | scored | … |
var readmeRow = regexp.MustCompile("(?m)^\\| `([a-z]+)` \\| ([0-9]+) \\|")

// readmeCounts keeps README.md's table of types and counts in step with
// s.Scored, which counts checks against the queries.
func readmeCounts(t *testing.T, s Set) {
	data, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	for _, m := range readmeRow.FindAllStringSubmatch(string(data), -1) {
		n, err := strconv.Atoi(m[2])
		if err != nil {
			t.Fatalf("README row %q: %v", m[0], err)
		}
		got[m[1]] = n
	}
	for ty, n := range s.Scored {
		if m, ok := got[ty]; !ok || m != n {
			t.Errorf("type %s: README.md says %d (listed: %v), want %d", ty, m, ok, n)
		}
	}
	for ty := range got {
		if _, ok := s.Scored[ty]; !ok {
			t.Errorf("type %s: in README.md but not in the set's counts", ty)
		}
	}
}
