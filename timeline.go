package memoria

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"time"

	"memoria/memory"
	"memoria/recall"
	"memoria/workspace"
)

// TimelineOptions shape a Timeline. The zero value asks for the newest
// DefaultTimelineDays days that have a daily log.
type TimelineOptions struct {
	// Before: only days before this one (a page further back); zero means
	// up to the newest log.
	Before time.Time
	// Days is how many days with a daily log at most; 0 means
	// DefaultTimelineDays, above MaxTimelineDays means MaxTimelineDays.
	Days int
	// Limit bounds the facts read; 0 means MaxTimelineFacts.
	Limit int
}

// Bounds of a Timeline, so that a page of it stays quick on a workspace
// of many years.
const (
	DefaultTimelineDays = 14
	MaxTimelineDays     = 120
	MaxTimelineFacts    = 1000
)

// TimelineDay is one day of the timeline: its logs and the typed facts
// written in them, in line order, log by log.
type TimelineDay struct {
	Day string `json:"day"` // YYYY-MM-DD
	Log string `json:"log"` // the daily log, workspace-relative: memory/DAY.md, else the day's first
	// Logs are all the day's logs, Log among them: memory/DAY.md and the
	// notes with a slug, memory/DAY-<slug>.md (OpenClaw's session-memory
	// hook and memory flush write them), by name.
	Logs     []string        `json:"logs"`
	Retained []recall.Result `json:"retained"`
}

// Timeline is a page of the workspace's history, newest day first.
type Timeline struct {
	Days []TimelineDay `json:"days"`
	// Events are facts written on other days whose event time falls in
	// the page's days (a plan written ahead, a memory written after).
	Events []recall.Result `json:"events"`
	// Older is the day to pass as Before for the next page back; "" when
	// there is no older log.
	Older string `json:"older,omitempty"`
	// Truncated is set when the page held more facts than Limit: the
	// newest are left out.
	Truncated bool `json:"truncated,omitempty"`
	// FirstDay and LastDay are the oldest and newest logs of the
	// workspace ("" without logs).
	FirstDay string `json:"first_day,omitempty"`
	LastDay  string `json:"last_day,omitempty"`
}

// Timeline lists a page of the workspace's days, newest first: each day
// that has a daily log, with the typed facts retained in it, and the
// facts of other days whose event time falls among them. Only the page's
// facts are read from the index.
func (w *Workspace) Timeline(ctx context.Context, o TimelineOptions) (Timeline, error) {
	tl := Timeline{Days: []TimelineDay{}, Events: []recall.Result{}}
	if _, err := w.Sync(ctx); err != nil {
		return tl, err
	}
	files, _, err := workspace.List(w.dir)
	if err != nil {
		return tl, err
	}
	logs := logDays(files)
	if len(logs) > 0 {
		tl.LastDay, tl.FirstDay = logs[0].day.Format(time.DateOnly), logs[len(logs)-1].day.Format(time.DateOnly)
	}
	if !o.Before.IsZero() {
		before := memory.Day(o.Before)
		i, _ := slices.BinarySearchFunc(logs, before, func(l logDay, d time.Time) int { return d.Compare(l.day) })
		logs = logs[i:]
		for len(logs) > 0 && !logs[0].day.Before(before) {
			logs = logs[1:]
		}
	}
	n := o.Days
	if n <= 0 {
		n = DefaultTimelineDays
	}
	n = min(n, MaxTimelineDays)
	if len(logs) > n {
		tl.Older = logs[n].day.Format(time.DateOnly)
		logs = logs[:n]
	}
	if len(logs) == 0 {
		return tl, nil
	}
	limit := o.Limit
	if limit <= 0 || limit > MaxTimelineFacts {
		limit = MaxTimelineFacts
	}
	f := memory.Filter{Since: logs[len(logs)-1].day, Until: logs[0].day,
		Kinds: []memory.Kind{memory.KindWorld, memory.KindExperience, memory.KindOpinion, memory.KindObservation}}
	var items []memory.Item
	err = w.repairing(ctx, func() (err error) {
		items, err = w.ix.Items(ctx, f, false, limit+1)
		return err
	})
	if err != nil {
		return tl, err
	}
	if len(items) > limit {
		items, tl.Truncated = items[:limit], true
	}
	results := recall.Versions(items)
	byLog := map[string]int{}
	for _, l := range logs {
		for _, rel := range l.rels {
			byLog[rel] = len(tl.Days)
		}
		tl.Days = append(tl.Days, TimelineDay{Day: l.day.Format(time.DateOnly), Log: l.main(), Logs: l.rels, Retained: []recall.Result{}})
	}
	for i, r := range results {
		if d, ok := byLog[items[i].Source.Path]; ok && r.Timestamp == tl.Days[d].Day {
			tl.Days[d].Retained = append(tl.Days[d].Retained, r)
		} else if r.EventTime != nil {
			tl.Events = append(tl.Events, r)
		}
	}
	for _, d := range tl.Days {
		slices.SortStableFunc(d.Retained, func(a, b recall.Result) int {
			return cmp.Or(strings.Compare(sourcePath(a.Source), sourcePath(b.Source)), lineOf(a.Source)-lineOf(b.Source))
		})
	}
	return tl, nil
}

// logDay is a day that has daily logs, and their paths, sorted.
type logDay struct {
	day  time.Time
	rels []string
}

// main is the day's own log, memory/DAY.md, else its first.
func (l logDay) main() string {
	own := "memory/" + l.day.Format(time.DateOnly) + ".md"
	if slices.Contains(l.rels, own) {
		return own
	}
	return l.rels[0]
}

// logDays groups the daily logs among files by day, newest day first.
func logDays(files []workspace.File) []logDay {
	var logs []logDay
	byDay := map[time.Time]int{}
	for _, f := range files {
		if f.Kind != memory.FileLog {
			continue
		}
		_, day, ok := memory.ClassifyPath(f.Rel)
		if !ok {
			continue
		}
		if i, seen := byDay[day]; seen {
			logs[i].rels = append(logs[i].rels, f.Rel)
			continue
		}
		byDay[day] = len(logs)
		logs = append(logs, logDay{day: day, rels: []string{f.Rel}})
	}
	for _, l := range logs {
		slices.Sort(l.rels)
	}
	slices.SortFunc(logs, func(a, b logDay) int { return b.day.Compare(a.day) })
	return logs
}

// sourcePath is the path a citation names.
func sourcePath(src string) string {
	s, err := memory.ParseSource(src)
	if err != nil {
		return src
	}
	return s.Path
}

// lineOf is the first line a citation names (0 when it names none).
func lineOf(src string) int {
	s, err := memory.ParseSource(src)
	if err != nil {
		return 0
	}
	return s.Start
}
