package query

import (
	"regexp"
	"strings"
	"sync"
	"time"

	"memoria/datephrase"
	"memoria/memory"
)

// Named days in a question written in lower case ("what did we do at
// christmas?"), which datephrase reads only capitalised, since in notes
// "a christmas tree" or "easter eggs in the code" name no day. They are
// found before datephrase's phrases, which give way where the two overlap.
//
// The pattern is compiled on first use, and only for a text that has the
// words it needs: most queries name no holiday.
var holidayRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(?:(?:at|on|over|for)\s+)?(halloween|christmas\s+eve|christmas(?:\s+day)?|new\s+year'?s\s+eve|new\s+year'?s(?:\s+day)?|valentine'?s(?:\s+day)?)\b`)
})

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

// findPeriods returns the named days in text, resolved against now like
// datephrase resolves a day without a year: the most recent one that has
// begun by now.
func findPeriods(text string, now time.Time) []datephrase.Phrase {
	var out []datephrase.Phrase
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
