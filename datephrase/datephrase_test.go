package datephrase

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// now is the fixed "now" of the tests: Thursday, 27 November 2025, 15:04 UTC.
var now = time.Date(2025, 11, 27, 15, 4, 0, 0, time.UTC)

func day(s string) time.Time {
	if s == "min" {
		return MinDay
	}
	if s == "max" {
		return MaxDay
	}
	t, err := time.Parse("2006-01-02", s)
	if err != nil {
		panic(err)
	}
	return t
}

func TestFind(t *testing.T) {
	tests := []struct {
		text       string
		phrase     string // the matched text
		rel        Relation
		start, end string
		anchor     string // for Around
	}{
		// Calendar dates.
		{"2025-11-03", "2025-11-03", On, "2025-11-03", "2025-11-03", ""},
		{"at 2025-11-03T14:30 we met", "at 2025-11-03T14:30", On, "2025-11-03", "2025-11-03", ""},
		{"2025/11/03", "2025/11/03", On, "2025-11-03", "2025-11-03", ""},
		{"2025-11", "2025-11", During, "2025-11-01", "2025-11-30", ""},
		{"Nov 27", "Nov 27", On, "2025-11-27", "2025-11-27", ""},
		{"November 27", "November 27", On, "2025-11-27", "2025-11-27", ""},
		{"27 Nov", "27 Nov", On, "2025-11-27", "2025-11-27", ""},
		{"Nov 27, 2025", "Nov 27, 2025", On, "2025-11-27", "2025-11-27", ""},
		{"Nov 27th", "Nov 27th", On, "2025-11-27", "2025-11-27", ""},
		{"Nov. 3", "Nov. 3", On, "2025-11-03", "2025-11-03", ""},
		{"the 3rd of May", "the 3rd of May", On, "2025-05-03", "2025-05-03", ""},
		{"27th of November 2024", "27th of November 2024", On, "2024-11-27", "2024-11-27", ""},
		{"Thursday, November 27, 2025", "Thursday, November 27, 2025", On, "2025-11-27", "2025-11-27", ""},
		{"Nov 28", "Nov 28", On, "2024-11-28", "2024-11-28", ""}, // not after now
		{"Feb 29", "Feb 29", On, "2024-02-29", "2024-02-29", ""},
		{"May 3", "May 3", On, "2025-05-03", "2025-05-03", ""},
		{"march 2024", "march 2024", During, "2024-03-01", "2024-03-31", ""},
		// Ranges.
		{"Nov 27–Dec 1, 2025", "Nov 27–Dec 1, 2025", During, "2025-11-27", "2025-12-01", ""},
		{"Nov 27 - Dec 1", "Nov 27 - Dec 1", During, "2025-11-27", "2025-12-01", ""},
		{"Nov 27—Dec 1", "Nov 27—Dec 1", During, "2025-11-27", "2025-12-01", ""},
		{"Oct 14–16, 2025", "Oct 14–16, 2025", During, "2025-10-14", "2025-10-16", ""},
		{"Oct 14-16", "Oct 14-16", During, "2025-10-14", "2025-10-16", ""},
		{"27–30 Nov 2024", "27–30 Nov 2024", During, "2024-11-27", "2024-11-30", ""},
		{"Dec 28 – Jan 3, 2026", "Dec 28 – Jan 3, 2026", During, "2025-12-28", "2026-01-03", ""},
		// Months joined by a dash, however ambiguous or abbreviated
		// each is alone.
		{"GST return Jan–Feb 2025 filed", "Jan–Feb 2025", During, "2025-01-01", "2025-02-28", ""},
		{"Mar-Apr 2024", "Mar-Apr 2024", During, "2024-03-01", "2024-04-30", ""},
		{"the March–April rota", "March–April", During, "2025-03-01", "2025-04-30", ""},
		{"the May-June figures", "May-June", During, "2025-05-01", "2025-06-30", ""},
		{"Jan. – Feb. 2025", "Jan. – Feb. 2025", During, "2025-01-01", "2025-02-28", ""},
		{"2025-11-03 to 2025-11-05", "2025-11-03 to 2025-11-05", During, "2025-11-03", "2025-11-05", ""},
		{"Nov 3 through Nov 5", "Nov 3 through Nov 5", During, "2025-11-03", "2025-11-05", ""},
		{"between Oct 3 and Oct 9", "between Oct 3 and Oct 9", During, "2025-10-03", "2025-10-09", ""},
		{"from Oct 3 to Oct 9", "from Oct 3 to Oct 9", During, "2025-10-03", "2025-10-09", ""},
		{"from yesterday to today", "from yesterday to today", During, "2025-11-26", "2025-11-27", ""},
		{"between 2023 and 2024", "between 2023 and 2024", During, "2023-01-01", "2024-12-31", ""},
		{"from September to October", "from September to October", During, "2025-09-01", "2025-10-31", ""},
		// Months and years.
		{"in October", "in October", During, "2025-10-01", "2025-10-31", ""},
		{"in Oct", "in Oct", During, "2025-10-01", "2025-10-31", ""},
		{"in December", "in December", During, "2024-12-01", "2024-12-31", ""},
		{"during Nov 2025", "during Nov 2025", During, "2025-11-01", "2025-11-30", ""},
		{"November 2025", "November 2025", During, "2025-11-01", "2025-11-30", ""},
		{"in 2024", "in 2024", During, "2024-01-01", "2024-12-31", ""},
		{"the year 2024", "the year 2024", During, "2024-01-01", "2024-12-31", ""},
		{"mid-November", "mid-November", During, "2025-11-11", "2025-11-20", ""},
		{"in late Oct 2024", "in late Oct 2024", During, "2024-10-21", "2024-10-31", ""},
		{"early 2024", "early 2024", During, "2024-01-01", "2024-04-30", ""},
		{"last November", "last November", During, "2024-11-01", "2024-11-30", ""},
		{"this November", "this November", During, "2025-11-01", "2025-11-30", ""},
		{"next March", "next March", During, "2026-03-01", "2026-03-31", ""},
		// Relative days, weeks, months, years.
		{"today", "today", On, "2025-11-27", "2025-11-27", ""},
		{"yesterday", "yesterday", On, "2025-11-26", "2025-11-26", ""},
		{"tomorrow", "tomorrow", On, "2025-11-28", "2025-11-28", ""},
		{"the day before yesterday", "the day before yesterday", On, "2025-11-25", "2025-11-25", ""},
		{"last night", "last night", On, "2025-11-26", "2025-11-26", ""},
		{"this morning", "this morning", On, "2025-11-27", "2025-11-27", ""},
		{"earlier this week", "earlier this week", During, "2025-11-24", "2025-11-30", ""},
		{"last week", "last week", During, "2025-11-17", "2025-11-23", ""},
		{"this week", "this week", During, "2025-11-24", "2025-11-30", ""},
		{"next week", "next week", During, "2025-12-01", "2025-12-07", ""},
		{"last weekend", "last weekend", During, "2025-11-22", "2025-11-23", ""},
		{"last month", "last month", During, "2025-10-01", "2025-10-31", ""},
		{"this month", "this month", During, "2025-11-01", "2025-11-30", ""},
		{"last year", "last year", During, "2024-01-01", "2024-12-31", ""},
		{"this year", "this year", During, "2025-01-01", "2025-12-31", ""},
		{"since last week", "since last week", Since, "2025-11-17", "2025-11-27", ""},
		{"last Tuesday", "last Tuesday", On, "2025-11-25", "2025-11-25", ""},
		{"last Thursday", "last Thursday", On, "2025-11-20", "2025-11-20", ""},
		{"on Tuesday", "on Tuesday", On, "2025-11-25", "2025-11-25", ""},
		{"on Thursday", "on Thursday", On, "2025-11-27", "2025-11-27", ""},
		{"on Sat", "on Sat", On, "2025-11-22", "2025-11-22", ""},
		{"Friday", "Friday", On, "2025-11-21", "2025-11-21", ""},
		{"this Monday", "this Monday", On, "2025-11-24", "2025-11-24", ""},
		{"next Tuesday", "next Tuesday", On, "2025-12-02", "2025-12-02", ""},
		{"3 days ago", "3 days ago", On, "2025-11-24", "2025-11-24", ""},
		{"five hours ago", "five hours ago", On, "2025-11-27", "2025-11-27", ""},
		{"2 weeks ago", "2 weeks ago", Around, "2025-11-10", "2025-11-16", "2025-11-13"},
		{"a couple of weeks ago", "a couple of weeks ago", Around, "2025-11-10", "2025-11-16", "2025-11-13"},
		{"a month ago", "a month ago", Around, "2025-10-12", "2025-11-11", "2025-10-27"},
		{"a week ago", "a week ago", Around, "2025-11-17", "2025-11-23", "2025-11-20"},
		{"two weeks ago today", "two weeks ago today", On, "2025-11-13", "2025-11-13", ""},
		{"a year ago today", "a year ago today", On, "2024-11-27", "2024-11-27", ""},
		{"3 days ago today", "3 days ago today", On, "2025-11-24", "2025-11-24", ""},
		{"in the last 10 days", "in the last 10 days", During, "2025-11-17", "2025-11-27", ""},
		{"over the past two weeks", "over the past two weeks", During, "2025-11-13", "2025-11-27", ""},
		{"last 3 days", "last 3 days", During, "2025-11-24", "2025-11-27", ""},
		{"past 3 weeks", "past 3 weeks", During, "2025-11-06", "2025-11-27", ""},
		{"the past week", "the past week", During, "2025-11-20", "2025-11-27", ""},
		{"in the last month", "in the last month", During, "2025-10-27", "2025-11-27", ""},
		{"next 3 days", "next 3 days", During, "2025-11-27", "2025-11-30", ""},
		{"recently", "recently", During, "2025-11-13", "2025-11-27", ""},
		// Relations.
		{"since Nov 3", "since Nov 3", Since, "2025-11-03", "2025-11-27", ""},
		{"since 2024", "since 2024", Since, "2024-01-01", "2025-11-27", ""},
		{"from Nov 3", "from Nov 3", Since, "2025-11-03", "2025-11-27", ""},
		{"before Nov 3", "before Nov 3", Until, "min", "2025-11-02", ""},
		{"prior to Nov 3", "prior to Nov 3", Until, "min", "2025-11-02", ""},
		{"until Nov 3", "until Nov 3", Until, "min", "2025-11-03", ""},
		{"after Nov 3", "after Nov 3", After, "2025-11-04", "max", ""},
		{"after October", "after October", After, "2025-11-01", "max", ""},
		{"around Nov 27", "around Nov 27", Around, "2025-11-24", "2025-11-30", "2025-11-27"},
		{"around Nov 27–29", "around Nov 27–29", Around, "2025-11-24", "2025-12-02", "2025-11-28"},
		{"since Oct 1 until Nov 3", "since Oct 1 until Nov 3", During, "2025-10-01", "2025-11-03", ""},
		{"I'll be late March 3", "March 3", On, "2025-03-03", "2025-03-03", ""},
		{"on 2025-11-03", "on 2025-11-03", On, "2025-11-03", "2025-11-03", ""},
		// In context.
		{"- W @Peter: Currently in Marrakech (Nov 27–Dec 1, 2025) for Andy's birthday.", "Nov 27–Dec 1, 2025", During, "2025-11-27", "2025-12-01", ""},
		{"what did Peter say about the trip yesterday?", "yesterday", On, "2025-11-26", "2025-11-26", ""},
		{"I fixed it (see memory/2025-11-03.md).", "2025-11-03", On, "2025-11-03", "2025-11-03", ""},
		{"NOV 3", "NOV 3", On, "2025-11-03", "2025-11-03", ""},
	}
	for _, tt := range tests {
		got := Find(tt.text, now)
		if len(got) != 1 {
			t.Errorf("Find(%q) = %v, want one phrase %q", tt.text, got, tt.phrase)
			continue
		}
		p := got[0]
		want := Phrase{Start: strings.Index(tt.text, tt.phrase), Text: tt.phrase, Relation: tt.rel}
		want.End = want.Start + len(tt.phrase)
		want.Range.Start, want.Range.End = day(tt.start), day(tt.end)
		if tt.anchor != "" {
			want.Anchor = day(tt.anchor)
		}
		if p != want {
			t.Errorf("Find(%q)\n got %v\nwant %v", tt.text, fmtPhrase(p), fmtPhrase(want))
		}
	}
}

