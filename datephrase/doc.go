// Package datephrase finds date and time phrases in English text, and the
// common written date forms of other languages (below), and resolves them
// to ranges of days against an injected "now". It never reads the clock,
// so results are deterministic for a given now. Its words (month and
// weekday names, "ago", "fortnight", the names of holidays) are those of
// Memoria's lexicon, package lang; the grammar that reads them is its own.
//
// Find scans a text once (a hand-written tokenizer and a small recursive
// grammar; no regular expressions) and returns the phrases it found, with
// byte offsets, a memory.TimeRange of UTC-midnight days and a Relation.
// FindNamedDays keeps the phrases that name a day ("since Easter"), read
// in any case, as a question types them ("since easter"). ParseBound and
// ParseNow read command-line flag values (--since, --until, --now).
//
// # Phrases
//
// Examples resolve against Thursday, 27 November 2025.
//
//	2025-11-03, 2025/11/03, 2025-11-03T14:30   that day
//	2025-11                                     that month
//	Nov 27, November 27, 27 Nov, Nov 27th,      a day; a year may follow ("Nov 27, 2025");
//	  Nov. 27, the 27th of November,            a leading weekday is skipped
//	  Thursday, November 27, 2025
//	the 3rd, on the 21st                        a day of the month said alone: the latest such
//	                                              day up to today; joined to a date, a day of its
//	                                              month ("between the 10th and the 14th of March");
//	                                              not before a noun ("the 3rd floor")
//	Nov 27–Dec 1, 2025; Nov 27 - Dec 1;         ranges: a dash (- – —), to, through, thru,
//	  Oct 14–16, 2025; 27–30 Nov;               until or till joins two dates; a year on
//	  2025-11-03 to 2025-11-05                  either end applies to both
//	Jan–Feb 2026, March–April, May-June         months joined by a dash, however ambiguous
//	                                              or abbreviated each is alone
//	between Oct 3 and Oct 9, from Oct 3 to Oct 9, from yesterday to today
//	from 23 March until around 8 April          a hedged end (around, circa, approximately)
//	                                              is still an end: the range, no window
//	October, in Oct, November 2025, Nov 2025    a month
//	in 2024, the year 2024                      a year (a bare number needs in, since, …)
//	early/mid/late November, mid-Nov, early 2024  days 1–10/11–20/21–end; Jan–Apr/May–Aug/Sep–Dec
//	last/this/next November                     the latest November before this month, …
//	today, tonight, yesterday, tomorrow, last night, this morning,
//	  the day before yesterday, the day after tomorrow
//	last/this/next week|month|year|weekend      calendar units; weeks run Monday–Sunday
//	earlier today, earlier this week            as "today", "this week"
//	Tuesday, on Tuesday                         the latest Tuesday not after today
//	last Tuesday / next Tuesday / this Tuesday  the latest before today / first after / in this week
//	3 days ago, five hours ago                  that day (Relation On)
//	2 weeks ago, a month ago, a year ago,       Relation Around: Anchor is that day, Range is
//	  a couple of weeks ago                     Anchor ± half a unit (3, 15, 182 days), not past today
//	two weeks ago today, a year ago today       that very day (Relation On)
//	past 3 weeks, last 10 days, the past week,  rolling windows ending today (Start = today
//	  in the last 10 days, over the last month  minus N units); "next 3 days" starts today
//	recently, lately                            the last RecentDays (14) days
//	a fortnight ago, three weeks back,          "back" as "ago"; a fortnight is 14 days;
//	  two weekends ago, last fortnight            weekends counted back from last weekend's
//	the week/weekend before last,               two units back; the weekday a week before
//	  Saturday before last, the summer before     last Saturday; the season before last's
//	  last
//	over/on/at the weekend, the past weekend,   the weekend under way, else the last one;
//	  this past weekend                           the last one over
//	the week of Nov 3                           Monday to Sunday around that day
//	the Tuesday after Easter,                   the first such weekday after X ends, the
//	  Friday before Christmas                     last before it starts
//	the start/beginning/end of X,               the first or last third of X's days
//	  the first/last (few) days of X              ("the end of last month", "the end of the
//	                                              month": this one)
//	the first … fourth/last week of X           seven days of a month: 1–7, 8–14, …, the last 7
//	the first/second/last half of X             X's days before its middle, or from it
//	last/this/next spring, in the summer,       seasons, as meteorological ones in the north:
//	  over the winter, the fall of 2023,          Mar–May, Jun–Aug, Sep–Nov, Dec–Feb (winter
//	  summer 2024, late summer                    2025 is Dec 2024–Feb 2025); "this" the nearest;
//	                                              early/mid/late: its first, second, third month
//	Easter, Christmas, New Year, Halloween,     named days and periods, the latest begun
//	  last/this/next Christmas                    (last: the latest over; next: the first to come);
//	  Pentecost/Whitsun, Thanksgiving,            days whose name holds a weekday or "Day"
//	  Good Friday, Whit Monday, Ash Wednesday,    are never that weekday of this week
//	  Black Friday, Boxing Day, May Day,
//	  Memorial Day, Labor Day, Independence Day
//	Liberty Day, Anzac Day, Australia Day,      national and saints' days of a fixed date
//	  Canada Day, Bastille Day, Waitangi Day,     (fixedDays); "Day" is part of the name:
//	  Remembrance/Armistice Day, King's Day,      "George said hi" names no time
//	  St Patrick's (Paddy's), St Stephen's,
//	  St Andrew's, St David's, St George's Day,
//	  Madaraka, Mashujaa, Jamhuri Day,
//	  Assumption Day
//
// A bare season needs a relation word before it ("in the spring", "over
// the summer") or a year after it: "a summer intern" and "the spring
// release" name no time.
//
// A relation word may lead the phrase:
//
//	on, at, in, during, throughout, over,       Range is the phrase's range (On or During):
//	  within                                      "at the weekend", "at Christmas"
//	since X, from X                             X's start through today (Since)
//	until X, till X                             MinDay through X's first day (Until)
//	before X, prior to X                        MinDay through the day before X starts (Until)
//	after X                                     the day after X ends through MaxDay (After)
//	around X, circa X, approximately X          Around: Anchor is X's middle day, Range is X ± AroundDays
//
// # Resolution rules
//
// "Now" is reduced to its calendar day in its own location (memory.Day). A
// month and day without a year ("Nov 27") resolve to the most recent such
// day not after now, so in a daily log, whose "now" is the log's day, "Nov
// 28" written on 2025-11-27 means 2024-11-28. A month without a year is the
// most recent month that has begun ("December" in November 2025 is December
// 2024). In a range, a year written on one end applies to the other, and
// "Dec 28 – Jan 3, 2026" starts in 2025. Open ends are MinDay and MaxDay.
//
// # Ambiguity
//
// Matching works on whole words, so "Mayday" or "Decimal" never match. Words
// that are also ordinary English ("may", "march") are months only next to a
// day number or a year ("May 3", "3 May", "March 2024"). Abbreviated months
// and weekdays ("Oct", "Sat", "Wed") stand alone only after a relation word
// ("in Oct", "on Sat"); so do bare years ("in 2024"), except after "over"
// and "within" ("over 2000 items"). Full month and weekday names match on
// their own ("June", "Friday"): a caller that knows "June" is a person should
// drop phrases that overlap a known name.
//
// # Other languages
//
// Dates as other languages write them (docs/multilingual.md):
//
//	27.11.2025, 1.2.2026                        day.month.year (four-digit year)
//	2025年11月27日, 2025年11月, 11月27日          Chinese and Japanese (号 for 日 too);
//	  2025년 11월 27일                            Korean; 至, 〜 join a range
//	3日, 3号, 3일                                 a day of the month said alone, as "the 3rd"
//	                                              (not 3日前, 3日間, 3号线, 3일 전: counts, numbers)
//	昨天 今天 明天 前天 后天 上周 本周 下周       relative days, weeks, months and years, and
//	  上个月 去年 最近 周末 星期三 周三;          weekdays, in Chinese, Japanese and Korean, as
//	  昨日 先週 来週 先月 水曜日; 어제 지난주       the English words they stand for
//	  다음 달 작년 수요일                          (lang.CJKDateWords, lang.CJKWeekdays)
//	27. November 2025, 3. März 2025             German: a dot after the day
//	27 novembre 2025, 27 ott 2025, 15 gennaio   month names and abbreviations in German,
//	  3 décembre 2024, 5 de mayo de 2025,         Italian, French, Spanish and Russian
//	  27 ноября 2025, в ноябре 2025               (any case form Russian dates use)
//
// Foreign month names count only next to a day number or a year ("Mars",
// "mai" and "mayo" are ordinary words too). Relation words ("since", "in
// the last") and relative phrases ("yesterday") are English only, but for
// the CJK date words above.
//
// # Not handled
//
// Numeric month/day forms (11/27/2025), times of day beyond an ISO
// timestamp ("at 3pm"), quarters, bank holidays and other days that
// differ by country, future offsets ("in 3 days"), seasons of the
// southern hemisphere, and relative phrases in other languages than
// Chinese, Japanese and Korean ("вчера", "gestern").
package datephrase
