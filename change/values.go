package change

import (
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode"

	"memoria/datephrase"
	"memoria/lang"
	"memoria/query"
)

// What a statement says its values are, and whether a later statement
// says they changed: shared by update-awareness (a curated fact and a
// later log) and reflect (stale curated lines).

// ShareCurrentValue reports whether the statement names a value the fact
// holds as current: a value of a clause of the fact that does not say it
// is over ("his Emacs config is archived", "the Neubaugasse flat is no
// longer his address" name old values; "switched his editor to Zed" a
// current one).
//
// A measure (an amount of money, a share, a time of day) is what a
// statement that has one is about: a fact that gives another measure of
// the same kind and none of the statement's changes it, whatever else
// the two share ("Rent: £1,150 a month plus VAT" and "Rent on the unit
// is £1,240 a month plus VAT" share "VAT", not the rent).
//
// What a clause names as over is no current value, whatever another
// clause says of it ("accountant: Hollis & Co → Marsh Booth (Hollis
// wanted £1,800 …)" holds Marsh Booth only), as clauseValues reads it.
func ShareCurrentValue(statement, fact string, isName func(string) bool) bool {
	vs := Values(statement, isName)
	current, _ := clauseValues(fact, isName)
	shared := false
	for v := range current {
		if vs[v] {
			shared = true
			break
		}
	}
	if !shared {
		return false
	}
	held, _ := clauseTexts(fact)
	now := strings.Join(held, "; ")
	return !otherMeasure(statement, now) && !otherWeekday(statement, now)
}

// otherWeekday reports whether the fact names days of the week and none
// of those the statement names: a weekly slot moved ("Coffee with Odd,
// Thursdays 11:00" and "Coffee with Odd is on Saturdays at 11:00"),
// whatever time or place the two still share.
func otherWeekday(statement, fact string) bool {
	old, now := weekdaysIn(statement), weekdaysIn(fact)
	if len(old) == 0 || len(now) == 0 {
		return false
	}
	for d := range now {
		if old[d] {
			return false
		}
	}
	return true
}

// weekdaysIn returns the days of the week a text names in full, in the
// singular ("Thursdays": thursday); nil when none.
func weekdaysIn(text string) map[string]bool {
	var out map[string]bool
	for _, w := range SplitWords(text) {
		if w = strings.TrimSuffix(w, "s"); weekdays[w] {
			if out == nil {
				out = map[string]bool{}
			}
			out[w] = true
		}
	}
	return out
}

// otherMeasure reports whether the fact gives a measure (valueKinds) of a
// kind the statement gives too, and none of the statement's of that kind.
func otherMeasure(statement, fact string) bool {
	old, now := valueKinds(statement), valueKinds(fact)
	for kind := range measureKinds {
		had, gives, same := false, false, false
		for v, k := range old {
			if k == kind {
				had = true
				same = same || now[v] == kind
			}
		}
		for _, k := range now {
			gives = gives || k == kind
		}
		if had && gives && !same {
			return true
		}
	}
	return false
}

// measureKinds are the kinds of valueKinds that measure something.
var measureKinds = map[string]bool{kindMoney: true, kindShare: true, kindTime: true}

// clauses separates the clauses of a fact (splitClauses): after one of
// lang.ReplacingWords, what the clause names is over.
var clauses = regexp.MustCompile(`[;.:]\s+|,\s+(?:` + lang.Alternation(lang.FactJoiners) + `)\s+|\s+(?:` + lang.Alternation(lang.ReplacingWords) + `|where)\s+`)

// WithoutDeadlines returns a lower-cased text without the words that make
// a day a deadline rather than an end: "valid until 31 March 2027" and
// "open till 4" say when something will end, not that it did.
func WithoutDeadlines(lower string) string {
	for _, m := range lang.Deadlines {
		lower = strings.ReplaceAll(lower, m+" ", " ")
	}
	return lower
}