func fmtPhrase(p Phrase) string {
	s := fmt.Sprintf("[%d:%d] %q %s %s..%s", p.Start, p.End, p.Text, p.Relation,
		p.Range.Start.Format("2006-01-02"), p.Range.End.Format("2006-01-02"))
	if !p.Anchor.IsZero() {
		s += " anchor " + p.Anchor.Format("2006-01-02")
	}
	return s
}

func TestFindNone(t *testing.T) {
	for _, text := range []string{
		"", "Mayday", "may I ask", "March on", "I may go", "we march on Berlin", "in Paris",
		"Jan said hi", "over 2000 items", "the cat sat on the mat", "2025-13-01", "Feb 30",
		"version 2.0", "at 10:30", "3 people", "abc2025-11-03", "2025-11-03x", "2025-11-3",
		"wed the couple", "Sun is bright", "the last time", "in 3", "a week", "Oct", "Decimal",
		"@@@", "next", "last", "between us and them", "from Peter",
		"2025-11-00", "2025-02-30", "Nov 31", "32 Nov", "since", "around the corner",
		"the day after", "last a day", "10000000000 days ago",
		"on the 3rd floor", "the 2nd time we met", "meet at 5pm", "at the moment", "at the time",
		"the 32nd", "look at March figures", "policy LM-2231-07", "ticket INC-2025-11-03", "George said hi", "the king's day was long", "we flew to Australia",
		"Jan-Peter said hi", "may - or may not", "Jan and Feb", "march - and sing",
		"abc至", "3至5", // a run of letters or digits that 至 ends (it looped forever)
	} {
		if got := Find(text, now); len(got) != 0 {
			var s []string
			for _, p := range got {
				s = append(s, fmtPhrase(p))
			}
			t.Errorf("Find(%q) = %v, want none", text, s)
		}
	}
}

