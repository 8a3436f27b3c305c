package lang

// The words of dates: the names of months, weekdays, seasons and named
// days, and the words English date phrases are made of ("last", "ago",
// "fortnight"). package datephrase reads dates with them and gives each
// its part in its grammar; other packages use them to tell a date's words
// from a topic's. All are lower case.

// Names are the words one language has for a month or a weekday.
type Names struct {
	// Full are its full names: several where the language inflects the
	// name (Russian января, январе) or is written with and without its
	// marks (märz, maerz).
	Full []string
	// Short are its abbreviations ("sep", "sept"), leaving out those that
	// are common words of the language (Italian gen, mag, set, ago).
	Short []string
}

// Months are the names of the months, January first, in English ("en")
// and in the other languages whose written dates Memoria reads ("27.
// November 2025", "27 novembre 2025", "27 ноября 2025"): German ("de"),
// French ("fr"), Italian ("it"), Spanish ("es") and Russian ("ru", in
// the nominative, genitive and prepositional cases dates use). A name
// may be the same in two languages (German and English "april").
var Months = map[string][12]Names{
	"en": {
		{Full: []string{"january"}, Short: []string{"jan"}},
		{Full: []string{"february"}, Short: []string{"feb"}},
		{Full: []string{"march"}, Short: []string{"mar"}},
		{Full: []string{"april"}, Short: []string{"apr"}},
		{Full: []string{"may"}},
		{Full: []string{"june"}, Short: []string{"jun"}},
		{Full: []string{"july"}, Short: []string{"jul"}},
		{Full: []string{"august"}, Short: []string{"aug"}},
		{Full: []string{"september"}, Short: []string{"sep", "sept"}},
		{Full: []string{"october"}, Short: []string{"oct"}},
		{Full: []string{"november"}, Short: []string{"nov"}},
		{Full: []string{"december"}, Short: []string{"dec"}},
	},
	"de": {
		{Full: []string{"januar", "jänner"}},
		{Full: []string{"februar"}},
		{Full: []string{"märz", "maerz"}, Short: []string{"mär"}},
		{Full: []string{"april"}},
		{Full: []string{"mai"}},
		{Full: []string{"juni"}},
		{Full: []string{"juli"}},
		{Full: []string{"august"}},
		{Full: []string{"september"}},
		{Full: []string{"oktober"}, Short: []string{"okt"}},
		{Full: []string{"november"}},
		{Full: []string{"dezember"}, Short: []string{"dez"}},
	},
	"fr": {
		{Full: []string{"janvier"}, Short: []string{"janv"}},
		{Full: []string{"février", "fevrier"}, Short: []string{"févr"}},
		{Full: []string{"mars"}},
		{Full: []string{"avril"}, Short: []string{"avr"}},
		{Full: []string{"mai"}},
		{Full: []string{"juin"}},
		{Full: []string{"juillet"}, Short: []string{"juil"}},
		{Full: []string{"août", "aout"}},
		{Full: []string{"septembre"}},
		{Full: []string{"octobre"}},
		{Full: []string{"novembre"}},
		{Full: []string{"décembre", "decembre"}, Short: []string{"déc"}},
	},
	"it": {
		{Full: []string{"gennaio"}},
		{Full: []string{"febbraio"}},
		{Full: []string{"marzo"}},
		{Full: []string{"aprile"}},
		{Full: []string{"maggio"}},
		{Full: []string{"giugno"}, Short: []string{"giu"}},
		{Full: []string{"luglio"}, Short: []string{"lug"}},
		{Full: []string{"agosto"}},
		{Full: []string{"settembre"}},
		{Full: []string{"ottobre"}, Short: []string{"ott"}},
		{Full: []string{"novembre"}},
		{Full: []string{"dicembre"}, Short: []string{"dic"}},
	},
	"es": {
		{Full: []string{"enero"}, Short: []string{"ene"}},
		{Full: []string{"febrero"}},
		{Full: []string{"marzo"}},
		{Full: []string{"abril"}, Short: []string{"abr"}},
		{Full: []string{"mayo"}},
		{Full: []string{"junio"}},
		{Full: []string{"julio"}},
		{Full: []string{"agosto"}},
		{Full: []string{"septiembre"}},
		{Full: []string{"octubre"}},
		{Full: []string{"noviembre"}},
		{Full: []string{"diciembre"}},
	},
	"ru": {
		{Full: []string{"январь", "января", "январе"}, Short: []string{"янв"}},
		{Full: []string{"февраль", "февраля", "феврале"}, Short: []string{"фев"}},
		{Full: []string{"март", "марта", "марте"}},
		{Full: []string{"апрель", "апреля", "апреле"}, Short: []string{"апр"}},
		{Full: []string{"май", "мая", "мае"}},
		{Full: []string{"июнь", "июня", "июне"}, Short: []string{"июн"}},
		{Full: []string{"июль", "июля", "июле"}, Short: []string{"июл"}},
		{Full: []string{"август", "августа", "августе"}, Short: []string{"авг"}},
		{Full: []string{"сентябрь", "сентября", "сентябре"}, Short: []string{"сен"}},
		{Full: []string{"октябрь", "октября", "октябре"}, Short: []string{"окт"}},
		{Full: []string{"ноябрь", "ноября", "ноябре"}, Short: []string{"ноя"}},
		{Full: []string{"декабрь", "декабря", "декабре"}, Short: []string{"дек"}},
	},
}