// fromToPattern finds "from X to " with X of at most three words.
var fromToPattern = regexp.MustCompile(`(?i)\bfrom\s+(?:\S+\s+){0,2}?\S+\s+to\s`)

// clause is a part of a fact, and whether it says that something is over.
type clause struct {
	text  string
	ended bool
}

// splitClauses cuts a fact into clauses. A clause says something is over
// when it says so itself (endsSomething) or follows "instead of", "rather
// than" or "replacing": "atta comes from Laxmi Chakki instead of Ganesh
// Traders". "From X to Y" ends X, and Y begins a clause of its own.
func splitClauses(fact string) []clause {
	var out []clause
	at, replaced := 0, false
	for _, m := range append(clauses.FindAllStringIndex(fact, -1), []int{len(fact), len(fact)}) {
		text := fact[at:m[0]]
		// "moves from Monday to Tuesday": Monday is over, Tuesday holds.
		if ft := fromToPattern.FindStringIndex(text); ft != nil && !replaced {
			// Who moved holds too: "Joanna Marsh moved from Ridgeway to
			// Bellcote" ends Ridgeway, not Joanna Marsh.
			to := ft[1] - len(" to") - 1 // the space before "to", whatever its case and the space's kind
			if ft[0] > 0 {
				out = append(out, clause{text: text[:ft[0]], ended: endsSomething(text[:ft[0]])})
			}
			out = append(out, clause{text: text[ft[0]:to], ended: true})
			text = text[to+1:] // "to Tuesday": Tuesday is no sentence's first word
		} else if i := leftFromAt(text); i > 0 && !replaced {
			// "Patrice has taken over from Yves": Yves is over, not
			// Patrice.
			out = append(out, clause{text: text[:i], ended: endsSomething(text[:i])}, clause{text: text[i:], ended: true})
			text = ""
		}
		if text != "" || len(out) == 0 {
			out = append(out, clause{text: text, ended: replaced || endsSomething(text)})
		}
		sep := strings.TrimSpace(fact[m[0]:m[1]])
		replaced = slices.Contains(lang.ReplacingWords, sep)
		at = m[1]
	}
	return splitSwaps(out)
}

// arrowPattern finds "X → Y" (also "->"): X is over, Y holds.
var arrowPattern = regexp.MustCompile(`\s*(?:→|->)\s*`)

// replacedAs finds "replaced Y as": Y is over, whoever did the replacing
// and the role hold ("Tom Beckwith replaced Priya as our business
// manager").
var replacedAs = regexp.MustCompile(`(?i)\breplaced\s+(.+?)\s+as\s+`)

// swapPattern finds "swapped X for Y", "replaced X with Y", "traded X for
// Y": X is over and Y holds.
var swapPattern = regexp.MustCompile(`(?i)\b(?:` + lang.Alternation(lang.SwapVerbs) + `)\s+(.+?)\s+(?:for|with)\s+`)

// splitSwaps cuts each clause that swaps one thing for another at the
// swap: the part up to "for"/"with" is over, the rest begins a clause.
func splitSwaps(cs []clause) []clause {
	var out []clause
	for _, c := range cs {
		if m := arrowPattern.FindStringIndex(c.text); m != nil && !c.ended {
			// The old value alone before the arrow is read as after "from",
			// not as a sentence's first word ("Hollis & Co → Marsh Booth").
			was := c.text[:m[0]]
			if len(strings.Fields(was)) <= 4 {
				was = "from " + was
			}
			out = append(out, clause{text: was, ended: true}, clause{text: "to " + c.text[m[1]:], ended: endsSomething(c.text[m[1]:])})
			continue
		}
		if m := replacedAs.FindStringSubmatchIndex(c.text); m != nil && (!c.ended || endedOnlyBy(c, m[0], m[2])) {
			out = append(out, clause{text: c.text[:m[0]], ended: false}, clause{text: c.text[m[0]:m[3]], ended: true}, clause{text: c.text[m[3]:], ended: false})
			continue
		}
		if m := swapPattern.FindStringSubmatchIndex(c.text); m != nil && (!c.ended || endedOnlyBy(c, m[0], m[2])) {
			out = append(out, clause{text: c.text[:m[1]], ended: true}, clause{text: "for " + c.text[m[1]:], ended: endsSomething(c.text[m[1]:])})
			continue
		}
		out = append(out, c)
	}
	return out
}

