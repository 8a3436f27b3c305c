//go:build unix

package main

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"
)

// ms is a duration that JSON writes in milliseconds.
type ms time.Duration

func (d ms) MarshalJSON() ([]byte, error) {
	return []byte(strconv.FormatFloat(float64(d)/float64(time.Millisecond), 'f', 3, 64)), nil
}

func (d ms) String() string { return round(time.Duration(d)).String() }

// round keeps three significant figures or so of a latency.
func round(d time.Duration) time.Duration {
	switch {
	case d >= 10*time.Second:
		return d.Round(100 * time.Millisecond)
	case d >= time.Second:
		return d.Round(10 * time.Millisecond)
	case d >= 100*time.Millisecond:
		return d.Round(time.Millisecond)
	case d >= 10*time.Millisecond:
		return d.Round(100 * time.Microsecond)
	default:
		return d.Round(10 * time.Microsecond)
	}
}

// summary is a latency distribution.
type summary struct {
	N   int `json:"n"`
	P50 ms  `json:"p50_ms"`
	P99 ms  `json:"p99_ms"`
	Max ms  `json:"max_ms"`
}

func summarize(d []time.Duration) summary {
	if len(d) == 0 {
		return summary{}
	}
	s := slices.Clone(d)
	slices.Sort(s)
	return summary{N: len(s), P50: ms(pct(s, 50)), P99: ms(pct(s, 99)), Max: ms(s[len(s)-1])}
}

// pct is the nearest-rank percentile of sorted durations.
func pct(s []time.Duration, p int) time.Duration {
	i := (len(s)*p + 99) / 100
	return s[max(0, min(len(s)-1, i-1))]
}

// report is everything a run measured.
type report struct {
	Params struct {
		Workspaces       int     `json:"workspaces"`
		DaysPerWorkspace int     `json:"days_per_workspace"`
		TargetItems      int     `json:"target_items"`
		Seed             uint64  `json:"seed"`
		Now              string  `json:"now"`
		Writers          int     `json:"writers"`
		Clients          int     `json:"clients"`
		ClientPause      ms      `json:"client_pause_ms"`
		WriterPause      ms      `json:"writer_pause_ms"`
		Duration         ms      `json:"duration_ms"`
		CPUs             int     `json:"cpus"`
		LoadAverage      string  `json:"load_average_at_start"`
		Server           string  `json:"server"`
		PoolConns        int     `json:"pool_max_conns"`
		Parallel         int     `json:"parallel_builds"`
		MarkdownMB       float64 `json:"markdown_mb"`
		Leakproof        bool    `json:"leakproof_ts_match"`
		SQLite           bool    `json:"sqlite"` // -sqlite: no database server, phases 3 and 4 skipped
	} `json:"params"`
	Setup struct {
		Generate     ms             `json:"generate_ms"`
		Cached       bool           `json:"cached"`
		Files        int            `json:"files"`
		Items        int            `json:"items"`
		Facts        int            `json:"facts"`
		Passages     int            `json:"passages"`
		BuildTotal   ms             `json:"build_total_ms"`
		Build        summary        `json:"build_per_workspace"`
		BuildEach    map[string]ms  `json:"build_each_ms"`
		ItemsEach    map[string]int `json:"items_each"`
		DatabaseSize int64          `json:"database_bytes"`
		FirstSync    ms             `json:"first_sync_after_build_ms"`
		Analyze      ms             `json:"analyze_ms"`
	} `json:"setup"`
	Idle struct {
		Recall summary `json:"recall"`
		// FreshCPU is the cores this process used keeping the workspaces
		// fresh (team.KeepFresh) while nothing else ran, over FreshFor.
		FreshCPU float64 `json:"keeping_fresh_cores"`
		FreshFor ms      `json:"keeping_fresh_for_ms"`
	} `json:"idle"`
	Load struct {
		Recall          summary  `json:"recall"`
		RecallsPerSec   float64  `json:"recalls_per_second"`
		Sync            summary  `json:"sync"`
		Syncs           int      `json:"syncs"`
		SyncsPerSec     float64  `json:"syncs_per_second"`
		Errors          int      `json:"errors"`
		ErrorSamples    []string `json:"error_samples,omitempty"`
		TokensChecked   int      `json:"appended_lines_checked"`
		TokensMissing   int      `json:"appended_lines_missing"`
		ProcessCPU      float64  `json:"bench_process_cpu_cores"`
		MachineBusy     float64  `json:"machine_busy_fraction"`
		SlowestSpace    string   `json:"slowest_workspace"`
		SlowestSpaceP50 ms       `json:"slowest_workspace_p50_ms"`
	} `json:"load"`
	Team struct {
		Idle   summary `json:"idle"`
		Loaded summary `json:"under_load"`
		Errors int     `json:"errors"`
		// MaxStale is the bound on an index's age the team-wide recalls
		// allowed (0: each synced every workspace first); MaxAge the
		// oldest index one of them answered from.
		MaxStale ms `json:"max_stale_ms"`
		MaxAge   ms `json:"max_age_ms"`
	} `json:"team"`
	Kill struct {
		Trials       int      `json:"trials"`
		Before       int      `json:"before"`
		After        int      `json:"after"`
		Finished     int      `json:"finished_before_kill"`
		Violations   []string `json:"violations"`
		Sync         ms       `json:"uninterrupted_sync_ms"`
		ChangedFiles int      `json:"changed_files"`
		AddedItems   int      `json:"added_items"`
		KillOffsets  []ms     `json:"kill_offsets_ms"`
	} `json:"kill"`
	Restart struct {
		Events        []restartEvent `json:"events"`
		Retains       int            `json:"retains_acknowledged"`
		RetainErrors  int            `json:"retain_errors"`
		RetainWritten int            `json:"failed_retains_in_markdown"`
		Missing       []string       `json:"acknowledged_missing"`
		Recalls       int            `json:"recalls_ok"`
		RecallErrors  int            `json:"recall_errors"`
		Wrong         []string       `json:"wrong_answers"`
		ErrorSamples  []string       `json:"error_samples,omitempty"`
		Recovered     bool           `json:"recovered"`
		Recall        summary        `json:"recall"`
		Retain        summary        `json:"retain"`
	} `json:"restart"`
	Statements []statement `json:"top_statements,omitempty"`
	Checks     []check     `json:"checks"`
}

