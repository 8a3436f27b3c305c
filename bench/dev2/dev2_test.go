package dev2_test

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

// queriesFile is the evaluation set, next to this test.
const queriesFile = "queries.jsonl"

// workspaceDir is the set's workspace, relative to this folder.
const workspaceDir = "workspace"

// wantScored is the number of scored queries per type; README.md's table
// must say the same (TestREADMECounts).
var wantScored = map[string]int{
	"lexical":  12,
	"entity":   12,
	"temporal": 12,
	"opinion":  12,
	"decision": 12,
	"update":   14,
}

const (
	wantTotal      = 74
	minAbstentions = 3
	maxAbstentions = 6
	firstLogDay    = "2026-02-23"
	lastLogDay     = "2026-06-21"
	minLogs        = 45
	maxLogs        = 55
	minEntityPages = 6
	maxEntityPages = 9
)

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

func TestQueriesParse(t *testing.T) {
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

func TestReferences(t *testing.T) {
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

// TestFields checks the per-type fields: abstentions, windows, asof and
// superseded, each where it belongs and well-formed.
func TestFields(t *testing.T) {
	first, _ := time.Parse(eval.DayLayout, firstLogDay)
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

func TestCounts(t *testing.T) {
	scored := map[string]int{}
	total, abstentions := 0, 0
	for _, q := range load(t) {
		if _, ok := wantScored[q.Category]; !ok {
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
	types := make([]string, 0, len(wantScored))
	for ty := range wantScored {
		types = append(types, ty)
	}
	sort.Strings(types)
	for _, ty := range types {
		if scored[ty] != wantScored[ty] {
			t.Errorf("type %s: %d scored queries, README says %d", ty, scored[ty], wantScored[ty])
		}
	}
	if total != wantTotal {
		t.Errorf("%d scored queries, want %d", total, wantTotal)
	}
	if abstentions < minAbstentions || abstentions > maxAbstentions {
		t.Errorf("%d abstentions, want %d to %d", abstentions, minAbstentions, maxAbstentions)
	}
	t.Logf("%d scored %v, %d abstentions", total, scored, abstentions)
}

// TestWorkspaceShape keeps the workspace within what README.md describes:
// daily logs inside the story's span, a core memory, the curated bank files
// and a handful of entity pages.
func TestWorkspaceShape(t *testing.T) {
	logs, err := filepath.Glob(filepath.Join(workspaceDir, "memory", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	if len(logs) < minLogs || len(logs) > maxLogs {
		t.Errorf("%d daily logs, want %d to %d", len(logs), minLogs, maxLogs)
	}
	for _, p := range logs {
		day := strings.TrimSuffix(filepath.Base(p), ".md")
		if _, err := time.Parse(eval.DayLayout, day); err != nil || day < firstLogDay || day > lastLogDay {
			t.Errorf("%s: not a daily log between %s and %s", p, firstLogDay, lastLogDay)
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
	if len(pages) < minEntityPages || len(pages) > maxEntityPages {
		t.Errorf("%d entity pages, want %d to %d", len(pages), minEntityPages, maxEntityPages)
	}
}

// readmeRow is a row of README.md's table of types: | `type` | scored | … |
var readmeRow = regexp.MustCompile("(?m)^\\| `([a-z]+)` \\| ([0-9]+) \\|")

// TestREADMECounts keeps README.md's table of types and counts in step with
// wantScored, which TestCounts checks against the queries.
func TestREADMECounts(t *testing.T) {
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
	for ty, n := range wantScored {
		if m, ok := got[ty]; !ok || m != n {
			t.Errorf("type %s: README.md says %d (listed: %v), wantScored %d", ty, m, ok, n)
		}
	}
	for ty := range got {
		if _, ok := wantScored[ty]; !ok {
			t.Errorf("type %s: in README.md but not in wantScored", ty)
		}
	}
}
