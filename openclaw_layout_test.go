package memoria_test

import (
	"context"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"memoria"
	"memoria/internal/testworkspace"
	"memoria/memory"
	"memoria/recall"
)

// openClawDay reads a day of the OpenClaw fixture's calendar.
func openClawDay(t *testing.T, s string) time.Time {
	t.Helper()
	d, err := time.Parse(time.DateOnly, s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// openOpenClaw opens a copy of the workspace laid out as OpenClaw writes it
// (internal/testworkspace/openclaw).
func openOpenClaw(t *testing.T) (*memoria.Workspace, string) {
	t.Helper()
	dir := testworkspace.CopyOpenClaw(t)
	ws, err := memoria.Open(context.Background(), dir, memoria.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	return ws, dir
}

// readCited checks that a result's content is exactly the lines its source
// cites, read back from the Markdown (a typed fact's, its text on them).
func readCited(t *testing.T, dir string, r recall.Result) {
	t.Helper()
	src, err := memory.ParseSource(r.Source)
	if err != nil {
		t.Fatalf("%s: %v", r.Source, err)
	}
	b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(src.Path)))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	if src.End > len(lines) {
		t.Fatalf("%s: the file has %d lines", r.Source, len(lines))
	}
	cited := strings.Join(lines[src.Start-1:src.End], "\n")
	if r.Kind == memory.KindPassage && r.Content != cited || r.Kind != memory.KindPassage && !strings.Contains(cited, r.Content) {
		t.Errorf("%s: %s %q, the lines say %q", r.Source, r.Kind, r.Content, cited)
	}
}

// TestOpenClawLayoutStatus: status counts each of OpenClaw's kinds of
// file, the memory it imported by assistant, and only the daily logs'
// days; another assistant's "## Retain" is no fact, and AGENTS.md is not
// memory.
func TestOpenClawLayoutStatus(t *testing.T) {
	t.Parallel()
	ws, _ := openOpenClaw(t)
	st, err := ws.Status(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := map[memory.FileKind]int{memory.FileLog: 5, memory.FileCore: 1, memory.FileUser: 1, memory.FileDreams: 2, memory.FileImport: 6, memory.FileOther: 1}
	if !maps.Equal(st.Files, want) {
		t.Errorf("files %v, want %v", st.Files, want)
	}
	if imp := map[string]int{"codex": 2, "claude-code": 2, "hermes": 2}; !maps.Equal(st.Imported, imp) {
		t.Errorf("imported %v, want %v", st.Imported, imp)
	}
	if facts := map[memory.Kind]int{memory.KindWorld: 2, memory.KindOpinion: 1}; !maps.Equal(st.Facts, facts) {
		t.Errorf("facts %v, want %v: only MEMORY.md's and the daily logs'", st.Facts, facts)
	}
	if st.FirstDay != openClawDay(t, "2026-07-20") || st.LastDay != openClawDay(t, "2026-07-28") {
		t.Errorf("days %v … %v, want the daily logs' 2026-07-20 … 2026-07-28 (not the dreaming report's 2026-07-29)", st.FirstDay, st.LastDay)
	}
	if len(st.Skipped) != 0 {
		t.Errorf("skipped %v", st.Skipped)
	}
}

// TestOpenClawLayoutRecall: recall finds a line of every kind of file
// OpenClaw writes, cites exactly its lines, dates what has a day (the
// slugged daily notes by their names, the user model's entries by their
// marks), and says what an imported or machine-written line is.
func TestOpenClawLayoutRecall(t *testing.T) {
	t.Parallel()
	ws, dir := openOpenClaw(t)
	ctx := context.Background()
	tests := []struct {
		query, now string
		source     string // the file of the first result, and a line it must cite
		line       int
		want       recall.Result // the fields compared: Timestamp, Observed, Status, ImportedFrom, MachineSummary
	}{
		{query: "Lives in Tromsø", source: "USER.md", line: 17, want: recall.Result{Observed: "2026-06-14", Status: memory.StatusActive}},
		{query: "how detailed should explanations of code changes be?", source: "USER.md", line: 11, want: recall.Result{Observed: "2026-07-27", Status: memory.StatusActive}},
		{query: "what did we decide last week?", now: "2026-08-04", source: "memory/2026-07-27-1430.md", line: 11, want: recall.Result{Timestamp: "2026-07-27"}},
		{query: "Lumen second offer per seat", source: "memory/2026-07-28-vendor-pitch-2.md", line: 9, want: recall.Result{Timestamp: "2026-07-28"}},
		{query: "Lumen dashboard SSO enterprise plan", source: "memory/2026-07-28-vendor-pitch.md", line: 10, want: recall.Result{Timestamp: "2026-07-28"}},
		{query: "Atlas beta checklist rollback plan", source: "memory/2026-07-27.md", line: 3, want: recall.Result{Timestamp: "2026-07-27"}},
		{query: "Kestrel disk alerts", source: "memory/2026-07-20.md", line: 4, want: recall.Result{Timestamp: "2026-07-20"}},
		{query: "Kestrel cluster in Frankfurt staging", source: "MEMORY.md", line: 6},
		{query: "gazebo budget", source: "memory/2026-02-30-standup.md", line: 3},
		{query: "kept circling back", source: "DREAMS.md", line: 8, want: recall.Result{MachineSummary: true}},
		{query: "candidates passed every gate", source: "memory/dreaming/deep/2026-07-29.md", line: 3, want: recall.Result{Timestamp: "2026-07-29", MachineSummary: true}},
		{query: "pnpm workspaces", source: "memory/imports/codex/MEMORY.md", line: 3, want: recall.Result{ImportedFrom: "codex"}},
		{query: "billing endpoints rate limits", source: "memory/imports/codex/memory_summary.md", line: 1, want: recall.Result{ImportedFrom: "codex"}},
		{query: "mocked migration failed in production", source: "memory/imports/claude-code/atlas-7f3a2c/feedback_testing.md", line: 7, want: recall.Result{ImportedFrom: "claude-code"}},
		{query: "on-call phone", source: "memory/imports/hermes/MEMORY.md", line: 1, want: recall.Result{ImportedFrom: "hermes"}},
		{query: "British English", source: "memory/imports/hermes/USER.md", line: 3, want: recall.Result{ImportedFrom: "hermes"}},
	}
	for _, tt := range tests {
		o := memoria.RecallOptions{K: 5, Lexical: true}
		if tt.now != "" {
			o.Now = openClawDay(t, tt.now)
		} else {
			o.Now = openClawDay(t, "2026-07-29")
		}
		rs, err := ws.Recall(ctx, tt.query, o)
		if err != nil {
			t.Fatal(err)
		}
		if len(rs) == 0 {
			t.Errorf("%q: no results", tt.query)
			continue
		}
		for _, r := range rs {
			readCited(t, dir, r)
		}
		r := rs[0]
		src := r.Cite()
		if src.Path != tt.source || tt.line < src.Start || tt.line > src.End {
			t.Errorf("%q: first result %s, want %s#L%d", tt.query, r.Source, tt.source, tt.line)
			continue
		}
		got := recall.Result{Timestamp: r.Timestamp, Observed: r.Observed, Status: r.Status, ImportedFrom: r.ImportedFrom, MachineSummary: r.MachineSummary}
		if got.Timestamp != tt.want.Timestamp || got.Observed != tt.want.Observed || got.Status != tt.want.Status ||
			got.ImportedFrom != tt.want.ImportedFrom || got.MachineSummary != tt.want.MachineSummary {
			t.Errorf("%q: %s is %+v, want %+v", tt.query, r.Source, got, tt.want)
		}
		if r.Kind != memory.KindPassage && !strings.HasPrefix(tt.source, "memory/2026-") && tt.source != "MEMORY.md" {
			t.Errorf("%q: %s is a %s, want a passage: OpenClaw's own files hold no typed facts", tt.query, r.Source, r.Kind)
		}
	}

	// What AGENTS.md says is no memory.
	if rs, err := ws.Recall(ctx, "Quetzalcoatl", memoria.RecallOptions{Lexical: true}); err != nil || len(rs) != 0 {
		t.Errorf("AGENTS.md recalled: %v %v", rs, err)
	}
	// The superseded preference comes after the active one that replaced it.
	rs, err := ws.Recall(ctx, "prefer detailed explanations for every code change", memoria.RecallOptions{K: 10, Lexical: true, Now: openClawDay(t, "2026-07-29")})
	if err != nil {
		t.Fatal(err)
	}
	active := slices.IndexFunc(rs, func(r recall.Result) bool { return r.Source == "USER.md#L11" })
	superseded := slices.IndexFunc(rs, func(r recall.Result) bool { return r.Source == "USER.md#L7" })
	if active < 0 || superseded < active || rs[superseded].Status != memory.StatusSuperseded {
		t.Errorf("the superseded preference (at %d) before the active one (at %d): %v", superseded, active, recall.Cites(rs))
	}
}

// TestOpenClawLayoutDates: the slugged daily notes are daily logs of their
// day, for a window as for the timeline, beside the day's own log.
func TestOpenClawLayoutDates(t *testing.T) {
	t.Parallel()
	ws, _ := openOpenClaw(t)
	ctx := context.Background()
	rs, err := ws.Recall(ctx, "Lumen", memoria.RecallOptions{K: 10, Lexical: true, Since: openClawDay(t, "2026-07-28"), Until: openClawDay(t, "2026-07-28")})
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]bool{}
	for _, r := range rs {
		files[r.Cite().Path] = true
		if r.Timestamp != "2026-07-28" {
			t.Errorf("Lumen on 2026-07-28: %s is of %q", r.Source, r.Timestamp)
		}
	}
	if !files["memory/2026-07-28-vendor-pitch.md"] || !files["memory/2026-07-28-vendor-pitch-2.md"] {
		t.Errorf("Lumen on 2026-07-28: %v", recall.Cites(rs))
	}
	if rs, err := ws.Recall(ctx, "Lumen", memoria.RecallOptions{Lexical: true, Until: openClawDay(t, "2026-07-27")}); err != nil || len(rs) != 0 {
		t.Errorf("Lumen until 2026-07-27: %v %v", recall.Cites(rs), err)
	}

	tl, err := ws.Timeline(ctx, memoria.TimelineOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var days []string
	for _, d := range tl.Days {
		days = append(days, d.Day+" "+d.Log+" "+strings.Join(d.Logs, ","))
	}
	want := []string{
		"2026-07-28 memory/2026-07-28-vendor-pitch-2.md memory/2026-07-28-vendor-pitch-2.md,memory/2026-07-28-vendor-pitch.md",
		"2026-07-27 memory/2026-07-27.md memory/2026-07-27-1430.md,memory/2026-07-27.md",
		"2026-07-20 memory/2026-07-20.md memory/2026-07-20.md",
	}
	if !slices.Equal(days, want) {
		t.Errorf("timeline days:\n%s\nwant:\n%s", strings.Join(days, "\n"), strings.Join(want, "\n"))
	}
	if len(tl.Days) == 3 && (len(tl.Days[0].Retained) != 1 || tl.Days[0].Retained[0].Source != "memory/2026-07-28-vendor-pitch-2.md#L12") {
		t.Errorf("2026-07-28 retained %v, want the opinion of the slugged note", recall.Cites(tl.Days[0].Retained))
	}
	if tl.FirstDay != "2026-07-20" || tl.LastDay != "2026-07-28" || len(tl.Events) != 0 {
		t.Errorf("timeline %s … %s, events %v", tl.FirstDay, tl.LastDay, recall.Cites(tl.Events))
	}
}