type restartEvent struct {
	Kind         string `json:"kind"`
	At           ms     `json:"at_ms"`
	Took         ms     `json:"took_ms"`
	RetainBack   ms     `json:"first_retain_after_ms"`
	RecallBack   ms     `json:"first_recall_after_ms"`
	ErrorsDuring int    `json:"errors"`
}

type statement struct {
	Calls int64   `json:"calls"`
	Total ms      `json:"total_ms"`
	Mean  ms      `json:"mean_ms"`
	Rows  int64   `json:"rows"`
	Share float64 `json:"share"`
	Query string  `json:"query"`
}

// check is a target or a correctness condition and whether it held.
type check struct {
	Name    string `json:"name"`
	Value   string `json:"value"`
	Target  string `json:"target"`
	OK      bool   `json:"ok"`
	Correct bool   `json:"correctness"` // a failure is a bug, not a slow machine
}

func (r *report) target(name, value, target string, ok bool) {
	r.Checks = append(r.Checks, check{Name: name, Value: value, Target: target, OK: ok})
}

func (r *report) correct(name, value, target string, ok bool) {
	r.Checks = append(r.Checks, check{Name: name, Value: value, Target: target, OK: ok, Correct: true})
}

// failures are the correctness checks that failed.
func (r *report) failures() []check {
	var out []check
	for _, c := range r.Checks {
		if c.Correct && !c.OK {
			out = append(out, c)
		}
	}
	return out
}

