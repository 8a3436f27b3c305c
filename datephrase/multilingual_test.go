package datephrase

import (
	"testing"
	"time"
)

// TestFindOtherLanguages covers the date forms other languages write:
// numeric day.month.year, CJK year/month/day signs, and month names in
// German, Italian, French, Spanish and Russian, which count only next to
// a day number or a year.
func TestFindOtherLanguages(t *testing.T) {
	now := time.Date(2025, 12, 1, 9, 0, 0, 0, time.UTC)
	tests := []struct {
		text       string
		phrase     string // "" when nothing must be found
		start, end string
	}{
		{"Die Feier ist am 27.11.2025 im Garten.", "27.11.2025", "2025-11-27", "2025-11-27"},
		{"bis 1.2.2026", "1.2.2026", "2026-02-01", "2026-02-01"}, // "bis" is no relation word: the day only
		{"数据同步项目要求在2025年11月28日之前上线。", "2025年11月28日", "2025-11-28", "2025-11-28"},
		{"本番の移行日は2025年11月22日の夜。", "2025年11月22日", "2025-11-22", "2025-11-22"},
		{"2025年11月的计划", "2025年11月", "2025-11-01", "2025-11-30"},
		{"11月27日开会", "11月27日", "2025-11-27", "2025-11-27"},
		{"2025년 11월 27일에 만나요", "2025년 11월 27일", "2025-11-27", "2025-11-27"},
		{"2025年11月27日至12月1日", "2025年11月27日至12月1日", "2025-11-27", "2025-12-01"},
		{"entro il 27 nov 2025", "27 nov 2025", "2025-11-27", "2025-11-27"},
		{"entro il 27 ott 2025", "27 ott 2025", "2025-10-27", "2025-10-27"},
		{"am 27. November 2025", "27. November 2025", "2025-11-27", "2025-11-27"},
		{"am 3. März 2025", "3. März 2025", "2025-03-03", "2025-03-03"},
		{"Доклад нужно сдать к 27 ноября 2025.", "27 ноября 2025", "2025-11-27", "2025-11-27"},
		{"Переезд состоится 18 октября 2025 года.", "18 октября 2025", "2025-10-18", "2025-10-18"},
		{"в ноябре 2025", "ноябре 2025", "2025-11-01", "2025-11-30"},
		{"rinviata al 15 gennaio 2026", "15 gennaio 2026", "2026-01-15", "2026-01-15"},
		{"le 3 décembre 2024", "3 décembre 2024", "2024-12-03", "2024-12-03"},
		{"el 5 de mayo de 2025", "5 de mayo de 2025", "2025-05-05", "2025-05-05"},
		// Not dates.
		{"version 1.2.3 and 10.20.30", "", "", ""},
		{"1.27.11.2025", "", "", ""},
		{"Mai Tai at the bar", "", "", ""},
		{"ноябрь был холодным", "", "", ""}, // a bare foreign month needs a day or a year
		{"3年前", "", "", ""},
	}
	for _, tt := range tests {
		got := Find(tt.text, now)
		if tt.phrase == "" {
			if len(got) > 0 {
				t.Errorf("%q: found %q, want nothing", tt.text, got[0].Text)
			}
			continue
		}
		if len(got) != 1 {
			t.Errorf("%q: %d phrases %v, want %q", tt.text, len(got), got, tt.phrase)
			continue
		}
		p := got[0]
		if p.Text != tt.phrase || p.Range.Start.Format(time.DateOnly) != tt.start || p.Range.End.Format(time.DateOnly) != tt.end {
			t.Errorf("%q: got %q %s..%s, want %q %s..%s", tt.text, p.Text, p.Range.Start.Format(time.DateOnly),
				p.Range.End.Format(time.DateOnly), tt.phrase, tt.start, tt.end)
		}
	}
}

// TestFindCJKDays: a day of the month said alone (3日, 3号, 3일), relative
// days, weeks, months and years, and weekdays in Chinese, Japanese and
// Korean, as the English words they stand for (issue 43, item 10: a
// Chinese question naming a day got no window).
func TestFindCJKDays(t *testing.T) {
	t.Parallel()
	now := time.Date(2025, 11, 20, 9, 0, 0, 0, time.UTC) // a Thursday
	tests := []struct {
		text       string
		phrase     string // "" when nothing must be found
		start, end string
	}{
		{"11月3日我们讨论了什么？", "11月3日", "2025-11-03", "2025-11-03"},
		{"2025年11月3日我们讨论了什么", "2025年11月3日", "2025-11-03", "2025-11-03"},
		{"11月3号开会", "11月3号", "2025-11-03", "2025-11-03"},
		{"3日我们讨论了什么", "3日", "2025-11-03", "2025-11-03"},
		{"3号我们讨论了什么？", "3号", "2025-11-03", "2025-11-03"},
		{"25号的会议", "25号", "2025-10-25", "2025-10-25"}, // the latest 25th up to today
		{"3일에 뭐 했어?", "3일", "2025-11-03", "2025-11-03"},
		{"昨天我们讨论了什么", "昨天", "2025-11-19", "2025-11-19"},
		{"今天下午", "今天", "2025-11-20", "2025-11-20"},
		{"明天", "明天", "2025-11-21", "2025-11-21"},
		{"前天", "前天", "2025-11-18", "2025-11-18"},
		{"上周我们讨论了什么", "上周", "2025-11-10", "2025-11-16"},
		{"下个星期", "下个星期", "2025-11-24", "2025-11-30"},
		{"上个月的账单", "上个月", "2025-10-01", "2025-10-31"},
		{"去年", "去年", "2024-01-01", "2024-12-31"},
		{"周三我们见了谁", "周三", "2025-11-19", "2025-11-19"},
		{"星期五", "星期五", "2025-11-14", "2025-11-14"},
		{"昨日は何をしましたか", "昨日", "2025-11-19", "2025-11-19"},
		{"先週の会議", "先週", "2025-11-10", "2025-11-16"},
		{"11月3日に何を話しましたか", "11月3日", "2025-11-03", "2025-11-03"},
		{"水曜日に", "水曜日", "2025-11-19", "2025-11-19"},
		{"어제 회의", "어제", "2025-11-19", "2025-11-19"},
		{"지난주에", "지난주", "2025-11-10", "2025-11-16"},
		{"11월 3일에 무엇을 논의했나요?", "11월 3일", "2025-11-03", "2025-11-03"},
		// Counts and numbers of things, not days.
		{"3日前", "", "", ""},
		{"3日間の出張", "", "", ""},
		{"3号线", "", "", ""},
		{"3号楼", "", "", ""},
		{"3일 전", "", "", ""},
		{"北京天气怎么样", "", "", ""},
	}
	for _, tt := range tests {
		got := Find(tt.text, now)
		if tt.phrase == "" {
			if len(got) > 0 {
				t.Errorf("%q: found %q, want nothing", tt.text, got[0].Text)
			}
			continue
		}
		if len(got) != 1 {
			t.Errorf("%q: %d phrases %v, want %q", tt.text, len(got), got, tt.phrase)
			continue
		}
		p := got[0]
		if p.Text != tt.phrase || p.Range.Start.Format(time.DateOnly) != tt.start || p.Range.End.Format(time.DateOnly) != tt.end {
			t.Errorf("%q: got %q %s..%s, want %q %s..%s", tt.text, p.Text, p.Range.Start.Format(time.DateOnly),
				p.Range.End.Format(time.DateOnly), tt.phrase, tt.start, tt.end)
		}
	}
}