// endedOnlyBy reports whether a clause says something is over only by
// its words text[i:j], the verb a pattern of splitSwaps reads: "Tom
// Beckwith replaced Priya as our business manager" ends Priya, not the
// whole clause.
func endedOnlyBy(c clause, i, j int) bool {
	return c.ended && endsSomething(c.text) && !endsSomething(c.text[:i]+" "+c.text[j:])
}

// endsSomething reports whether a clause says something is over: it was
// replaced, dropped, archived, is no longer or not.
func endsSomething(clause string) bool {
	l := " " + strings.Map(func(r rune) rune {
		if unicode.IsPunct(r) && r != '\'' && r != '’' {
			return ' '
		}
		return unicode.ToLower(r)
	}, clause) + " "
	l = WithoutDeadlines(l)
	for _, m := range endMarkers {
		if strings.Contains(l, m) {
			return true
		}
	}
	// "moved from Graz" names what ended; "from 2026-08-17", "from next
	// week" say when the value begins.
	for rest := l; ; {
		i := strings.Index(rest, " from ")
		if i < 0 {
			return false
		}
		rest = rest[i+len(" from "):]
		before := strings.Fields(l[:len(l)-len(rest)-len(" from ")])
		next, after, _ := strings.Cut(rest, " ")
		// "from Monday to Tuesday", "from 13:00 to 13:30": a change from
		// the first; "moved from Graz" too, but "comes from Laxmi Chakki"
		// and "a letter from the mill" name no past.
		if fromTo(after) || !startsWhen(next) && slices.ContainsFunc(before, func(w string) bool { return leftFrom[w] }) {
			return true
		}
	}
}

// endMarkers are lang.EndMarkers as endsSomething finds them in a clause
// spaced out: a word between spaces, "n't" at a word's end.
var endMarkers = func() []string {
	out := make([]string, len(lang.EndMarkers))
	for i, m := range lang.EndMarkers {
		if strings.HasPrefix(m, "n'") {
			out[i] = m + " "
		} else {
			out[i] = " " + m + " "
		}
	}
	return out
}()

// leftFromAt returns where "from X" begins in a clause when a word before
// it makes it name what was left ("moved to Linz from Graz", "taken over
// from Yves"), or -1.
func leftFromAt(text string) int {
	l := strings.ToLower(text)
	i := strings.Index(l, " from ")
	if i < 0 || !slices.ContainsFunc(strings.Fields(l[:i]), func(w string) bool { return leftFrom[w] }) {
		return -1
	}
	next, _, _ := strings.Cut(l[i+len(" from "):], " ")
	if startsWhen(next) {
		return -1
	}
	return i + 1
}

// leftFrom are the words that make a later "from X" name what was left
// (lang.LeftFrom).
var leftFrom = lang.WordSet(lang.LeftFrom)

// fromTo reports whether "to" follows within the next three words
// (after "from X").
func fromTo(after string) bool {
	ws := strings.Fields(after)
	return slices.Contains(ws[:min(3, len(ws))], "to")
}

// startsWhen reports whether a word after "from" says when something
// begins: a number, a month or weekday, today, tomorrow, next, now.
func startsWhen(w string) bool {
	if w == "" {
		return false
	}
	return w[0] >= '0' && w[0] <= '9' || calendarWords[w] || startWords[w]
}

// startWords say when something begins (lang.StartWords).
var startWords = lang.WordSet(lang.StartWords)

