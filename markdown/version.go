package markdown

// Version changes whenever parsing changes what it reads from the same
// bytes (facts, passages, entities, event times): the index stores it and
// rebuilds when it differs, so no index keeps an older reading. 10:
// months joined by a dash are a range ("Jan–Feb 2026"); it also covers
// the fixed-date holidays and the dates inside identifiers, which
// changed event times under 9. 11: CJK days said alone (3日, 3号) and
// CJK relative words and weekdays (datephrase) date the lines that say
// them. 12: an end of a range may be hedged ("from 23 March until around
// 8 April" is the range, not a week around 8 April), and "the days before
// X" is a week of days (datephrase). 13: OpenClaw's layout: USER.md,
// DREAMS.md, memory/dreaming/ and memory/imports/ are read as text only
// (no facts, Retain sections or headings), USER.md's marks give its
// entries an observed day and a status, and memory/YYYY-MM-DD-<slug>.md
// is a daily log of its day.
const Version = 13
