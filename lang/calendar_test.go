package lang

import (
	"slices"
	"strings"
	"testing"
)

// checkWords fails t for a word of table that is not lower case, has
// spaces around it, or comes twice.
func checkWords(t *testing.T, table string, words []string) {
	t.Helper()
	seen := map[string]bool{}
	for _, w := range words {
		switch {
		case w == "" || w != strings.TrimSpace(w):
			t.Errorf("%s: %q has spaces around it", table, w)
		case w != strings.ToLower(w):
			t.Errorf("%s: %q is not lower case", table, w)
		case seen[w]:
			t.Errorf("%s: %q twice", table, w)
		}
		seen[w] = true
	}
}

// names is every name of a language's months or weekdays.
func names(ns []Names) []string {
	var out []string
	for _, n := range ns {
		if len(n.Full) == 0 {
			out = append(out, "") // each has a full name: fails checkWords
		}
		out = append(out, n.Full...)
		out = append(out, n.Short...)
	}
	return out
}

func keyedWords(m map[string][]string) []string {
	var out []string
	for _, ws := range m {
		out = append(out, ws...)
	}
	return out
}

func TestCalendarTables(t *testing.T) {
	for l, ms := range Months {
		checkWords(t, "Months["+l+"]", names(ms[:]))
	}
	for l, ds := range Weekdays {
		checkWords(t, "Weekdays["+l+"]", names(ds[:]))
	}
	checkWords(t, "MonthsAlsoWords", MonthsAlsoWords)
	checkWords(t, "TimeUnits", keyedWords(TimeUnits))
	var numbers []string
	for w := range NumberWords {
		numbers = append(numbers, w)
	}
	checkWords(t, "NumberWords", numbers)
	checkWords(t, "Ordinals", Ordinals)
	checkWords(t, "TimeRelations", keyedWords(TimeRelations))
	checkWords(t, "DateWords", keyedWords(DateWords))
	checkWords(t, "Seasons", slices.Concat(Seasons[:]...))
	checkWords(t, "Holidays", keyedWords(Holidays))
	checkWords(t, "AfterLoneDay", AfterLoneDay)
	checkWords(t, "RelativeTimeWords", RelativeTimeWords)
	checkWords(t, "VagueTimePhrases", VagueTimePhrases)
	var cjk []string
	for w := range CJKDateWords {
		cjk = append(cjk, w)
	}
	for w := range CJKWeekdays {
		cjk = append(cjk, w)
	}
	checkWords(t, "CJKDateWords and CJKWeekdays", cjk)
	checkWords(t, "CJKNotADay", keyedWords(CJKNotADay))

	// A word means one thing among the English words of dates.
	en, enDays := Months["en"], Weekdays["en"]
	english := slices.Concat(names(en[:]), names(enDays[:]), keyedWords(TimeUnits), numbers,
		Ordinals, keyedWords(TimeRelations), keyedWords(DateWords), slices.Concat(Seasons[:]...), keyedWords(Holidays))
	checkWords(t, "the English words of dates", english)

	// Each key of a keyed table is one of its words, but for the names
	// of Holidays.
	for name, m := range map[string]map[string][]string{"TimeUnits": TimeUnits, "TimeRelations": TimeRelations, "DateWords": DateWords} {
		for k, ws := range m {
			if ws[0] != k {
				t.Errorf("%s[%q] begins with %q", name, k, ws[0])
			}
		}
	}
	for _, w := range MonthsAlsoWords {
		if !slices.ContainsFunc(en[:], func(n Names) bool { return slices.Contains(n.Full, w) }) {
			t.Errorf("MonthsAlsoWords: %q is no month", w)
		}
	}
}

func TestCalendarKnownWords(t *testing.T) {
	for _, tt := range []struct {
		table string
		got   bool
	}{
		{"Months en September", slices.Equal(Months["en"][8].Short, []string{"sep", "sept"})},
		{"Months de März", slices.Contains(Months["de"][2].Full, "märz")},
		{"Months ru ноября", slices.Contains(Months["ru"][10].Full, "ноября")},
		{"Months it dicembre", Months["it"][11].Full[0] == "dicembre"},
		{"Weekdays en Sunday first", Weekdays["en"][0].Full[0] == "sunday"},
		{"Weekdays en thurs", slices.Contains(Weekdays["en"][4].Short, "thurs")},
		{"TimeUnits fortnight", slices.Contains(TimeUnits["fortnight"], "fortnights")},
		{"NumberWords couple", NumberWords["couple"] == 2},
		{"Ordinals", Ordinals[1] == "second"},
		{"TimeRelations circa", slices.Contains(TimeRelations["around"], "circa")},
		{"DateWords back", slices.Contains(DateWords["ago"], "back")},
		{"Seasons fall", slices.Contains(Seasons[2], "fall")},
		{"Holidays xmas", slices.Contains(Holidays["christmas"], "xmas")},
		{"Holidays 35 (and New Year)", len(Holidays) == 35},
		{"CJKDateWords 上周", CJKDateWords["上周"] == "last week"},
		{"CJKWeekdays 星期天", CJKWeekdays["星期天"] == "sunday"},
		{"CJKWeekdays 수요일", CJKWeekdays["수요일"] == "wednesday"},
		{"CJKNotADay 前", slices.Contains(CJKNotADay["han"], "前")},
	} {
		if !tt.got {
			t.Errorf("%s: not found", tt.table)
		}
	}
}