// ShareValue reports whether two statements name a value in common (see
// Values).
func ShareValue(a, b string, isName func(string) bool) bool {
	va := Values(a, isName)
	for v := range Values(b, isName) {
		if va[v] {
			return true
		}
	}
	return false
}

// Values are the values a statement names, lower-cased: a capitalised
// word past the first that isName does not take for an entity's name, a
// number, or a word with digits ("Lainzer", "88", "X100VI"); days ("October
// 25", "2025-10-25") and month names are left out. isName may be nil.
func Values(text string, isName func(string) bool) map[string]bool {
	out := map[string]bool{}
	for _, t := range valueTokens(text, isName) {
		if t.Value {
			out[t.Word] = true
		}
	}
	return out
}

// rangeMarks spaces out the marks that part two values (valueTokens).
var rangeMarks = strings.NewReplacer("->", " → ", "→", " → ", "–", " – ", "—", " — ")

// valueToken is a word of a text as Values reads it, lower-cased (numbers
// written apart joined into one), and whether it is a value.
type valueToken struct {
	Word  string
	Value bool
}

// valueTokens returns the words of text in order as Values reads them.
func valueTokens(text string, isName func(string) bool) []valueToken {
	// An arrow or a dash between two numbers parts them ("19:00 → 19:15",
	// "19:00–21:30"): a word of its own, where a space would join them
	// into one number (joinNumbers).
	text = rangeMarks.Replace(text)
	ws := strings.FieldsFunc(text, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '-' && r != '.' && r != '/' && r != '+' && r != '@' && r != '_' && r != '→' && r != '–' && r != '—'
	})
	ws = joinNumbers(ws)
	out := make([]valueToken, 0, len(ws))
	for i, w := range ws {
		w = strings.Trim(strings.TrimLeft(w, "@"), ".-/+@_") // "@Peter" is a mention
		if w == "" {
			continue
		}
		out = append(out, valueToken{Word: strings.ToLower(w), Value: isValue(ws, i, w, isName)})
	}
	return out
}

// isValue reports whether w, the trimmed ws[i], is a value (see Values).
func isValue(ws []string, i int, w string, isName func(string) bool) bool {
	r := []rune(w)
	digits := strings.IndexFunc(w, unicode.IsDigit) >= 0
	// An identifier in lower case is a value too: an address or a
	// handle ("kesarcrumb@okaxis"), a name_with_underscores.
	identifier := strings.ContainsAny(w, "@_")
	// A capitalised first word is a value only when the word after it is
	// capitalised too: a name of several words opens the sentence
	// ("Stanningley Recovery have taken over", "Tom Beckwith replaced
	// Priya"), not a verb ("Switched the account").
	opensName := i == 0 && len(ws) > 1 && ws[1] != "" && unicode.IsUpper([]rune(ws[1])[0]) &&
		!strings.HasSuffix(w, "ed") && !strings.HasSuffix(w, "ing") && !strings.HasSuffix(w, "s") // "Switched", "Runs"
	if !digits && !identifier && (i == 0 && !opensName || !unicode.IsUpper(r[0]) || query.IsStopWord(strings.ToLower(w)) || titles[strings.ToLower(w)]) {
		return false // a capitalised function word opens a sentence ("He", "The"); a title names no one ("Dr")
	}
	if !digits && isName != nil && isName(w) {
		return false // an entity's name says who, not what
	}
	if digits && (len(w) <= 2 && calendarDay(ws, i) || isoDate.MatchString(w)) {
		return false // "October 25", "2025-10-25": a day, compared by dates elsewhere
	}
	return digits || !monthNames[strings.ToLower(w)]
}

// titles come before a name (lang.Titles).
var titles = lang.WordSet(lang.Titles)

// isTitle reports whether a lower-cased word is a title before a name
// ("dr", "mrs"): neither a value nor what a statement is about.
func isTitle(w string) bool { return titles[w] }

// fieldValues returns the values of a field's value (what follows its
// label: "Weekly off: Monday."), whose first word may be a value too.
func fieldValues(value string, isName func(string) bool) map[string]bool {
	return Values("- "+value, isName)
}