func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// print writes the table.
func (r *report) print(w io.Writer) {
	p, s := &r.Params, &r.Setup
	fmt.Fprintf(w, "\nmemoria team bench: %d workspaces × %d days, %s items (%s facts, %s passages), %s files, %.1f MB of Markdown\n",
		p.Workspaces, p.DaysPerWorkspace, thousands(s.Items), thousands(s.Facts), thousands(s.Passages), thousands(s.Files), p.MarkdownMB)
	where := fmt.Sprintf("private cluster, one pool of %d connections", p.PoolConns)
	if p.SQLite {
		where = "no database server (-sqlite)"
	}
	fmt.Fprintf(w, "%s, %s; %d CPUs, load average at start %s; seed %d, now %s\n\n",
		p.Server, where, p.CPUs, p.LoadAverage, p.Seed, p.Now)
	if p.Leakproof {
		fmt.Fprintf(w, "EXPERIMENT (-leakproof): ts_match_vq is marked LEAKPROOF, so that full-text conditions can use the GIN indexes under row-level security\n\n")
	}
	cached := ""
	if s.Cached {
		cached = " (from the cache)"
	}
	fmt.Fprintf(w, "%-44s %s%s\n", "generate workspaces", s.Generate, cached)
	fmt.Fprintf(w, "%-44s p50 %s, p99 %s, max %s (%d at once)\n", "build, per workspace", s.Build.P50, s.Build.P99, s.Build.Max, p.Parallel)
	rate := 0.0
	if s.BuildTotal > 0 {
		rate = float64(s.Items) / time.Duration(s.BuildTotal).Seconds()
	}
	fmt.Fprintf(w, "%-44s %s (%.0f items/s)\n", "build, all", s.BuildTotal, rate)
	size := "database size (pg_database_size)"
	if p.SQLite {
		size = "index size (every workspace's .memory)"
	}
	fmt.Fprintf(w, "%-44s %.0f MB\n", size, float64(s.DatabaseSize)/(1<<20))
	fmt.Fprintf(w, "%-44s %s\n", "first sync after the builds (one line)", s.FirstSync)
	if s.Analyze > 0 {
		fmt.Fprintf(w, "%-44s %s\n", "then ANALYZE (-analyze)", s.Analyze)
	}
	fmt.Fprintln(w)

	fmt.Fprintf(w, "%-44s %7s %9s %9s %9s   %s\n", "latency", "n", "p50", "p99", "max", "target")
	row := func(name string, sm summary, target string) {
		fmt.Fprintf(w, "%-44s %7d %9s %9s %9s   %s\n", name, sm.N, sm.P50, sm.P99, sm.Max, target)
	}
	l := &r.Load
	row("recall, one workspace, idle (1 client)", r.Idle.Recall, "")
	row(fmt.Sprintf("recall, one workspace, under load (%d+%d)", p.Clients, p.Writers), l.Recall, "p50 ≤ 20ms, p99 ≤ 100ms")
	row(fmt.Sprintf("sync after an append (%d writers)", p.Writers), l.Sync, "")
	row(fmt.Sprintf("team recall, %d workspaces, idle", p.Workspaces), r.Team.Idle, "p50 ≤ 100ms")
	row(fmt.Sprintf("team recall, %d workspaces, under load", p.Workspaces), r.Team.Loaded, "p50 ≤ 100ms")
	if !p.SQLite {
		row("recall around server restarts", r.Restart.Recall, "")
	}
	if r.Team.MaxStale > 0 {
		fmt.Fprintf(w, "\nrecalls when idle and under load (one workspace and team-wide) answer, as a team server's do, from indexes at most %s old,\n"+
			"      kept so by team.KeepFresh every %s (a sync of each workspace whose folder changed, or of every workspace where\n"+
			"      folders are not watched); the oldest index a team-wide recall answered from was %s old;\n"+
			"      keeping them fresh with nothing else running took %.3f cores (%s); recalls around server restarts check every file first\n",
			r.Team.MaxStale, time.Duration(r.Team.MaxStale)/2, r.Team.MaxAge, r.Idle.FreshCPU, r.Idle.FreshFor)
	} else {
		fmt.Fprintf(w, "\nevery recall checks every file of its workspaces first (-max-stale 0)\n")
	}
	if !p.SQLite {
		row("retain around server restarts", r.Restart.Retain, "")
	}
	fmt.Fprintf(w, "\nload: %.0f recalls/s and %.1f syncs/s for %s; errors %d; this process used %.2f cores, the machine was %.0f%% busy\n",
		l.RecallsPerSec, l.SyncsPerSec, p.Duration, l.Errors, l.ProcessCPU, 100*l.MachineBusy)
	pauses := func(who, what, flag string, d ms) string {
		if d > 0 {
			return fmt.Sprintf("each %s paused a mean of %s between its %s (%s)", who, d, what, flag)
		}
		return fmt.Sprintf("the %ss never pause", who)
	}
	fmt.Fprintf(w, "      %s; %s\n", pauses("client", "recalls", "-client-pause", p.ClientPause), pauses("writer", "syncs", "-writer-pause", p.WriterPause))
	if l.SlowestSpace != "" {
		fmt.Fprintf(w, "      slowest workspace under load: %s, p50 %s\n", l.SlowestSpace, l.SlowestSpaceP50)
	}
	fmt.Fprintf(w, "      appended lines found in the index after their sync: %d of %d checked\n", l.TokensChecked-l.TokensMissing, l.TokensChecked)
	for _, e := range l.ErrorSamples {
		fmt.Fprintf(w, "      error: %s\n", e)
	}

	if p.SQLite {
		fmt.Fprintf(w, "\nkills during a sync and server restarts: not run (-sqlite; they are the shared database's)\n")
	} else {
		r.printFaults(w)
	}

	if len(r.Statements) > 0 {
		fmt.Fprintf(w, "\ntop statements during the load (pg_stat_statements):\n")
		fmt.Fprintf(w, "%9s %10s %9s %6s  %s\n", "calls", "total", "mean", "share", "query")
		for _, st := range r.Statements {
			fmt.Fprintf(w, "%9d %10s %9s %5.1f%%  %s\n", st.Calls, st.Total, st.Mean, 100*st.Share, st.Query)
		}
	}

	fmt.Fprintf(w, "\nchecks:\n")
	for _, c := range r.Checks {
		mark := "ok    "
		if !c.OK {
			mark = "MISSED"
			if c.Correct {
				mark = "FAILED"
			}
		}
		fmt.Fprintf(w, "  %s %-52s %-22s %s\n", mark, c.Name, c.Value, c.Target)
	}
}