func TestFindSeveral(t *testing.T) {
	text := "Met Peter on Nov 3 and again last week; trip from Oct 3 to Oct 9, back 2 weeks ago."
	var got []string
	for _, p := range Find(text, now) {
		if text[p.Start:p.End] != p.Text {
			t.Errorf("offsets [%d:%d] do not match %q", p.Start, p.End, p.Text)
		}
		got = append(got, p.Text)
	}
	want := []string{"on Nov 3", "last week", "from Oct 3 to Oct 9", "2 weeks ago"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("Find = %q, want %q", got, want)
	}
}

func TestFindNowTimeZone(t *testing.T) {
	// "now" late on the 27th in UTC-8 is still the 27th there.
	loc := time.FixedZone("PST", -8*3600)
	got := Find("today", time.Date(2025, 11, 27, 23, 0, 0, 0, loc))
	if len(got) != 1 || !got[0].Range.Start.Equal(day("2025-11-27")) {
		t.Errorf("Find(today) in PST = %v", got)
	}
}

func TestParseBound(t *testing.T) {
	tests := []struct {
		in   string
		want time.Time
	}{
		{"30d", now.AddDate(0, 0, -30)},
		{"2w", now.AddDate(0, 0, -14)},
		{"6m", now.AddDate(0, -6, 0)},
		{"1y", now.AddDate(-1, 0, 0)},
		{"12h", now.Add(-12 * time.Hour)},
		{" 0D ", now},
		{"2025-11-03", day("2025-11-03")},
		{"2025-11-03T14:30", time.Date(2025, 11, 3, 14, 30, 0, 0, time.UTC)},
		{"2025-11-03 14:30", time.Date(2025, 11, 3, 14, 30, 0, 0, time.UTC)},
		{"today", day("2025-11-27")},
		{"Yesterday", day("2025-11-26")},
	}
	for _, tt := range tests {
		got, err := ParseBound(tt.in, now)
		if err != nil || !got.Equal(tt.want) {
			t.Errorf("ParseBound(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
	for _, bad := range []string{"", "30", "d", "30x", "-3d", "3.5d", "2025-13-01", "2025-11-3", "the day after never", "9999999d", "before March", "last week and more"} {
		_, err := ParseBound(bad, now)
		if err == nil {
			t.Errorf("ParseBound(%q): no error", bad)
		} else if !strings.Contains(err.Error(), "30d") || !strings.Contains(err.Error(), "2025-11-03T14:30") {
			t.Errorf("ParseBound(%q): error %q does not list the accepted forms", bad, err)
		}
	}
}

// TestParseBoundPhrases: a bound may be a period in words, as the MCP
// schema promised ("since: last week" failed): a lower bound is its first
// day, an upper bound (ParseUntil) its last; the simple forms read the
// same at both ends.
func TestParseBoundPhrases(t *testing.T) {
	now := time.Date(2025, 11, 27, 15, 4, 0, 0, time.UTC)
	for _, tt := range []struct{ in, since, until string }{
		{"last week", "2025-11-17", "2025-11-23"},
		{"this month", "2025-11-01", "2025-11-30"},
		{"Nov 2025", "2025-11-01", "2025-11-30"},
		{"3 days ago", "2025-11-24", "2025-11-24"},
		{"2025-11-03", "2025-11-03", "2025-11-03"},
	} {
		s, err := ParseBound(tt.in, now)
		if err != nil || s.Format(time.DateOnly) != tt.since {
			t.Errorf("ParseBound(%q) = %v, %v; want %s", tt.in, s, err, tt.since)
		}
		u, err := ParseUntil(tt.in, now)
		if err != nil || u.Format(time.DateOnly) != tt.until {
			t.Errorf("ParseUntil(%q) = %v, %v; want %s", tt.in, u, err, tt.until)
		}
	}
	if u, err := ParseUntil("2w", now); err != nil || !u.Equal(now.AddDate(0, 0, -14)) {
		t.Errorf("ParseUntil(2w) = %v, %v", u, err)
	}
}

func TestParseNow(t *testing.T) {
	for in, want := range map[string]time.Time{
		"2025-11-27":       day("2025-11-27"),
		"2025-11-27T09:15": time.Date(2025, 11, 27, 9, 15, 0, 0, time.UTC),
	} {
		got, err := ParseNow(in)
		if err != nil || !got.Equal(want) {
			t.Errorf("ParseNow(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "now", "27/11/2025", "2025-11-27T9:15", "30d"} {
		if _, err := ParseNow(bad); err == nil || !strings.Contains(err.Error(), "YYYY-MM-DD") {
			t.Errorf("ParseNow(%q): error %v", bad, err)
		}
	}
}

func FuzzFind(f *testing.F) {
	for _, s := range []string{
		"Nov 27–Dec 1, 2025", "between Oct 3 and Oct 9", "since last week", "2 weeks ago",
		"in the last 10 days", "2025-11-03T14:30", "27–30 Nov 2025", "Thursday, Nov 27",
		"mid-", "the", "from 2024 to", "a couple of", "9999-12-31", "after 9999-12-31",
		"before 1000-01-01", "Feb 29 - Mar 1", "\xff\xfe Nov \u2013 3", "last 99999 years",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		last := 0
		for _, p := range Find(s, now) {
			if p.Start < last || p.End <= p.Start || p.End > len(s) || s[p.Start:p.End] != p.Text {
				t.Fatalf("bad phrase %+v in %q", p, s)
			}
			if p.Range.Start.After(p.Range.End) {
				t.Fatalf("empty range %v in %q", fmtPhrase(p), s)
			}
			if p.Relation < On || p.Relation > Around || (p.Relation == Around) == p.Anchor.IsZero() {
				t.Fatalf("bad relation/anchor %v in %q", fmtPhrase(p), s)
			}
			last = p.End
		}
		_, _ = ParseBound(s, now)
		_, _ = ParseNow(s)
	})
}

var benchSentence = "- W @Peter: Currently in Marrakech (Nov 27–Dec 1, 2025) for Andy's birthday; " +
	"we met last Tuesday and he said he'd be back around Dec 3, maybe a couple of weeks later than planned."

func BenchmarkFind(b *testing.B) {
	b.SetBytes(int64(len(benchSentence)))
	b.ReportAllocs()
	for b.Loop() {
		Find(benchSentence, now)
	}
}

// TestNamedPeriods: holidays people name instead of dates, and windows
// next to a time ("the week after Easter"). Without a year, a holiday is
// the latest that began on or before now.
func TestNamedPeriods(t *testing.T) {
	now := time.Date(2026, 4, 30, 9, 0, 0, 0, time.UTC)
	for _, tc := range []struct{ in, text, start, end string }{
		{"what did we do over Easter?", "over Easter", "2026-04-03", "2026-04-06"},
		{"Easter 2025", "Easter 2025", "2025-04-18", "2025-04-21"},
		{"Easter Monday", "Easter Monday", "2026-04-06", "2026-04-06"},
		{"at New Year", "at New Year", "2025-12-31", "2026-01-01"},
		{"New Year's Eve 2025", "New Year's Eve 2025", "2025-12-31", "2025-12-31"},
		{"on Christmas Eve", "on Christmas Eve", "2025-12-24", "2025-12-24"},
		{"over Christmas", "over Christmas", "2025-12-24", "2025-12-26"},
		{"around Halloween", "around Halloween", "2025-10-28", "2025-11-03"},
		{"Valentine's Day", "Valentine's Day", "2026-02-14", "2026-02-14"},
		{"Thanksgiving 2025", "Thanksgiving 2025", "2025-11-27", "2025-11-27"},
		{"the week after Easter", "the week after Easter", "2026-04-07", "2026-04-13"},
		{"the day before Christmas", "the day before Christmas", "2025-12-23", "2025-12-23"},
		{"the weekend after Nov 3", "the weekend after Nov 3", "2025-11-08", "2025-11-09"},
		// In the plural, a week of days and three weeks.
		{"in the days before Good Friday", "in the days before Good Friday", "2026-03-27", "2026-04-02"},
		{"the weeks after Easter", "the weeks after Easter", "2026-04-07", "2026-04-27"},
	} {
		ps := Find(tc.in, now)
		if len(ps) != 1 || ps[0].Text != tc.text || ps[0].Range.Start.Format(time.DateOnly) != tc.start || ps[0].Range.End.Format(time.DateOnly) != tc.end {
			t.Errorf("%q: %+v, want %q %s..%s", tc.in, ps, tc.text, tc.start, tc.end)
		}
	}
	for _, s := range []string{"a new year of work", "New York", "Eve said hi", "a good christmas tree"} {
		if ps := Find(s, now); len(ps) != 0 {
			t.Errorf("%q: %+v, want no phrase", s, ps)
		}
	}
	if e := easterSunday(2024); e.Format(time.DateOnly) != "2024-03-31" {
		t.Errorf("Easter 2024: %v", e)
	}
}

// TestSeasonsPartsAndFeasts: seasons, parts of a period ("the end of last
// month", "the second week of June"), "before last", fortnights and
// weekends counted back, and days whose name holds a weekday or "Day"
// ("Good Friday", "Boxing Day"), which are never that weekday of this week.
// Now is Thursday, 27 November 2025.
func TestSeasonsPartsAndFeasts(t *testing.T) {
	for _, tc := range []struct {
		in, text   string
		rel        Relation
		start, end string
	}{
		{"what did we do last spring?", "last spring", During, "2025-03-01", "2025-05-31"},
		{"this summer", "this summer", During, "2025-06-01", "2025-08-31"},
		{"in the summer", "in the summer", During, "2025-06-01", "2025-08-31"},
		{"over the winter", "over the winter", During, "2024-12-01", "2025-02-28"},
		{"next winter", "next winter", During, "2025-12-01", "2026-02-28"},
		{"last autumn", "last autumn", During, "2024-09-01", "2024-11-30"},
		{"in the fall of 2023", "in the fall of 2023", During, "2023-09-01", "2023-11-30"},
		{"summer 2024", "summer 2024", During, "2024-06-01", "2024-08-31"},
		{"since the spring", "since the spring", Since, "2025-03-01", "2025-11-27"},
		{"the start of May", "the start of May", During, "2025-05-01", "2025-05-11"},
		{"at the end of last month", "at the end of last month", During, "2025-10-21", "2025-10-31"},
		{"end of last month", "end of last month", During, "2025-10-21", "2025-10-31"},
		{"the beginning of this year", "the beginning of this year", During, "2025-01-01", "2025-05-02"},
		{"the first week of May", "the first week of May", During, "2025-05-01", "2025-05-07"},
		{"in the second week of June", "in the second week of June", During, "2025-06-08", "2025-06-14"},
		{"the last week of May", "the last week of May", During, "2025-05-25", "2025-05-31"},
		{"the last days of May", "the last days of May", During, "2025-05-21", "2025-05-31"},
		{"the last few days of October", "the last few days of October", During, "2025-10-21", "2025-10-31"},
		{"the last few days", "the last few days", During, "2025-11-24", "2025-11-27"},
		{"since the new year", "since the new year", Since, "2024-12-31", "2025-11-27"},
		{"Saturday before last", "Saturday before last", On, "2025-11-15", "2025-11-15"},
		{"the week before last", "the week before last", During, "2025-11-10", "2025-11-16"},
		{"the weekend before last", "the weekend before last", During, "2025-11-15", "2025-11-16"},
		{"two weekends ago", "two weekends ago", During, "2025-11-15", "2025-11-16"},
		{"2 weekends ago", "2 weekends ago", During, "2025-11-15", "2025-11-16"},
		{"a fortnight ago", "a fortnight ago", Around, "2025-11-10", "2025-11-16"},
		{"three weeks back", "three weeks back", Around, "2025-11-03", "2025-11-09"},
		{"in the last fortnight", "in the last fortnight", During, "2025-11-13", "2025-11-27"},
		{"last fortnight", "last fortnight", During, "2025-11-13", "2025-11-27"},
		{"the fortnight before Christmas", "the fortnight before Christmas", During, "2024-12-10", "2024-12-23"},
		{"on Good Friday", "on Good Friday", On, "2025-04-18", "2025-04-18"},
		{"Good Friday 2024", "Good Friday 2024", On, "2024-03-29", "2024-03-29"},
		{"Whit Monday", "Whit Monday", On, "2025-06-09", "2025-06-09"},
		{"Whit Sunday", "Whit Sunday", On, "2025-06-08", "2025-06-08"},
		{"Ash Wednesday", "Ash Wednesday", On, "2025-03-05", "2025-03-05"},
		{"Palm Sunday", "Palm Sunday", On, "2025-04-13", "2025-04-13"},
		{"Maundy Thursday", "Maundy Thursday", On, "2025-04-17", "2025-04-17"},
		{"Black Friday", "Black Friday", On, "2024-11-29", "2024-11-29"},
		{"Boxing Day", "Boxing Day", On, "2024-12-26", "2024-12-26"},
		{"Independence Day", "Independence Day", On, "2025-07-04", "2025-07-04"},
		{"Memorial Day", "Memorial Day", On, "2025-05-26", "2025-05-26"},
		{"Labor Day", "Labor Day", On, "2025-09-01", "2025-09-01"},
		{"on May Day", "on May Day", On, "2025-05-01", "2025-05-01"},
		{"on the Liberty Day holiday", "Liberty Day", On, "2025-04-25", "2025-04-25"},
		{"at the stall on St Patrick's Day", "Patrick's Day", On, "2025-03-17", "2025-03-17"},
		{"King's Day in Utrecht", "King's Day", On, "2025-04-27", "2025-04-27"},
		{"Canada Day 2024", "Canada Day 2024", On, "2024-07-01", "2024-07-01"},
		{"since Mashujaa Day", "since Mashujaa Day", Since, "2025-10-20", "2025-11-27"},
		{"a good Friday for it", "Friday", On, "2025-11-21", "2025-11-21"},
		{"before last Friday", "before last Friday", Until, "min", "2025-11-20"},
		{"the Tuesday after Easter", "Tuesday after Easter", On, "2025-04-22", "2025-04-22"},
		{"the Friday before Christmas", "Friday before Christmas", On, "2024-12-20", "2024-12-20"},
		{"the end of the month", "the end of the month", During, "2025-11-21", "2025-11-30"},
		{"in the second half of November", "in the second half of November", During, "2025-11-16", "2025-11-30"},
		{"the first half of October 2024", "the first half of October 2024", During, "2024-10-01", "2024-10-15"},
		{"the last half of October", "the last half of October", During, "2025-10-16", "2025-10-31"},
		{"second half of march", "second half of march", During, "2025-03-16", "2025-03-31"},
		{"the 2nd Half of Dec.", "the 2nd Half of Dec.", During, "2024-12-16", "2024-12-31"},
		{"THE LAST WEEK OF NOV 2024", "THE LAST WEEK OF NOV 2024", During, "2024-11-24", "2024-11-30"},
		{"the 3rd week of September", "the 3rd week of September", During, "2025-09-15", "2025-09-21"},
		{"the start of the week", "the start of the week", During, "2025-11-24", "2025-11-26"},
		{"last Christmas", "last Christmas", During, "2024-12-24", "2024-12-26"},
		{"this Christmas", "this Christmas", During, "2025-12-24", "2025-12-26"},
		{"next Easter", "next Easter", During, "2026-04-03", "2026-04-06"},
		{"last Good Friday", "last Good Friday", On, "2025-04-18", "2025-04-18"},
		{"over the weekend", "over the weekend", During, "2025-11-22", "2025-11-23"},
		{"any complaints at the weekend?", "at the weekend", During, "2025-11-22", "2025-11-23"},
		{"what did we cook at Christmas", "at Christmas", During, "2024-12-24", "2024-12-26"},
		// A day of the month said alone: the latest such day.
		{"what did Podge land on the 3rd?", "on the 3rd", On, "2025-11-03", "2025-11-03"},
		{"on the 28th we went out", "on the 28th", On, "2025-10-28", "2025-10-28"},
		{"the 31st", "the 31st", On, "2025-10-31", "2025-10-31"},
		{"between the 10th and the 14th of March", "between the 10th and the 14th of March", During, "2025-03-10", "2025-03-14"},
		{"from the 3rd to the 7th of November", "from the 3rd to the 7th of November", During, "2025-11-03", "2025-11-07"},
		{"the past weekend", "the past weekend", During, "2025-11-22", "2025-11-23"},
		{"this past weekend", "this past weekend", During, "2025-11-22", "2025-11-23"},
		{"the week of Nov 3", "the week of Nov 3", During, "2025-11-03", "2025-11-09"},
		{"the summer before last", "the summer before last", During, "2024-06-01", "2024-08-31"},
		{"late summer", "late summer", During, "2025-08-01", "2025-08-31"},
		{"early spring 2024", "early spring 2024", During, "2024-03-01", "2024-03-31"},
	} {
		ps := Find(tc.in, now)
		if len(ps) != 1 || ps[0].Text != tc.text || ps[0].Relation != tc.rel || !ps[0].Range.Start.Equal(day(tc.start)) || !ps[0].Range.End.Equal(day(tc.end)) {
			var got []string
			for _, p := range ps {
				got = append(got, fmtPhrase(p))
			}
			t.Errorf("%q: %v, want %q %s %s..%s", tc.in, got, tc.text, tc.rel, tc.start, tc.end)
		}
	}
	// On a weekend, the past weekend is the one before (on Saturday it
	// read as this one, which is not over).
	for _, sat := range []time.Time{time.Date(2025, 11, 29, 9, 0, 0, 0, time.UTC), time.Date(2025, 11, 30, 9, 0, 0, 0, time.UTC)} {
		if ps := Find("the past weekend", sat); len(ps) != 1 || !ps[0].Range.Start.Equal(day("2025-11-22")) || !ps[0].Range.End.Equal(day("2025-11-23")) {
			t.Errorf("the past weekend, said %s: %+v", sat.Weekday(), ps)
		}
	}
	for _, s := range []string{
		"a summer intern", "the spring release", "we fall behind", "the end of the meeting",
		"the first time", "the second week", "a black cat", "the good news", "boxing day",
		"a holy place", "start of the build", "the weekend", "the week of hard work", "spring cleaning", "the third half of May", "weekly half-marathon", "the first half",
	} {
		if ps := Find(s, now); len(ps) != 0 {
			t.Errorf("%q: %+v, want no phrase", s, ps)
		}
	}
}

// TestFindNamedDays: a question names a day on purpose, in whatever case
// it is typed; only phrases that name one are returned. Notes (Find) read
// only capitalised names.
func TestFindNamedDays(t *testing.T) {
	now := time.Date(2026, 4, 30, 9, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		in   string
		want []string // "text rel start..end"
	}{
		{"what did we do on anzac day?", []string{"on anzac day on 2026-04-25..2026-04-25"}},
		{"anything over xmas", []string{"over xmas during 2025-12-24..2025-12-26"}},
		{"what changed since easter?", []string{"since easter since 2026-04-03..2026-04-30"}},
		{"who came at christmas", []string{"at christmas during 2025-12-24..2025-12-26"}},
		{"at new year's eve", []string{"at new year's eve on 2025-12-31..2025-12-31"}},
		{"the tuesday after easter", []string{"tuesday after easter on 2026-04-07..2026-04-07"}},
		{"last christmas", []string{"last christmas during 2025-12-24..2025-12-26"}},
		{"on good friday and boxing day", []string{"on good friday on 2026-04-03..2026-04-03", "boxing day on 2025-12-26..2025-12-26"}},
		{"Over Christmas, and last week", []string{"Over Christmas during 2025-12-24..2025-12-26"}},
		{"what did we do last week?", nil},
		{"a good friend on friday", nil},
	} {
		var got []string
		for _, p := range FindNamedDays(tc.in, now) {
			got = append(got, fmt.Sprintf("%s %s %s..%s", p.Text, p.Relation, p.Range.Start.Format(time.DateOnly), p.Range.End.Format(time.DateOnly)))
		}
		if strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("FindNamedDays(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	for _, s := range []string{"we put up a christmas tree", "easter eggs in the code", "on anzac day", "over xmas"} {
		if ps := Find(s, now); len(ps) != 0 {
			t.Errorf("Find(%q) = %+v, want no phrase: in notes a name is capitalised", s, ps)
		}
	}
}

// TestFindHedgedRange: an end of a range may be hedged ("around",
// "circa", "approximately"); the range stays the range, and no window
// around its end swallows it.
func TestFindHedgedRange(t *testing.T) {
	now := time.Date(2026, 4, 20, 9, 0, 0, 0, time.UTC) // a log of 2026
	for _, tc := range []struct {
		in, text   string
		rel        Relation
		start, end string
	}{
		{"from 23 March until around 8 April", "from 23 March until around 8 April", During, "2026-03-23", "2026-04-08"},
		{"away from 23 March until around 8 April.", "from 23 March until around 8 April", During, "2026-03-23", "2026-04-08"},
		{"from around 23 March to 8 April", "from around 23 March to 8 April", During, "2026-03-23", "2026-04-08"},
		{"March 23 to approximately April 8", "March 23 to approximately April 8", During, "2026-03-23", "2026-04-08"},
		{"23 March – circa 8 April", "23 March – circa 8 April", During, "2026-03-23", "2026-04-08"},
		{"between around 3 March and 9 March", "between around 3 March and 9 March", During, "2026-03-03", "2026-03-09"},
		{"from 23 March until 8 April", "from 23 March until 8 April", During, "2026-03-23", "2026-04-08"},
		// A hedge alone keeps its window.
		{"from around 23 March", "around 23 March", Around, "2026-03-20", "2026-03-26"},
		{"around 8 April", "around 8 April", Around, "2026-04-05", "2026-04-11"},
	} {
		ps := Find(tc.in, now)
		if len(ps) != 1 || ps[0].Text != tc.text || ps[0].Relation != tc.rel ||
			ps[0].Range.Start.Format(time.DateOnly) != tc.start || ps[0].Range.End.Format(time.DateOnly) != tc.end {
			var got []string
			for _, p := range ps {
				got = append(got, fmtPhrase(p))
			}
			t.Errorf("Find(%q) = %v, want %q %s %s..%s", tc.in, got, tc.text, tc.rel, tc.start, tc.end)
		}
	}
}
