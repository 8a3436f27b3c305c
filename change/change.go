package change

import (
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"memoria/lang"
	"memoria/memory"
	"memoria/query"
)

// Changes said in prose. Most changes people note in a daily log are not
// typed facts: "Switched the club's chandlery account to Albatross Marine
// today", "We've moved the dogs to Clutha Vets in Alexandra", "From next
// month the Saturday race starts at 13:30". This file reads such a
// sentence (Read) and tells whether it outdates a curated statement
// (Statement): reflect marks the statements it outdates (reflect/prose.go),
// and recall takes the sentence for the statement's successor.
//
// A sentence says a change when it holds a change word ("switched",
// "moved to", "instead of", "is now", "from next month", "goes up to",
// "took over", "stepped down", "renewed", "is the new", …) in a clause
// that is no plan, guess or passing exception ("may move", "proposes",
// "this week only") and not what stays as it was ("we'll keep ordering
// from…"). It outdates a statement when it is tied to it (Statement.Tie:
// by the statement's head words, or values it says are over, or, for the
// caller to judge, an entity both name) and gives another value of the
// same kind (Statement.Outdated), or says that what the statement says
// ended (Statement.Ended).

// A Change is a sentence that says a value changed, read once.
type Change struct {
	Said  string          // its clauses that say how things are now
	words []string        // content words (Sig.Words)
	topic []string        // those that are no values (aboutWords)
	parts [][]string      // the content words of each of its clauses
	over  [][]string      // the aboutWords of each clause that says something is over
	ends  []bool          // for each of over: whether it says someone or something stopped (endingWords)
	ended map[string]bool // the values it says are over

	saying *string // Saying, once asked
}

// Saying returns those of the clauses of Said that say the change itself
// (settledText joined them with "; "). It is read on first use (by a
// change tied to a statement by an entity only) and kept: a Change is not
// for concurrent use.
func (c *Change) Saying() string {
	if c.saying == nil {
		var out []string
		for _, part := range strings.Split(c.Said, "; ") {
			if Says(part) {
				out = append(out, part)
			}
		}
		s := strings.Join(out, "; ")
		c.saying = &s
	}
	return *c.saying
}

// Read reads a sentence that says a change, with isName telling the
// names of known entities (nil: none), or returns nil when it says none
// that is settled.
func Read(sentence string, isName func(string) bool) *Change {
	said := settledText(sentence)
	if said == "" {
		return nil
	}
	_, ended := clauseValues(said, isName)
	c := &Change{Said: said, words: signature(memory.Item{Kind: memory.KindWorld, Content: said}).words, topic: aboutWords(said), ended: ended}
	for _, cl := range splitClauses(said) {
		c.parts = append(c.parts, signature(memory.Item{Kind: memory.KindWorld, Content: cl.text}).words)
		if cl.ended {
			c.over = append(c.over, aboutWords(cl.text))
			c.ends = append(c.ends, endingWords.MatchString(cl.text))
		}
	}
	return c
}

// Unchanged reports whether a text says that something stays as it was
// ("stays at ₹600", "still", "the same"; in lower case).
func Unchanged(text string) bool { return unchanged.MatchString(text) }

// Before reports whether the change names a year before day's ("until
// Françoise took over in 2022"): it tells history, not a change since.
func (c *Change) Before(day time.Time) bool {
	for _, m := range yearPattern.FindAllStringSubmatch(c.Said, -1) {
		if y, err := strconv.Atoi(m[1]); err == nil && y < day.Year() {
			return true
		}
	}
	return false
}

// yearPattern finds a year said as a time ("in 2022", "since 2019"), not
// as a model's ("a 2004 J/22").
var yearPattern = regexp.MustCompile(`(?i)\b(?:` + lang.Alternation(lang.YearPrepositions) + `)\s+((?:19|20)\d\d)\b`)

// Ends reports whether a sentence says that someone or something stopped
// being what it was ("stepped down", "left", "no longer").
func Ends(text string) bool { return endingWords.MatchString(text) }

// changeGrammar reads the English phrases of change that a list of
// words cannot say: a word of time or a value after "from" ("from next
// month", "starting 3 March"), "now" after a verb or at a clause's end
// ("is now", "Zed is his editor now"), "the new … is", "replaced … as",
// "stopped …ing" (not "the head shaking has stopped"), "we've moved",
// "took over",
// "started as the …", "went up", "we're with …"; in lower case (Says).
// The words it alternates are lang's (lang/grammar.go: the forms of
// "be", "have", "go" and "take over", the possessives …); the pattern
// holds the constructions and their fixed words.
var changeGrammar = regexp.MustCompile(`\b((from|starting) (` + lang.Alternation(lang.ChangeStarts) + `|(` + lang.Alternation(weekdayNames) + `)([^'’\w]|$)|\d{1,2}(` + lang.Alternation(lang.OrdinalSuffixes) + `)? (` + lang.Alternation(monthStems) + `)|\d{4}-\d\d-\d\d)|(` + lang.Alternation(lang.GoForms) + `) (up|down)\b|from (` + lang.Alternation(fullMonthNames) + `)\b|the new (\w+ ){1,3}(is|are)|replaced \w+( \w+)? as|stopped \w+ing\b|(` + lang.Alternation(lang.Have) + `) moved|(` + lang.Alternation(beForms) + `) (up|down) to|now:|(` + lang.Alternation(lang.TakeOver) + `)|(` + lang.Alternation(lang.StartVerbs) + `) (us )?as (` + lang.Alternation(ownerWords) + `|a|an) |extended (` + lang.Alternation(lang.ExtendedUntil) + `)|changed (` + lang.Alternation(lang.ChangedObjects) + `)\b|(` + lang.Alternation(beForms) + `) now|(` + lang.Alternation(lang.Be) + `) (` + lang.Alternation(ownerWords) + `) new|handed (the \w+ )?back|(` + lang.Alternation(lang.WeAre) + `) with|now[.;,!]|now$|now (` + lang.Alternation(lang.StateVerbs) + `|is|are)\b)`)