// printFaults writes what phases 3 and 4 found: the killed syncs and the
// server's restarts.
func (r *report) printFaults(w io.Writer) {
	k := &r.Kill
	fmt.Fprintf(w, "\nkill -9 during a sync of %d changed daily logs (+%d items; uninterrupted sync %s): %d trials, %d before, %d after, %d finished first, %d violations\n",
		k.ChangedFiles, k.AddedItems, k.Sync, k.Trials, k.Before, k.After, k.Finished, len(k.Violations))
	for _, v := range k.Violations {
		fmt.Fprintf(w, "      VIOLATION: %s\n", v)
	}

	rs := &r.Restart
	fmt.Fprintf(w, "\nserver restarts under load:\n")
	for _, e := range rs.Events {
		fmt.Fprintf(w, "      %-14s at %s, took %s; first retain after it %s, first recall %s; %d errors\n",
			e.Kind, e.At, e.Took, e.RetainBack, e.RecallBack, e.ErrorsDuring)
	}
	fmt.Fprintf(w, "      retains acknowledged %d, failed %d (of which in the Markdown: %d); acknowledged but missing: %d\n",
		rs.Retains, rs.RetainErrors, rs.RetainWritten, len(rs.Missing))
	fmt.Fprintf(w, "      recalls ok %d, failed %d, wrong answers reported as success %d; working again without reopening: %v\n",
		rs.Recalls, rs.RecallErrors, len(rs.Wrong), rs.Recovered)
	for _, e := range rs.ErrorSamples {
		fmt.Fprintf(w, "      error: %s\n", e)
	}
	for _, m := range rs.Missing {
		fmt.Fprintf(w, "      MISSING: %s\n", m)
	}
	for _, m := range rs.Wrong {
		fmt.Fprintf(w, "      WRONG: %s\n", m)
	}
}

// oneLine shortens an error message for the report.
func oneLine(err error) string {
	s := strings.ReplaceAll(err.Error(), "\n", " ")
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}

// samples keeps the first few distinct error messages.
type samples struct {
	n    int
	seen map[string]bool
	list []string
}

func (s *samples) add(err error) {
	s.n++
	msg := oneLine(err)
	if s.seen == nil {
		s.seen = map[string]bool{}
	}
	if !s.seen[msg] && len(s.list) < 8 {
		s.seen[msg] = true
		s.list = append(s.list, msg)
	}
}
