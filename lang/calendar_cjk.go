package lang

// CJKDateWords are the relative date words of Chinese, Japanese and
// Korean, with the English date phrase each stands for ("上周" is "last
// week"). Japanese writes 今日, 昨日, 明日, 今年, 去年, 最近 and 週末 as
// Chinese does.
var CJKDateWords = map[string]string{
	// Chinese
	"今天": "today", "昨天": "yesterday", "明天": "tomorrow",
	"前天": "the day before yesterday", "后天": "the day after tomorrow", "後天": "the day after tomorrow",
	"上周": "last week", "上週": "last week", "上个星期": "last week", "上個星期": "last week", "上星期": "last week", "上个礼拜": "last week", "上礼拜": "last week",
	"本周": "this week", "这周": "this week", "這週": "this week", "这个星期": "this week", "這個星期": "this week", "这星期": "this week",
	"下周": "next week", "下週": "next week", "下个星期": "next week", "下個星期": "next week", "下星期": "next week",
	"上个月": "last month", "上個月": "last month", "上月": "last month",
	"这个月": "this month", "這個月": "this month", "本月": "this month",
	"下个月": "next month", "下個月": "next month", "下月": "next month",
	"去年": "last year", "今年": "this year", "明年": "next year",
	"最近": "recently", "近来": "recently", "近來": "recently",
	"周末": "the weekend", "週末": "the weekend",
	// Japanese
	"今日": "today", "昨日": "yesterday", "明日": "tomorrow", "一昨日": "the day before yesterday", "明後日": "the day after tomorrow",
	"先週": "last week", "今週": "this week", "来週": "next week", "來週": "next week",
	"先月": "last month", "今月": "this month", "来月": "next month",
	"昨年": "last year", "来年": "next year",
	// Korean
	"오늘": "today", "어제": "yesterday", "내일": "tomorrow", "그저께": "the day before yesterday", "모레": "the day after tomorrow",
	"지난주": "last week", "지난 주": "last week", "이번 주": "this week", "이번주": "this week", "다음 주": "next week", "다음주": "next week",
	"지난달": "last month", "지난 달": "last month", "이번 달": "this month", "이번달": "this month", "다음 달": "next month", "다음달": "next month",
	"작년": "last year", "올해": "this year", "내년": "next year", "최근": "recently", "주말": "the weekend",
}

// CJKWeekdays are the weekday names of Chinese (星期一, 周一, 礼拜一; 日 or
// 天 for Sunday), Japanese (月曜日, 月曜) and Korean (월요일), with the
// English name of each.
var CJKWeekdays = func() map[string]string {
	m := map[string]string{}
	var names [7]string
	for i, n := range Weekdays["en"] {
		names[i] = n.Full[0]
	}
	prefixes := []string{"星期", "周", "週", "礼拜", "禮拜"}
	for i, d := range []string{"日", "一", "二", "三", "四", "五", "六"} {
		for _, p := range prefixes {
			m[p+d] = names[i]
		}
	}
	for _, p := range prefixes {
		m[p+"天"] = names[0]
	}
	for i, d := range []string{"日", "月", "火", "水", "木", "金", "土"} {
		m[d+"曜日"] = names[i]
		m[d+"曜"] = names[i]
	}
	for i, d := range []string{"일", "월", "화", "수", "목", "금", "토"} {
		m[d+"요일"] = names[i]
	}
	return m
}()

// CJKNotADay are the words that, after a number and the day sign (日, 号,
// 일), make it no day of the month: a count of days (3日前 "3 days ago",
// 3日間, 3일 전, 3일 동안) or the number of a thing (3号线 "line 3", 3号楼
// "building 3"). "han" are those of Chinese and Japanese, which follow
// the sign directly; "hangul" those of Korean, which may follow a space.
var CJKNotADay = map[string][]string{
	"han":    {"前", "后", "後", "间", "間", "内", "以", "来", "線", "线", "楼", "樓", "门", "門", "房", "机", "機", "位", "车", "車", "院", "厅", "床", "桌", "店", "馆", "館", "口", "目", "分"},
	"hangul": {"전", "후", "동안", "간", "이내"},
}