// MonthsAlsoWords are the English month names that are ordinary words
// too ("may", "march"): they name a month only next to a day or a year.
var MonthsAlsoWords = []string{"march", "may"}

// Weekdays are the names of the days of the week in English ("en"),
// Sunday first, as Go's time.Weekday counts them.
var Weekdays = map[string][7]Names{
	"en": {
		{Full: []string{"sunday"}, Short: []string{"sun"}},
		{Full: []string{"monday"}, Short: []string{"mon"}},
		{Full: []string{"tuesday"}, Short: []string{"tue", "tues"}},
		{Full: []string{"wednesday"}, Short: []string{"wed"}},
		{Full: []string{"thursday"}, Short: []string{"thu", "thur", "thurs"}},
		{Full: []string{"friday"}, Short: []string{"fri"}},
		{Full: []string{"saturday"}, Short: []string{"sat"}},
	},
}

// TimeUnits are the English words for units of time in date phrases
// ("3 weeks ago", "last fortnight"), keyed by the unit: its singular, its
// plural, then its short forms.
var TimeUnits = map[string][]string{
	"minute":    {"minute", "minutes", "min", "mins"},
	"hour":      {"hour", "hours", "hr", "hrs"},
	"day":       {"day", "days"},
	"week":      {"week", "weeks", "wk", "wks"},
	"month":     {"month", "months"},
	"year":      {"year", "years", "yr", "yrs"},
	"weekend":   {"weekend", "weekends"},
	"fortnight": {"fortnight", "fortnights"},
}

// NumberWords are the English words that count units in date phrases
// ("two weeks ago", "a couple of days", "a few months back"), with the
// number each stands for: a vague count is a small one (few and several
// are 3).
var NumberWords = map[string]int{
	"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
	"seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
	"couple": 2, "few": 3, "several": 3,
}

// Ordinals are the English ordinal words of the parts of a month or a
// period ("the second week of May", "the first half of 2024"), first
// first.
var Ordinals = []string{"first", "second", "third", "fourth"}

// TimeRelations are the English words that relate a time to what a
// sentence says of it ("since May", "until Friday", "around Easter"),
// keyed by the relation: the word itself, then the words that mean the
// same ("during" as "in", "circa" as "around"). "prior" is the first
// word of "prior to".
var TimeRelations = map[string][]string{
	"on":      {"on", "at"},
	"in":      {"in", "during", "throughout"},
	"over":    {"over", "within"},
	"since":   {"since"},
	"before":  {"before"},
	"until":   {"until", "till", "til"},
	"after":   {"after"},
	"around":  {"around", "circa", "approximately", "approx"},
	"from":    {"from"},
	"between": {"between"},
	"prior":   {"prior"},
}

