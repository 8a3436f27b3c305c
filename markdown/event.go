package markdown

import (
	"time"

	"memoria/datephrase"
	"memoria/memory"
)

// EventTime extracts when a fact happened from its text ("Nov 27–Dec 1,
// 2025", "on 2025-11-03", "last Tuesday"), relative to the day it was
// written; nil when the text names no time. It is kept apart from the
// written day. In undated files (bank pages, memory.md) only dates that
// carry their year count, since there is no day to resolve the others from.
func EventTime(text string, written time.Time) *memory.TimeRange {
	now := written
	if now.IsZero() {
		now = time.Date(9999, 12, 31, 0, 0, 0, 0, time.UTC)
	}
	for _, p := range datephrase.FindNearest(text, now) {
		if !p.Places() {
			continue // "since 2019", "before May" bound a time, they do not date an event
		}
		if written.IsZero() && !datephrase.HasYear(p.Text) {
			continue
		}
		r := p.Range
		if r.Start.Equal(datephrase.MinDay) || r.End.Equal(datephrase.MaxDay) {
			continue
		}
		return &memory.TimeRange{Start: r.Start, End: r.End}
	}
	return nil
}
