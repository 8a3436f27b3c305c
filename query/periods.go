package query

import (
	"regexp"
	"strings"
	"sync"
	"time"

	"memoria/datephrase"
	"memoria/memory"
)

// Parts of a month and named days, which datephrase does not read: "the
// first week of October", "the second half of November", "Halloween".
// They are found before datephrase's phrases, which give way where the two
// overlap ("October" inside "the first week of October").
//
// The patterns are compiled on first use, and only for a text that has the
// words they need: most queries name no part of a month and no holiday.
var (
	subPeriodRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:(?:in|during|on|over)\s+)?(?:the\s+)?(first|second|third|fourth|last|1st|2nd|3rd|4th)\s+(week|half)\s+of\s+((?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?(?:\s+\d{4})?)`)
	})
	holidayRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:(?:at|on|over|for)\s+)?(halloween|christmas\s+eve|christmas(?:\s+day)?|new\s+year'?s\s+eve|new\s+year'?s(?:\s+day)?|valentine'?s(?:\s+day)?)\b`)
	})
)

// subPeriodMatches returns the submatch indices of subPeriodRE in text.
func subPeriodMatches(text string) [][]int {
	// Every match has "week" or "half". (The test leaves out the k, which
	// (?i) also matches as the Kelvin sign.)
	if !containsFoldASCII(text, "wee") && !containsFoldASCII(text, "half") {
		return nil
	}
	return subPeriodRE().FindAllStringSubmatchIndex(text, -1)
}

// holidayMatches returns the submatch indices of holidayRE in text.
func holidayMatches(text string) [][]int {
	// Every match has one of these (the s of "christmas" left out: (?i)
	// also matches it as the long s).
	if !containsFoldASCII(text, "hallo") && !containsFoldASCII(text, "chri") &&
		!containsFoldASCII(text, "year") && !containsFoldASCII(text, "valent") {
		return nil
	}
	return holidayRE().FindAllStringSubmatchIndex(text, -1)
}

// containsFoldASCII reports whether s contains needle, a lower-case ASCII
// word, in any mix of ASCII upper and lower case.
func containsFoldASCII(s, needle string) bool {
	for i := 0; i+len(needle) <= len(s); i++ {
		j := 0
		for j < len(needle) && s[i+j]|0x20 == needle[j] {
			j++
		}
		if j == len(needle) {
			return true
		}
	}
	return false
}

// holidays are fixed-date days: month and day.
var holidays = map[string][2]int{
	"halloween": {10, 31}, "christmas eve": {12, 24}, "christmas": {12, 25}, "christmas day": {12, 25},
	"new years eve": {12, 31}, "new years": {1, 1}, "new years day": {1, 1},
	"valentines": {2, 14}, "valentines day": {2, 14},
}

// findPeriods returns the parts of months and the named days in text,
// resolved against now like datephrase resolves a month or a day without a
// year: the most recent one that has begun by now.
func findPeriods(text string, now time.Time) []datephrase.Phrase {
	var out []datephrase.Phrase
	for _, m := range subPeriodMatches(text) {
		monthText := text[m[6]:m[7]]
		ps := datephrase.Find(monthText, now)
		if len(ps) != 1 || ps[0].Start != 0 || ps[0].End != len(monthText) {
			continue
		}
		mr := ps[0].Range
		start, end := mr.Start, mr.End
		ord := strings.ToLower(text[m[2]:m[3]])
		if strings.EqualFold(text[m[4]:m[5]], "half") {
			mid := start.AddDate(0, 0, 15)
			switch ord {
			case "first", "1st":
				end = mid.AddDate(0, 0, -1)
			case "second", "2nd", "last":
				start = mid
			default:
				continue
			}
		} else {
			n := map[string]int{"first": 0, "1st": 0, "second": 1, "2nd": 1, "third": 2, "3rd": 2, "fourth": 3, "4th": 3}
			if ord == "last" {
				start = end.AddDate(0, 0, -6)
			} else {
				start = start.AddDate(0, 0, 7*n[ord])
				end = start.AddDate(0, 0, 6)
			}
		}
		out = append(out, datephrase.Phrase{
			Start: m[0], End: m[1], Text: text[m[0]:m[1]],
			Range: memory.TimeRange{Start: start, End: end}, Relation: datephrase.During,
		})
	}
	for _, m := range holidayMatches(text) {
		name := strings.Join(strings.Fields(strings.ToLower(strings.ReplaceAll(text[m[2]:m[3]], "'", ""))), " ")
		md, ok := holidays[name]
		if !ok {
			continue
		}
		today := memory.Day(now)
		d := time.Date(today.Year(), time.Month(md[0]), md[1], 0, 0, 0, 0, time.UTC)
		if d.After(today) {
			d = d.AddDate(-1, 0, 0)
		}
		out = append(out, datephrase.Phrase{
			Start: m[0], End: m[1], Text: text[m[0]:m[1]],
			Range: memory.TimeRange{Start: d, End: d}, Relation: datephrase.On,
		})
	}
	return out
}