// joinNumbers makes a run of numbers written apart one value: "+43 660
// 111 2222" is one phone number, which another number sharing its country
// code is not.
func joinNumbers(ws []string) []string {
	isNum := func(w string) bool {
		w = strings.TrimRight(strings.TrimLeft(w, "+"), ".") // "13:00." ends a sentence
		return w != "" && strings.IndexFunc(w, func(r rune) bool { return !unicode.IsDigit(r) }) < 0
	}
	out := ws[:0:0]
	for i := 0; i < len(ws); i++ {
		j := i
		for j+1 < len(ws) && isNum(ws[i]) && isNum(ws[j+1]) {
			j++
		}
		if j > i {
			out = append(out, strings.Join(ws[i:j+1], ""))
			i = j
			continue
		}
		out = append(out, ws[i])
	}
	return out
}

// calendarDay reports whether the number at ws[i] follows or precedes a
// month name.
func calendarDay(ws []string, i int) bool {
	for _, j := range []int{i - 1, i + 1} {
		if j >= 0 && j < len(ws) && monthNames[strings.ToLower(ws[j])] {
			return true
		}
	}
	return false
}

var isoDate = regexp.MustCompile(`^\d{4}-\d{2}(-\d{2})?$`)

// monthNames and weekdays are the names of months (and their short
// forms) and of days of the week, in lower case.
var (
	monthNames = func() map[string]bool {
		m := map[string]bool{}
		for _, n := range lang.Months["en"] {
			m = addWords(m, n.Full, n.Short)
		}
		return m
	}()
	weekdays = func() map[string]bool {
		m := map[string]bool{}
		for _, n := range lang.Weekdays["en"] {
			m = addWords(m, n.Full)
		}
		return m
	}()
)

// addWords adds the words of lists to the set m and returns it.
func addWords(m map[string]bool, lists ...[]string) map[string]bool {
	for _, ws := range lists {
		for _, w := range ws {
			m[w] = true
		}
	}
	return m
}

// AsOf is the day a curated statement (bank/, memory.md: no day written)
// holds as of: the latest day with a year it names ("since 2025-10-25",
// "registered on Oct 27, 2025"), not a deadline ("until 31 March 2026"),
// or the zero time when it names none.
func AsOf(text string) time.Time {
	var t time.Time
	for _, p := range datephrase.Find(text, time.Date(9999, 12, 31, 0, 0, 0, 0, time.UTC)) {
		if !datephrase.HasYear(p.Text) || p.Relation == datephrase.Until {
			continue // "valid until 31 March 2026": a deadline, not when it was true
		}
		d := p.Range.End
		if d.Equal(datephrase.MaxDay) {
			d = p.Range.Start
		}
		if !d.Equal(datephrase.MinDay) && d.After(t) {
			t = d
		}
	}
	return t
}

// clauseValues returns the values (Values) a fact names in its clauses
// that hold (current) and in those that say something is over (ended:
// "instead of Ganesh Traders", "she's finished at Fish Hoek Primary").
func clauseValues(fact string, isName func(string) bool) (current, ended map[string]bool) {
	current, ended = map[string]bool{}, map[string]bool{}
	for _, c := range splitClauses(fact) {
		into := current
		if c.ended {
			into = ended
		}
		for v := range Values(c.text, isName) {
			into[v] = true
		}
	}
	// What a clause names as over is no current value, whatever another
	// clause says of it.
	for v := range ended {
		delete(current, v)
	}
	return current, ended
}

// clauseTexts returns the clauses of a fact that hold (current) and those
// that say something is over (ended), as ShareCurrentValue reads them.
func clauseTexts(fact string) (current, ended []string) {
	for _, c := range splitClauses(fact) {
		if c.ended {
			ended = append(ended, c.text)
		} else {
			current = append(current, c.text)
		}
	}
	return current, ended
}
