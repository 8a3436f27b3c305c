package query

import (
	"time"

	"memoria/datephrase"
)

// findPeriods returns the phrases of text that name a day or period by
// its name, whatever their case ("what did we do at christmas?", "since
// easter", "over xmas"), as datephrase resolves them: without a year, the
// latest one that began by now. Find reads named days only capitalised,
// since in notes "a christmas tree" or "easter eggs in the code" name no
// day; a question names them on purpose. They win over the phrases of
// FindNearest they overlap (mergePeriods), which would read a named day
// more than half a year back as the next one.
func findPeriods(text string, now time.Time) []datephrase.Phrase {
	return datephrase.FindNamedDays(text, now)
}
