package memoria

import (
	"context"
	"slices"
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

// TimelineDay is one day of the timeline: its log and the typed facts
// written in it, in line order.
type TimelineDay struct {
	Day      string          `json:"day"` // YYYY-MM-DD
	Log      string          `json:"log"` // the daily log, workspace-relative
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
	type log struct {
		day time.Time
		rel string
	}
	var logs []log
	for _, f := range files {
		if f.Kind != memory.FileLog {
			continue
		}
		if _, day, ok := memory.ClassifyPath(f.Rel); ok {
			logs = append(logs, log{day, f.Rel})
		}
	}
	slices.SortFunc(logs, func(a, b log) int { return b.day.Compare(a.day) })
	if len(logs) > 0 {
		tl.LastDay, tl.FirstDay = logs[0].day.Format(time.DateOnly), logs[len(logs)-1].day.Format(time.DateOnly)
	}
	if !o.Before.IsZero() {
		before := memory.Day(o.Before)
		i, _ := slices.BinarySearchFunc(logs, before, func(l log, d time.Time) int { return d.Compare(l.day) })
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
	byDay := map[string]int{}
	for _, l := range logs {
		byDay[l.day.Format(time.DateOnly)] = len(tl.Days)
		tl.Days = append(tl.Days, TimelineDay{Day: l.day.Format(time.DateOnly), Log: l.rel, Retained: []recall.Result{}})
	}
	for i, r := range results {
		if d, ok := byDay[r.Timestamp]; ok && items[i].Source.Path == tl.Days[d].Log {
			tl.Days[d].Retained = append(tl.Days[d].Retained, r)
		} else if r.EventTime != nil {
			tl.Events = append(tl.Events, r)
		}
	}
	for _, d := range tl.Days {
		slices.SortStableFunc(d.Retained, func(a, b recall.Result) int { return lineOf(a.Source) - lineOf(b.Source) })
	}
	return tl, nil
}

// lineOf is the first line a citation names (0 when it names none).
func lineOf(src string) int {
	s, err := memory.ParseSource(src)
	if err != nil {
		return 0
	}
	return s.Start
}