// DateWords are the other English words date phrases are built of
// ("the week before last", "early 2024", "the end of May", "two weeks
// back"), keyed by what they say: the word itself, then the words that
// say the same ("back" as "ago", "through" as "to"). "de" is the "of"
// of Spanish dates ("5 de mayo de 2025"); "new" and "eve" are words of
// New Year and Christmas Eve.
var DateWords = map[string][]string{
	"the":       {"the"},
	"last":      {"last"},
	"past":      {"past"},
	"this":      {"this"},
	"next":      {"next"},
	"ago":       {"ago", "back"},
	"today":     {"today"},
	"yesterday": {"yesterday"},
	"tomorrow":  {"tomorrow"},
	"recently":  {"recently", "lately"},
	"and":       {"and"},
	"to":        {"to", "through", "thru"},
	"of":        {"of", "de"},
	"early":     {"early"},
	"mid":       {"mid"},
	"late":      {"late"},
	"earlier":   {"earlier"},
	"morning":   {"morning", "afternoon", "evening"},
	"night":     {"night"},
	"tonight":   {"tonight"},
	"new":       {"new"},
	"eve":       {"eve"},
	"start":     {"start", "beginning"},
	"end":       {"end"},
	"half":      {"half"},
}

// Seasons are the English names of the seasons, spring first: spring,
// summer, autumn (or fall), winter.
var Seasons = [4][]string{{"spring"}, {"summer"}, {"autumn", "fall"}, {"winter"}}

// Holidays are the days and periods of the year that people name instead
// of a date ("over Easter", "after Christmas", "on Anzac Day"), keyed by
// their English name: the words of the name that tell which day it is,
// with its other spellings (xmas, whitsun, armistice, paddy). The rest
// of a name is a weekday ("good" of Good Friday), "day" ("boxing" of
// Boxing Day), a possessive or "St", read as such. New Year is "new"
// and "year" (DateWords, TimeUnits).
var Holidays = map[string][]string{
	"easter":           {"easter"},
	"christmas":        {"christmas", "xmas"},
	"halloween":        {"halloween"},
	"valentine's day":  {"valentine", "valentines"},
	"thanksgiving":     {"thanksgiving"},
	"pentecost":        {"pentecost", "whitsun", "whitsunday"},
	"good friday":      {"good"},
	"maundy thursday":  {"maundy"},
	"holy saturday":    {"holy"},
	"palm sunday":      {"palm"},
	"ash wednesday":    {"ash"},
	"whit monday":      {"whit"},
	"black friday":     {"black"},
	"cyber monday":     {"cyber"},
	"boxing day":       {"boxing"},
	"independence day": {"independence"},
	"memorial day":     {"memorial"},
	"labor day":        {"labor"},
	"liberty day":      {"liberty"},
	"anzac day":        {"anzac"},
	"australia day":    {"australia"},
	"canada day":       {"canada"},
	"bastille day":     {"bastille"},
	"waitangi day":     {"waitangi"},
	"remembrance day":  {"remembrance", "armistice"},
	"king's day":       {"king", "kings"},
	"st patrick's day": {"patrick", "paddy"},
	"st stephen's day": {"stephen"},
	"st andrew's day":  {"andrew"},
	"st david's day":   {"david"},
	"st george's day":  {"george"},
	"madaraka day":     {"madaraka"},
	"mashujaa day":     {"mashujaa"},
	"jamhuri day":      {"jamhuri"},
	"assumption day":   {"assumption"},
}

// AfterLoneDay are the English words, other than DateWords and
// TimeRelations, that may follow a day of the month said alone: "on the
// 3rd we…", "on the 3rd, when…"; other words make it no day ("the 3rd
// floor", "the 2nd time").
var AfterLoneDay = []string{"when", "we", "i", "you", "he", "she", "they", "it", "there", "did", "was", "were", "had", "or", "for", "with"}

// RelativeTimeWords are the English words, or their beginnings
// ("recent"), that make a date phrase relative to the day it is said
// ("last Tuesday", "two weeks ago"): such a phrase is not re-read as a
// day to come.
var RelativeTimeWords = []string{"ago", "last", "past", "previous", "next", "this", "yesterday", "today", "tomorrow", "recent"}

// VagueTimePhrases are the English date phrases that name no definite
// time, only a sense of recency.
var VagueTimePhrases = []string{"recently", "lately", "most recently", "more recently"}
