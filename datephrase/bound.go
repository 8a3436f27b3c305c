package datephrase

import (
	"fmt"
	"strings"
	"time"

	"memoria/memory"
)

// boundForms lists what ParseBound accepts, for its error message.
const boundForms = "want a span back from now (30d, 2w, 6m for months, 1y, 12h), " +
	"a date (2025-11-03), a date and time (2025-11-03T14:30), today, yesterday, " +
	"or a period in words (last week, this month, Nov 2025, 3 days ago)"

// ParseBound reads a time bound as given to flags such as --since and
// --until, relative to now:
//
//	30d, 2w, 6m, 1y, 12h   that many days, weeks, months, years or hours before now
//	2025-11-03             that day, at 00:00 UTC
//	2025-11-03T14:30       that minute, UTC (a space may replace the T)
//	today, yesterday       that day, at 00:00 UTC
//
// Spans keep now's time of day; callers wanting whole days apply memory.Day.
// Input is case-insensitive and may have surrounding space. The error
// message lists the accepted forms.
func ParseBound(s string, now time.Time) (time.Time, error) {
	v := strings.ToLower(strings.TrimSpace(s))
	switch v {
	case "today":
		return memory.Day(now), nil
	case "yesterday":
		return memory.Day(now).AddDate(0, 0, -1), nil
	case "":
		return time.Time{}, fmt.Errorf("empty time bound: %s", boundForms)
	}
	if t, ok := spanBack(v, now); ok {
		return t, nil
	}
	if t, ok := parseStamp(v); ok {
		return t, nil
	}
	if r, ok := wholePhrase(s, now); ok && !r.Start.Equal(MinDay) {
		return r.Start, nil
	}
	return time.Time{}, fmt.Errorf("invalid time bound %q: %s", s, boundForms)
}

// ParseUntil reads an upper bound as ParseBound reads a lower one, except
// that a period in words ends where the period ends ("last week": its
// Sunday), where ParseBound starts where it starts.
func ParseUntil(s string, now time.Time) (time.Time, error) {
	if r, ok := wholePhrase(s, now); ok && !r.End.Equal(MaxDay) && !ParseableSimply(s) {
		return r.End, nil
	}
	return ParseBound(s, now)
}

// ParseableSimply reports whether s is a bound of the simple forms (a span,
// a date, today, yesterday), read the same way by both ends.
func ParseableSimply(s string) bool {
	v := strings.ToLower(strings.TrimSpace(s))
	_, span := spanBack(v, time.Time{})
	_, stamp := parseStamp(v)
	return v == "today" || v == "yesterday" || span || stamp
}

// spanBack reads a lower-cased span back from now ("30d", "2w", "6m" for
// months, "1y", "12h"): the time that far before now.
func spanBack(v string, now time.Time) (time.Time, bool) {
	n := len(v)
	if n < 2 || n > 7 || strings.IndexByte("dwmyh", v[n-1]) < 0 {
		return time.Time{}, false
	}
	k, ok := digits(v[:n-1])
	switch {
	case !ok:
		return time.Time{}, false
	case v[n-1] == 'd':
		return now.AddDate(0, 0, -k), true
	case v[n-1] == 'w':
		return now.AddDate(0, 0, -7*k), true
	case v[n-1] == 'm':
		return now.AddDate(0, -k, 0), true
	case v[n-1] == 'y':
		return now.AddDate(-k, 0, 0), true
	}
	return now.Add(-time.Duration(k) * time.Hour), true
}

// wholePhrase reads s as one date phrase ("last week", "Nov 2025"), when
// the phrase is all of it.
func wholePhrase(s string, now time.Time) (memory.TimeRange, bool) {
	t := strings.TrimSpace(s)
	ps := Find(t, now)
	if len(ps) != 1 || ps[0].Start != 0 || ps[0].End != len(t) {
		return memory.TimeRange{}, false
	}
	return ps[0].Range, true
}

// ParseNow reads the value of a --now flag: YYYY-MM-DD (00:00 UTC that
// day) or YYYY-MM-DDTHH:MM (UTC; a space may replace the T).
func ParseNow(s string) (time.Time, error) {
	if t, ok := parseStamp(strings.ToLower(strings.TrimSpace(s))); ok {
		return t, nil
	}
	return time.Time{}, fmt.Errorf("invalid time %q: want YYYY-MM-DD or YYYY-MM-DDTHH:MM (UTC)", s)
}

// parseStamp reads a lower-cased YYYY-MM-DD, YYYY-MM-DDThh:mm[:ss] or the
// same with a space for the t, all UTC.
func parseStamp(v string) (time.Time, bool) {
	var layouts []string
	switch len(v) {
	case 10:
		layouts = []string{"2006-01-02"}
	case 16:
		layouts = []string{"2006-01-02t15:04", "2006-01-02 15:04"}
	case 19:
		layouts = []string{"2006-01-02t15:04:05", "2006-01-02 15:04:05"}
	}
	for _, l := range layouts {
		if t, err := time.Parse(l, v); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// digits reads a non-negative decimal number of at most 6 digits.
func digits(s string) (int, bool) {
	if s == "" || len(s) > 6 {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return 0, false
		}
		n = n*10 + int(s[i]-'0')
	}
	return n, true
}
