package datephrase

import (
	"slices"
	"strings"
	"time"

	"memoria/lang"
)

// halfYear bounds how far from now a date written without a year may lie.
const halfYear = 183 * 24 * time.Hour

// FindNearest is Find for text that may speak of the coming days as well
// as the past: a month and day written without a year ("the meeting on
// Dec 3", "what is planned for Nov 13") that Find resolved to more than
// half a year ago is read as the nearest such day, which may lie ahead.
// Only phrases that place a time (On, During, Around) are re-read; "since
// Nov 13" and relative phrases ("last Tuesday") keep Find's reading.
func FindNearest(text string, now time.Time) []Phrase {
	ps := Find(text, now)
	var later []Phrase
	for i, p := range ps {
		if !p.Places() {
			continue
		}
		if HasYear(p.Text) || isRelative(p.Text) || now.Sub(p.Range.End) <= halfYear {
			continue
		}
		if later == nil {
			later = Find(text, now.Add(halfYear))
		}
		for _, q := range later {
			if q.Start == p.Start && q.End == p.End {
				ps[i] = q
				break
			}
		}
	}
	return ps
}

// HasYear reports whether a phrase names its year (four digits in a row).
func HasYear(s string) bool {
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
	return slices.ContainsFunc(lang.RelativeTimeWords, func(w string) bool { return strings.Contains(s, w) })
}
