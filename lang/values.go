package lang

// The words that tell the kind of a value in a statement: the currencies
// of an amount of money, the suffixes of a time of day and the units that
// number a calendar period. Lower case; package change reads them in any
// case.

// CurrencySymbols mark an amount of money before its number ("£1,240",
// "₹650", "$ 40").
var CurrencySymbols = []string{"$", "€", "£", "₹", "¥"}

// CurrencyCodes mark an amount of money before its number ("Rs. 600",
// "KES 2,500", "EUR 40"): the Indian and Kenyan abbreviations, with or
// without a dot (the longer first), and ISO codes.
var CurrencyCodes = []string{"rs.", "rs", "kes", "ksh.", "ksh", "usd", "eur", "gbp", "inr", "zar"}

// ClockSuffixes follow a time of day, after a clock time ("19:30 hrs",
// "7.15 pm") or an hour ("7pm"). A clock time also takes "h" ("17.30h"),
// which an hour alone does not.
var ClockSuffixes = []string{"am", "pm", "hrs"}

// CalendarUnits are the keys of TimeUnits that number a period of the
// calendar: a number after one ("week 12", "day 3") is a day, not a
// version.
var CalendarUnits = []string{"week", "day", "month", "year"}
