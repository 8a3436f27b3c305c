package datephrase_test

import (
	"fmt"
	"time"

	"memoria/datephrase"
)

func ExampleFind() {
	now := time.Date(2025, 11, 27, 0, 0, 0, 0, time.UTC) // a Thursday
	text := "Currently in Marrakech (Nov 27–Dec 1, 2025); we spoke last Tuesday, and since last week it rains."
	for _, p := range datephrase.Find(text, now) {
		fmt.Printf("%q %s %s..%s\n", p.Text, p.Relation,
			p.Range.Start.Format("2006-01-02"), p.Range.End.Format("2006-01-02"))
	}
	// Output:
	// "Nov 27–Dec 1, 2025" during 2025-11-27..2025-12-01
	// "last Tuesday" on 2025-11-25..2025-11-25
	// "since last week" since 2025-11-17..2025-11-27
}

func ExampleParseBound() {
	now := time.Date(2025, 11, 27, 15, 4, 0, 0, time.UTC)
	for _, s := range []string{"30d", "2w", "2025-11-03", "yesterday", "last week"} {
		t, _ := datephrase.ParseBound(s, now)
		fmt.Println(s, t.Format("2006-01-02T15:04"))
	}
	_, err := datephrase.ParseBound("soon", now)
	fmt.Println(err)
	// Output:
	// 30d 2025-10-28T15:04
	// 2w 2025-11-13T15:04
	// 2025-11-03 2025-11-03T00:00
	// yesterday 2025-11-26T00:00
	// last week 2025-11-17T00:00
	// invalid time bound "soon": want a span back from now (30d, 2w, 6m for months, 1y, 12h), a date (2025-11-03), a date and time (2025-11-03T14:30), today, yesterday, or a period in words (last week, this month, Nov 2025, 3 days ago)
}
