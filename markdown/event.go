package markdown

import (
	"strings"
	"time"

	"memoria/datephrase"
	"memoria/memory"
)

// halfYear bounds how far from the day a log was written a date without a
// year may lie: "the meeting on Dec 3", written on Nov 27, is the coming
// Dec 3, not last year's.
const halfYear = 183 * 24 * time.Hour

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
	for _, p := range datephrase.Find(text, now) {
		switch p.Relation {
		case datephrase.On, datephrase.During, datephrase.Around:
		default:
			continue // "since 2019", "before May" bound a time, they do not date an event
		}
		if written.IsZero() && !hasYear(p.Text) {
			continue
		}
		r := p.Range
		if !written.IsZero() && !hasYear(p.Text) && !isRelative(p.Text) && written.Sub(r.End) > halfYear {
			// A month and day without a year, resolved into the past: read
			// it as the nearest such day, which may lie ahead.
			for _, q := range datephrase.Find(text, written.Add(halfYear)) {
				if q.Start == p.Start {
					r = q.Range
					break
				}
			}
		}
		if r.Start.Equal(datephrase.MinDay) || r.End.Equal(datephrase.MaxDay) {
			continue
		}
		return &memory.TimeRange{Start: r.Start, End: r.End}
	}
	return nil
}

func hasYear(s string) bool {
	digits := 0
	for i := 0; i < len(s); i++ {
		if s[i] >= '0' && s[i] <= '9' {
			digits++
			if digits == 4 {
				return true
			}
		} else {
			digits = 0
		}
	}
	return false
}

func isRelative(s string) bool {
	s = strings.ToLower(s)
	for _, w := range []string{"ago", "last", "past", "previous", "next", "this", "yesterday", "today", "tomorrow", "recent"} {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}