// beForms are the present forms of "be" after any subject or a pronoun;
// ownerWords are "the" and the possessives of persons ("the new", "our
// new").
var (
	beForms    = slices.Concat(lang.Be, lang.BeAfterPronoun)
	ownerWords = slices.Concat([]string{"the"}, lang.PersonalPossessives)
)

// fullMonthNames, monthStems and weekdayNames are the English names of
// the months, their first three letters ("from 3 Mar", "from 3rd
// March") and the names of the days of the week, for changeWords.
var fullMonthNames, monthStems, weekdayNames = func() (full, stems, days []string) {
	for _, m := range lang.Months["en"] {
		full = append(full, m.Full[0])
		stems = append(stems, m.Full[0][:3])
	}
	for _, d := range lang.Weekdays["en"] {
		days = append(days, d.Full[0])
	}
	return full, stems, days
}()

// notSettled marks a sentence that does not say how things are now: a
// plan, a guess, a question, an exception for a while, or what stays as
// it was ("we'll keep ordering from Sadashiv kaka"; in lower case, which
// "Haere Mai Stays" and "4 May" are not). It is read clause by clause
// (settledText).
var notSettled = regexp.MustCompile(`(?i)(\?|\b(` + lang.Alternation(lang.NotSettled) + `)\b)|(?-i:\bmay\b|` + unchanged.String() + `)`)

// unchanged marks what stays as it was ("stays at ₹600", "still", "the
// same"); in lower case, which "Haere Mai Stays" is not.
var unchanged = regexp.MustCompile(`\b(` + lang.Alternation(lang.Unchanged) + `)\b`)

// settledText returns the clauses of a sentence that say how things are
// now (notSettled), when one of them says a change, else "": of
// "Imogen stepped down as secretary; she'll still coach the novices", the
// first; of "Santosh may move back to Satara", nothing. A plan or a guess
// as a whole ("If the council agrees, …") or a question says none.
func settledText(sentence string) string {
	if !Says(sentence) || strings.Contains(sentence, "?") || modalSentence.MatchString(sentence) {
		return "" // most sentences say no change: that test first
	}
	var parts []string
	change := false
	for _, part := range sentenceParts.Split(sentence, -1) {
		if notSettled.MatchString(part) {
			continue
		}
		parts = append(parts, part)
		change = change || Says(part)
	}
	if !change {
		return ""
	}
	return strings.Join(parts, "; ")
}

// sentenceParts separates the clauses of a sentence, for settledText.
var sentenceParts = regexp.MustCompile(`;\s+|,\s+(?:` + lang.Alternation(lang.SentenceJoiners) + `)\s+|\s+but\s+|,?\s+because\s+`)

// modalSentence marks a sentence that is a plan or a guess as a whole,
// whichever clause says it ("If the council agrees, recycling moves to
// Thursdays").
var modalSentence = regexp.MustCompile(`(?i)^(` + lang.Alternation(lang.ModalOpeners) + `)\b`)

// saysByGrammar reports whether a lower-cased text says a change as
// changeGrammar reads it.
func saysByGrammar(l string) bool {
	// The regular expression is slow, and most sentences hold none of
	// its words: a quick look first.
	if strings.HasSuffix(l, "now") {
		return changeGrammar.MatchString(l)
	}
	for _, w := range changeAnchors {
		if strings.Contains(l, w) {
			return changeGrammar.MatchString(l) // lower case: no (?i), which costs
		}
	}
	return false
}

// changeAnchors are parts of changeGrammar, one of which each of its
// matches holds: the regular expression runs only on a sentence holding
// one, which few do. They are the fixed words of its constructions and
// the words of lang's tables it is built of.
var changeAnchors = func() []string {
	as := []string{"replaced ", "stopped ", "moved", "extended ", "changed ", "handed", "re with", "are with", "the new", "now:"}
	as = append(as, lang.TakeOver...)
	for _, v := range lang.StartVerbs {
		as = append(as, v+" as", v+" us as") // "started as", "joined us as"
	}
	for _, m := range monthStems {
		as = append(as, "from "+m)
	}
	for _, v := range slices.Concat(lang.GoForms, beForms) {
		as = append(as, v+" up", v+" down") // "went up", "we're down to"
	}
	starts := slices.Concat(lang.ChangeStarts, []string{"1", "2", "3", "4", "5", "6", "7", "8", "9", "0"})
	for _, d := range weekdayNames {
		starts = append(starts, d[:3])
	}
	for _, w := range starts {
		as = append(as, "from "+w, "starting "+w)
	}
	for _, w := range beForms {
		as = append(as, w+" now")
		for _, d := range ownerWords {
			as = append(as, w+" "+d+" new")
		}
	}
	for _, w := range slices.Concat(lang.StateVerbs, []string{"is", "are"}) {
		as = append(as, "now "+w)
	}
	return append(as, "now.", "now;", "now,", "now!")
}()

