package query

import (
	"regexp"
	"sync"
	"time"

	"memoria/datephrase"
)

// Named days in a question written in lower case ("what did we do at
// christmas?", "since easter"), which datephrase reads only capitalised,
// since in notes "a christmas tree" or "easter eggs in the code" name no
// day. A question names them on purpose: their words are capitalised and
// datephrase resolves them, as it resolves every other time. They are
// found before datephrase's phrases, which give way where the two overlap.
//
// The pattern is compiled on first use, and only for a text that has one
// of the words it needs: most queries name no holiday.
var holidayRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(?:(?:at|on|over|for|since|before|after|around|during)\s+)?(halloween|christmas(?:\s+(?:eve|day))?|new\s+year'?s(?:\s+(?:eve|day))?|valentine'?s(?:\s+day)?|easter(?:\s+(?:sunday|monday))?|good\s+friday|maundy\s+thursday|palm\s+sunday|ash\s+wednesday|whit\s+(?:sunday|monday)|whitsun|pentecost|thanksgiving|black\s+friday|boxing\s+day|memorial\s+day|labor\s+day|independence\s+day)\b`)
})

// holidayWords are lower-case parts of holidayRE's names: a text with
// none of them has no match (the s of "christmas" and "easter" left out,
// (?i) also matches it as the long s, and the k of "thanksgiving" as the
// Kelvin sign).
var holidayWords = []string{"hallo", "chri", "year", "valent", "ter", "good", "maundy", "palm", "wedne", "whit", "pentec", "than", "black", "boxing", "memorial", "labor", "independence"}

// holidayMatches returns the submatch indices of holidayRE in text.
func holidayMatches(text string) [][]int {
	for _, w := range holidayWords {
		if containsFoldASCII(text, w) {
			return holidayRE().FindAllStringSubmatchIndex(text, -1)
		}
	}
	return nil
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

// findPeriods returns the named days in text, whatever their case, as
// datephrase resolves them capitalised: without a year, the latest one
// that began by now.
func findPeriods(text string, now time.Time) []datephrase.Phrase {
	var out []datephrase.Phrase
	for _, m := range holidayMatches(text) {
		// The leading word stays: "since", "before" and the like are
		// datephrase's relations; "at" and "for" it leaves out.
		lead := text[m[0]:m[2]]
		phrase := lead + titled(text[m[2]:m[3]])
		ps := datephrase.Find(phrase, now)
		if len(ps) != 1 || (ps[0].Start != 0 && ps[0].Start != len(lead)) || ps[0].End != len(phrase) {
			continue
		}
		p := ps[0]
		p.Start, p.End, p.Text = m[0], m[1], text[m[0]:m[1]]
		out = append(out, p)
	}
	return out
}

// titled capitalises each ASCII word of s ("new year's eve" → "New Year's
// Eve"); the letter after an apostrophe stays as it is.
func titled(s string) string {
	b := []byte(s)
	for i := range b {
		if (i == 0 || b[i-1] == ' ' || b[i-1] == '\t' || b[i-1] == '\n') && 'a' <= b[i] && b[i] <= 'z' {
			b[i] -= 'a' - 'A'
		}
	}
	return string(b)
}