// aboutWords are a text's content words (as Sig.Words has them)
// that are no values, titles or relation words: what it is about, not
// what it says it is.
func aboutWords(text string) []string {
	var out []string
	for _, t := range valueTokens(text, nil) {
		if t.Value || isTitle(t.Word) || relationWords[t.Word] || strings.IndexFunc(t.Word, unicode.IsDigit) >= 0 {
			continue
		}
		if w := contentForm(t.Word); w != "" && !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return out
}

// parenthetical is an aside in parentheses, no clause of its own
// ("(manyglm, negative binomial)").
var parenthetical = regexp.MustCompile(`\([^()]*\)`)

// clauseSep separates the clauses of a curated statement ("Saturday club
// race, first gun 13:00").
var clauseSep = regexp.MustCompile(`[;,]\s+`)

// relationWords relate a statement to a time or a rate; they say nothing
// of what it is about ("Club treasurer since 2021").
var relationWords = lang.WordSet(lang.RelationWords)

// A Statement is a curated statement, read once, that changes are
// compared with.
type Statement struct {
	// Page says the statement is a line of an entity's page: a change
	// that names another entity is then that entity's business ("Switched
	// the club's chandlery account…" and, on the old supplier's page,
	// "Chandlery on Main Road").
	Page        bool
	text, value string
	field       bool            // value follows a label ("Vet: …")
	words       []string        // content words (Sig.Words)
	topic       []string        // aboutWords of text, without a name it opens with
	clauses     [][]string      // topic, then that of each of its clauses (clauseSep), if several
	clauseText  []string        // value, then the text of each of those clauses
	label       []string        // aboutWords of its label, for a field
	values      map[string]bool // Values of value
	isName      func(string) bool
}

// NewStatement reads a curated statement; isName tells the names of known
// entities.
func NewStatement(text string, isName func(string) bool) *Statement {
	s := &Statement{text: text, value: text, isName: isName}
	if label, value, ok := Labelled(text); ok {
		s.value, s.field, s.label = value, true, aboutWords(label)
	}
	s.words = signature(memory.Item{Kind: memory.KindWorld, Content: text}).words
	s.topic, s.values = aboutWords(text), Values(s.value, isName)
	// A name the statement opens with says whom it is about, not what
	// ("Thabo Mahlangu — helps Chantal with the juniors"): a full name, or
	// an entity's.
	withoutName := func(topic []string) []string { return topic }
	if opening := leadingName(text); len(opening) >= 2 || len(opening) == 1 && isName != nil && isName(opening[0]) {
		withoutName = func(topic []string) []string {
			return slices.DeleteFunc(topic, func(w string) bool {
				return slices.ContainsFunc(opening, func(o string) bool { return o == w || contentForm(o) == w })
			})
		}
	}
	s.topic = withoutName(s.topic)
	s.clauses, s.clauseText = [][]string{s.topic}, []string{s.value}
	if parts := clauseSep.Split(parenthetical.ReplaceAllString(text, ""), -1); len(parts) > 1 {
		for i, p := range parts {
			topic := aboutWords(p)
			if i == 0 {
				topic = withoutName(topic) // the clause the name opens
			}
			s.clauses = append(s.clauses, topic)
			s.clauseText = append(s.clauseText, p)
		}
	}
	return s
}

// Field splits a statement that opens with a label of at most three
// words and a colon ("Vet: Dr Fiona McLeod, Te Arawhiti Vet Clinic.",
// "UPI ID: kesarcrumb@okaxis"): a field of the page it is on, whose value
// is what follows the label.
func Field(text string) (label, value string, ok bool) {
	label, value, ok = strings.Cut(text, ": ")
	if !ok || label == "" || len(strings.Fields(label)) > 3 || strings.ContainsAny(label, ".;!?") || strings.HasPrefix(label, "@") {
		return "", "", false
	}
	return label, value, true
}

// Labelled splits a statement that names an attribute and its value:
// a field (Field), or a role said to be a name or a number ("Our
// accompanist is Bernard Côté (piano).", "Main parts supplier is Ridings
// Motor Factors", "Rehearsals are Tuesday evenings."): the subject, of at
// most three words in lower case after a determiner, is the label, and
// what follows "is" the value. A predicate in lower case ("is ordered
// from …", "is a white van") is no value of a label.
func Labelled(text string) (label, value string, ok bool) {
	if label, value, ok = Field(text); ok {
		return label, value, ok
	}
	m := roleIs.FindStringSubmatchIndex(text)
	if m == nil {
		return "", "", false
	}
	label, value = text[m[2]:m[3]], text[m[4]:]
	for i, w := range strings.Fields(label) {
		if i > 0 && unicode.IsUpper([]rune(w)[0]) || query.IsStopWord(strings.ToLower(w)) {
			return "", "", false // a name ("Peter Brandt is …") or "It is", "That is"
		}
	}
	if r := []rune(value); !unicode.IsUpper(r[0]) && !unicode.IsDigit(r[0]) && r[0] != '@' {
		return "", "", false
	}
	if strings.HasPrefix(value, "The ") || strings.HasPrefix(value, "A ") {
		return "", "", false
	}
	return label, value, true
}

// roleIs finds "[the|our|…] role is|are Value" (Labelled).
var roleIs = regexp.MustCompile(`^(?:(?i:` + lang.Alternation(ownerWords) + `|its)\s+)?([\p{L}][\p{L}'’-]*(?:\s+[\p{L}][\p{L}'’-]*){0,2})\s+(?:is|are)\s+([^\s])`)

// leadingName returns the lower-cased words of the run of capitalised
// words a statement opens with, up to the first punctuation ("Thabo
// Mahlangu" of "Thabo Mahlangu — helps…", "Lisbon" of "Lisbon, Oct 14").
func leadingName(text string) []string {
	var out []string
	for _, w := range strings.Fields(text) {
		t := strings.TrimRight(w, ",.;:()\"'’")
		if t == "" || !unicode.IsUpper([]rune(t)[0]) {
			break
		}
		out = append(out, strings.ToLower(t))
		if len(t) < len(w) {
			break
		}
	}
	return out
}

// A Tie is how a change is tied to a statement.
type Tie int

const (
	Untied    Tie = iota
	TieEntity     // an entity both name: the caller judges the attribute
	TieHead       // the statement's head words
	TieEnded      // values of the statement the change says are over
)

// Tie reports how a change is tied to the statement, if it is, given the
// entities each names (keys the change names, ents the statement is
// about; subject keys among them count for neither), with the words that
// tie it by its head and what gives the values it must change (its
// value, or a clause's: Outdated).
func (s *Statement) Tie(c *Change, keys, ents []string) (t Tie, head []string, value string) {
	// On an entity's page, a sentence about another entity than the
	// statement's is no change of it, whatever words they share (Page).
	about := !s.Page || len(keys) == 0 || !slices.ContainsFunc(ents, func(e string) bool { return !IsSubjectKey(e) })
	for _, k := range keys {
		if slices.Contains(ents, k) {
			about = true
		}
	}
	if !about {
		return Untied, nil, ""
	}
	if head, value := s.head(c); len(head) > 0 {
		return TieHead, head, value
	}
	// Values said to be over tie when the sentence is about what the
	// statement is about: an entity both name besides the values ("Chantal
	// … so she's finished at Fish Hoek Primary" on Chantal's page), or the
	// word the statement opens with; and when they are several, or share a
	// word besides them. A weekday alone is no value over: many things
	// happen on Thursdays. "Whole wheat atta comes from Laxmi Chakki
	// instead of Ganesh Traders" says nothing of "Butter, sugar and maida
	// come from Ganesh Traders".
	n := 0
	for w := range s.values {
		if c.ended[w] && !weekdays[w] {
			n++
		}
	}
	if s.plainOver(c) {
		return TieEnded, nil, s.value // "Paid by: cheque …" and "No more cheques …"
	}
	// A field's label names its subject: "Stanningley Recovery have taken
	// over from Swift" is about "Recovery firm: Swift Recovery, …".
	labelled := len(shared(s.label, c.words)) > 0
	if n > 0 && (n >= 2 || len(shared(s.topic, c.topic)) > 0 || labelled) {
		// Several values over that name no known entity are the thing
		// itself ("we swapped Assurances Beaulieu for the Mutuelle des
		// Arts"); otherwise the sentence must be about the statement's
		// subject too.
		subject := n >= 2 && !s.namesOver(c) || len(s.topic) > 0 && slices.Contains(c.topic, s.topic[0]) || labelled
		for _, k := range keys {
			if slices.Contains(ents, k) && !slices.ContainsFunc(strings.Fields(strings.ToLower(memory.EntityName(k))), func(w string) bool { return c.ended[w] }) {
				subject = true
			}
		}
		if subject {
			return TieEnded, nil, s.value
		}
	}
	for _, k := range keys {
		if slices.Contains(ents, k) {
			return TieEntity, nil, s.value
		}
	}
	return Untied, nil, ""
}

// plainOver reports whether the statement is a field whose value is a
// plain word ("Paid by: cheque on the first of the month") that the
// change says is over ("No more cheques for the tutor").
func (s *Statement) plainOver(c *Change) bool {
	if !s.field || len(s.values) > 0 || s.namedLabel() {
		return false
	}
	_, ok := c.saysOver(s.value)
	return ok
}

// saysOver returns the first word of a value, in lower case, when the
// change says it is over (a clause that says something is over holds it).
func (c *Change) saysOver(value string) (string, bool) {
	ws := strings.Fields(value)
	if len(ws) == 0 {
		return "", false
	}
	w := strings.ToLower(strings.Trim(ws[0], ",.;:()"))
	form := contentForm(w)
	return w, form != "" && slices.ContainsFunc(c.over, func(words []string) bool { return slices.Contains(words, form) })
}

// NewValueOfKind reports whether a fact names, in a clause that holds, a
// value the statement does not, of a kind the statement's values have (a
// name for a name, money for money, …), entities' names included: a fact
// about the same attribute gives it another value of its own kind.
func NewValueOfKind(statement, fact string) bool {
	old := Values(statement, nil)
	kinds := map[string]bool{}
	oldKinds := valueKinds(statement)
	for v := range old {
		kinds[kindOf(v, oldKinds)] = true
	}
	// An aside says nothing of what holds: "lives in the cottage at Kōwhai
	// Ridge (the old shearers' cottage …)" is no "old" value.
	fact = parenthetical.ReplaceAllString(fact, "")
	current, _ := clauseValues(fact, nil)
	factKinds := valueKinds(fact)
	for v := range current {
		if !old[v] && kinds[kindOf(v, factKinds)] {
			return true
		}
	}
	return false
}

// commonStem reports whether two words share a stem of six letters or
// more, most of the shorter ("distributor", "distribution").
func commonStem(a, b string) bool {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n >= 6 && 4*n >= 3*min(len(a), len(b))
}

// sameCue returns the words of a change that name the attribute a word
// of label names (attributeCues: "rent" and "price", "phone" and
// "mobile").
func sameCue(label, words []string) []string {
	var out []string
	for _, l := range label {
		c, ok := attributeCues[l]
		if !ok {
			continue
		}
		for _, w := range words {
			if attributeCues[w] == c && !slices.Contains(out, w) {
				out = append(out, w)
			}
		}
	}
	return out
}

// inOneClause reports whether two of words come in one clause of the
// change: "Our business manager is Tom Beckwith now; Priya Sethi moved to
// the Harrogate branch" says nothing of a "business … branch".
func (c *Change) inOneClause(words []string) bool {
	for _, p := range c.parts {
		if len(shared(words, p)) >= 2 {
			return true
		}
	}
	return false
}

// namesOver reports whether a value the change says is over is a word of
// a known entity's name ("instead of Ganesh Traders"): the entity may
// well do other things still.
func (s *Statement) namesOver(c *Change) bool {
	if s.isName == nil {
		return false
	}
	for w := range s.values {
		if c.ended[w] && s.isName(w) {
			return true
		}
	}
	return false
}

// head returns the words that tie the statement to a sentence by what it
// is about: every word of its label ("Vet: …", which the sentence may say
// in a value: "Clutha Vets"), or two or more and half of them ("Saturday
// club race: …" and "the Saturday race starts at 13:30"); or the topic
// words both share when they are two or more and at least half of those
// of the statement, or of a clause of it ("Maximum 12 kids per junior
// session" and "Junior cap goes up to 16 kids a session"); or the whole
// statement's only topic word ("Bookings through StayLocal NZ"). Else
// nil. It returns too what gives the values the sentence must change: the
// statement's, or those of the clause that ties it (a clause without
// values ties nothing: "cellar door in the old woolshed" has no opening
// hours to change), the whole statement's for its first clause.
func (s *Statement) head(c *Change) (head []string, value string) {
	// A label that is someone's name ("Ewan: pipe band junior chanter
	// class, …") says whom the line is about, not what attribute: "Ewan
	// can play … on the chanter now" is no new value of it.
	if len(s.label) > 0 && !s.namedLabel() {
		if words, ok := s.labelHead(c); ok {
			return words, s.value
		}
	}
	for i, topic := range s.clauses {
		// A month says when, not what: "MOT due end of April" and "first
		// one due April 2027" share no topic.
		if both := slices.DeleteFunc(shared(topic, c.words), func(w string) bool { return monthNames[w] }); len(both) >= 2 && 2*len(both) >= len(topic) && c.inOneClause(both) && !s.unnamed(both) {
			if i == 1 {
				// The first clause names what the statement is about
				// ("Saturday club race, first gun 13:00"): its values
				// are the whole statement's.
				return both, s.value
			}
			if s.field && len(Values(s.clauseText[i], s.isName)) == 0 {
				return both, s.value // "Contact: Martin Ogden, property manager": the field's value
			}
			return both, s.clauseText[i]
		}
	}
	if len(s.topic) == 1 && slices.Contains(c.topic, s.topic[0]) {
		return s.topic, s.value
	}
	return nil, ""
}

// labelHead returns the words that tie a field's statement to a sentence
// by its label (see head).
func (s *Statement) labelHead(c *Change) ([]string, bool) {
	// Every word of the label, or two and half of a longer one, or the
	// last of a label of several, its head noun ("the fee is going up"
	// for "Membership fee: …"): a field's label names its attribute,
	// and the new value must come near it (Outdated). One other word
	// of it is too little ("rehearsals" of "Rehearsal day").
	both := shared(s.label, c.words)
	if n := len(both); n == len(s.label) || n >= 2 && 2*n >= len(s.label) || n == 1 && both[0] == s.label[len(s.label)-1] {
		return both, true
	}
	// A head noun that only names the kind of the value ("Rehearsal
	// day: Tuesday", "Start time: 19:00") and the other word of the
	// label, with a value of that kind: "rehearsals are on Wednesdays
	// from now on".
	if last := s.label[len(s.label)-1]; len(s.label) == 2 && len(both) == 1 && both[0] != last && c.givesKind(labelKinds[last]) {
		return both, true
	}
	// The head noun said in another form ("Wine distributor" and
	// "Wine Distribution"): a stem of six letters or more in common.
	if last := s.label[len(s.label)-1]; len(s.label) > 1 && len(both) >= 1 {
		for _, w := range c.words {
			if commonStem(last, w) {
				return append(both, w), true
			}
		}
	}
	// Or a word of the same attribute (attributeCues): "Price went up:
	// now £1,240 a month" for "Rent: £1,150 a month".
	if cues := sameCue(s.label, c.words); len(cues) > 0 {
		return cues, true
	}
	return nil, false
}

// unnamed reports whether the statement says the words only of someone
// or something it does not name ("Staff: Dean, Gaz and a part-time
// apprentice"): an article "a" or "an" opens their run, so that a change
// naming who or what they are now ("Ellie Shaw started as the part-time
// apprentice") changes none of its values.
func (s *Statement) unnamed(words []string) bool {
	ws := strings.FieldsFunc(strings.ToLower(s.text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '-' && r != '\'' && r != '’'
	})
	seen := false
	for i, w := range ws {
		if !slices.Contains(words, contentForm(w)) {
			continue
		}
		if i > 0 && slices.Contains(words, contentForm(ws[i-1])) {
			continue // inside a run already judged
		}
		seen = true
		if i == 0 || ws[i-1] != "a" && ws[i-1] != "an" {
			return false
		}
	}
	return seen
}

// labelKinds are the head nouns of a label that name only the kind of
// its value (kindOf).
var labelKinds = func() map[string]string {
	m := map[string]string{}
	for kind, nouns := range lang.ValueKindNouns {
		for _, n := range nouns {
			m[n] = kind
		}
	}
	return m
}()

// givesKind reports whether the sentence names a value of kind (kindOf).
func (c *Change) givesKind(kind string) bool {
	if kind == "" {
		return false
	}
	kinds := valueKinds(c.Said)
	for v := range Values(c.Said, nil) {
		if kindOf(v, kinds) == kind {
			return true
		}
	}
	return false
}

// Outdated reports whether a change tied to the statement (Tie) gives it
// another value: value and head are what Tie returned (no head for an
// entity's tie).
func (s *Statement) Outdated(c *Change, head []string, value string, isName func(string) bool) bool {
	return replaces(c, value, s.field && value == s.value, s.field && value == s.value && !s.namedLabel(), head, isName)
}

// namedLabel reports whether the statement's label is a known entity's
// name ("Jonas: early warelay user, …"): a line about someone, not a
// field whose value is a word.
func (s *Statement) namedLabel() bool {
	label, _, _ := Field(s.text)
	return s.isName != nil && s.isName(label)
}

// Ended reports whether a change says that what the statement says ended
// ("Marlene stepped down as treasurer" and, on her page, "Club treasurer
// since 2021") and names none of its values as current.
func (s *Statement) Ended(c *Change, isName func(string) bool) bool {
	return endsTopic(c, s.topic) && !ShareCurrentValue(s.value, c.Said, isName)
}

// SameValues reports whether two statements give the same values, at
// least one: copies of one fact.
func (s *Statement) SameValues(o *Statement) bool {
	return len(s.values) > 0 && maps.Equal(s.values, o.values)
}

// Shared is how many content words a change and the statement share: of
// the statements a change outdates, it changes the one it shares the most
// words with.
func (s *Statement) Shared(c *Change) int { return len(shared(s.words, c.words)) }

// shared returns the words of a that b holds.
func shared(a, b []string) []string {
	var out []string
	for _, w := range a {
		if slices.Contains(b, w) {
			out = append(out, w)
		}
	}
	return out
}

// replaces reports whether a change sentence gives a statement (its
// values: value, a field's when field, whose first word is one even in
// lower case when plainValue) another value: it names none of them as current, and a
// clause of it that holds names a value of a kind the statement has (a
// name for a name, a number for a number) that is no entity's name (a
// name a clause gives is who did something: "Sipho confirmed …"). When
// head is given (the sentence was tied by the statement's head words), a
// head word must come in that clause before or within the new value:
// "Switched the club's chandlery account to Albatross Marine" gives the
// chandlery a value, "a new address …, the family house" none to
// "Family: …".
func replaces(c *Change, value string, field, plainValue bool, head []string, isName func(string) bool) bool {
	sentence := c.Said
	if isName == nil {
		isName = func(string) bool { return false }
	}
	old := Values(value, isName)
	if field {
		old = fieldValues(value, isName)
		if len(old) == 0 && plainValue {
			// A field's value that is a plain word is a value all the
			// same when the sentence says it is over: "Paid by: cheque at
			// the end of each month" and "No more cheques for Hélène".
			if w, over := c.saysOver(value); over {
				old[w] = true
			}
		}
	}
	kinds := map[string]bool{}
	oldKinds := valueKinds(value)
	for v := range old {
		kinds[kindOf(v, oldKinds)] = true
	}
	// The names of entities the statement gives as values ("Lives on the
	// top floor of The-Castle") are its values too, which the sentence
	// may repeat by name; a field's value may be a name and nothing else
	// ("Treasurer: Marlene Jacobs").
	ws := strings.Fields(value)
	if !field && len(ws) > 0 {
		ws = ws[1:]
	}
	for _, w := range ws {
		if w = strings.Trim(w, ",.;:()\"'’"); w != "" && unicode.IsUpper([]rune(w)[0]) && isName(w) {
			old[strings.ToLower(w)] = true
			if field {
				kinds[kindName] = true
			}
		}
	}
	if len(kinds) == 0 {
		return false
	}
	oldText := value
	if field {
		oldText = "- " + value
	}
	oldRuns := valueRuns(oldText, nil)
	sentenceKinds := valueKinds(sentence)
	current, _ := clauseTexts(sentence)
	// What a clause names as over stays over in an aside of another
	// ("Hollis & Co → Marsh Booth (Hollis wanted £1,800 …)").
	_, ended := clauseValues(sentence, isName)
	// A value of the statement the sentence ends is changed, whatever
	// other value of it holds, where the sentence names the statement's
	// attribute (head): "Start time: 19:00 → 19:15 …; we still finish at
	// 21:30" outdates "Rehearsal time: 19:00 to 21:30". (Tied by an
	// entity alone, "Vienna 06:40 → Marrakech 10:35" is a route.)
	endsOne := false
	for v := range old {
		endsOne = endsOne || ended[v] && len(head) > 0
	}
	for _, clause := range current {
		if endsOne {
			break
		}
		for _, r := range valueRuns(clause, nil) {
			if !slices.ContainsFunc(r, func(w string) bool { return !ended[w] }) {
				continue
			}
			for _, o := range oldRuns {
				if sameValue(r, o) {
					return false
				}
			}
		}
	}
	// The new value is read in the whole sentence, but not in a clause
	// that says it is over: "Weekly off moves from Monday to Tuesday".
	return newValueAfter(sentence, head, old, ended, kinds, sentenceKinds, isName)
}

// endsTopic reports whether a clause of a change sentence that says
// something is over holds the statement's topic ("Marlene stepped down as
// treasurer" and, on her page, "Club treasurer since 2021"): at least one
// of its topic words and half of them.
func endsTopic(c *Change, topic []string) bool {
	if len(topic) == 0 {
		return false
	}
	for i, words := range c.over {
		if !c.ends[i] {
			continue // "went from … to …", "was": no end of a role
		}
		if n := len(shared(topic, words)); n > 0 && 2*n >= len(topic) {
			return true
		}
	}
	return false
}

// endingWords say that someone or something stopped being what it was.
var endingWords = regexp.MustCompile(`(?i)\b(` + lang.Alternation(lang.EndingWords) + `)\b`)

// valueRuns returns the runs of consecutive value words of a text
// ("riverside", "vets"), each a value as a reader takes it.
func valueRuns(text string, isName func(string) bool) [][]string {
	var out [][]string
	// A comma or a parenthesis ends a value: "Swift Recovery, 24-hour".
	for i, part := range runBreak.Split(text, -1) {
		if i > 0 {
			part = "- " + part // its first word may be a value
		}
		var run []string
		for _, t := range valueTokens(part, isName) {
			if t.Value {
				run = append(run, t.Word)
				continue
			}
			if len(run) > 0 {
				out = append(out, run)
				run = nil
			}
		}
		if len(run) > 0 {
			out = append(out, run)
		}
	}
	return out
}

var runBreak = regexp.MustCompile(`[,;()]\s*`)

// sameValue reports whether two runs of value words name one value: they
// share a word that is no title, and not only the last word of both when
// both have several ("Riverside Vets" is not "Millbank Vets"; "Hāwea St"
// is "14 Hāwea St").
func sameValue(a, b []string) bool {
	for i, w := range a {
		if runTitles[w] || titles[w] {
			continue
		}
		j := slices.Index(b, w)
		if j < 0 {
			continue
		}
		if len(a) == 1 || len(b) == 1 || i < len(a)-1 || j < len(b)-1 {
			return true
		}
	}
	return false
}

var runTitles = lang.WordSet(lang.AddressTitles)

// newValueAfter reports whether a clause names a value not in old or
// ended, of a kind in kinds, and a head word comes shortly before or within
// such a value (a run of value words: "Clutha Vets"), or the clause says
// right after it that it is the head (saysHeadIs). No head: any such
// value.
func newValueAfter(clause string, head []string, old, ended map[string]bool, kinds map[string]bool, clauseKinds map[string]string, isName func(string) bool) bool {
	seenAt, inValue := -1, false // seenAt: where a head word was last seen
	near := func(i int) bool { return head == nil || seenAt >= 0 && i-seenAt <= headReach }
	start := 0 // where the current value run starts
	tokens := valueTokens(clause, isName)
	for i, t := range tokens {
		isNew := t.Value && !old[t.Word] && !ended[t.Word] && kinds[kindOf(t.Word, clauseKinds)]
		if inValue && !isNew && (near(start) || saysHeadIs(tokens[i:], head) || namesHead(tokens[i:], head)) {
			return true
		}
		if isNew && !inValue {
			start = i
		}
		inValue = isNew
		// A head word counts in the new value ("Clutha Vets"), or as a
		// plain word, not as another value ("the last Saturday" of a
		// month is no Saturday race).
		if (isNew || !t.Value) && slices.Contains(head, contentForm(t.Word)) {
			seenAt = i
			if inValue {
				start = i
			}
		}
	}
	return inValue && near(start)
}

// headReach is how many words before a new value a head word may come:
// "Switched the club's chandlery account to Albatross Marine", "the gym
// membership went up to €52", not a word of a sentence's other end.
const headReach = 6

// namesHead reports whether one of the two words after a value is a head
// word: the value names a thing of the head's kind ("the new Agaro 60L
// convection oven", "Riverside Vets").
func namesHead(after []valueToken, head []string) bool {
	for _, t := range after[:min(len(after), 2)] {
		// The head word may end another value too: "Riverside Vets" for
		// "Vet: Dr Anand, Millbank Vets".
		if slices.Contains(head, contentForm(t.Word)) {
			return true
		}
	}
	return false
}

// saysHeadIs reports whether the words after a value say that it is the
// head: "Sipho Ndlovu is the new treasurer", "Kelpie … is now the club's
// training keelboat", "Patrice Lalonde has taken over from Yves as tenor
// section leader".
func saysHeadIs(after []valueToken, head []string) bool {
	for i, t := range after[:min(len(after), 6)] {
		if t.Word == "is" || t.Word == "are" || t.Word == "as" {
			for _, u := range after[i+1 : min(len(after), i+6)] {
				if slices.Contains(head, contentForm(u.Word)) {
					return true
				}
			}
			return false
		}
	}
	return false
}

// contentForm is a word's form among content words (Sig.Words):
// "" for a stop word.
func contentForm(w string) string {
	ws := signature(memory.Item{Kind: memory.KindWorld, Content: w}).words
	if len(ws) == 0 {
		return ""
	}
	return ws[0]
}

// The kinds of value a new value must share with an old one: a name for
// a name; an amount of money, a share, a time of day, a telephone number
// or another number for the same (a price list "up 14%" gives no new
// price of "£4.20"; "ring the garage mobile now: 07700 900 350" no new
// address of "Garage: Unit 4B, … Leeds LS7"). A telephone number is
// groups of digits after a trunk or country code ("0113 496 0235",
// "+351 296 123 456", "(03) 9876 5432", "021-555-0199"): without one,
// "14 300 000" is a number. Later kinds win where two read one value.
var (
	moneyValue   = regexp.MustCompile(`(?i)(?:(?:` + lang.Alternation(lang.CurrencySymbols) + `)\s?|\b(?:` + lang.Alternation(lang.CurrencyCodes) + `)\s?)(\d[\d,.]*)|\b(r\d[\d,.]*)`)
	percentValue = regexp.MustCompile(`(?i)(\d[\d.]*)\s?(?:%|percent\b|per cent\b)`)
	timeValue    = regexp.MustCompile(`(?i)\b(\d{1,2}[:.]\d{2}(?:\s?(?:` + lang.Alternation(lang.ClockSuffixes) + `|h)\b)?|\d{1,2}\s?(?:` + lang.Alternation(lang.ClockSuffixes) + `)\b)`)
	phoneValue   = regexp.MustCompile(`((?:\+\d{1,3}[ -]?(?:\(?\d{1,5}\)?[ -])?|\(0?\d{1,5}\)[ -]?|\b0\d{1,5}[ -])\d{3,4}[ -]?\d{3,4})\b`)
)

// The kinds of value (kindOf): names, not words of a text; those of
// lang.ValueKindNouns' keys name the same kinds.
const (
	kindPhone   = "phone"
	kindMoney   = "money"
	kindShare   = "share"
	kindTime    = "time"
	kindNumber  = "number"
	kindWeekday = "weekday"
	kindName    = "name"
)

// valueKinds maps the numbers of a text, as valueTokens writes
// them, to their kind ("money", "share", "time"); others are plain.
func valueKinds(text string) map[string]string {
	out := map[string]string{}
	for _, k := range []struct {
		re   *regexp.Regexp
		kind string
	}{{phoneValue, kindPhone}, {moneyValue, kindMoney}, {percentValue, kindShare}, {timeValue, kindTime}} {
		for _, m := range k.re.FindAllStringSubmatch(text, -1) {
			for _, g := range m[1:] {
				if g != "" {
					for _, t := range valueTokens("x "+g, nil)[1:] {
						out[t.Word] = k.kind
					}
				}
			}
		}
	}
	return out
}

// kindOf is the kind of a value: its kind in kinds (valueKinds), else
// "number" for a number, "weekday" for a day of the week and "name" for
// another word.
func kindOf(v string, kinds map[string]string) string {
	if k, ok := kinds[v]; ok {
		return k
	}
	if n, _, ok := strings.Cut(v, "/"); ok { // "₹650/kg"
		if k, ok := kinds[n]; ok {
			return k
		}
	}
	if strings.IndexFunc(v, unicode.IsDigit) >= 0 {
		return kindNumber
	}
	if weekdays[strings.TrimSuffix(v, "s")] {
		return kindWeekday // "Wednesdays" is no new rehearsal venue
	}
	return kindName
}
