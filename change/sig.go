package change

import (
	"maps"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"memoria/lang"
	"memoria/memory"
	"memoria/query"
)

// Update-awareness. A later fact about the same entity and attribute
// supersedes an earlier one. It is decided at query time, offline and
// deterministically, over the candidate facts and the facts known about
// the query's entities (one query, sqlite.EntityItems):
//
//   - Only world facts (W) and opinions (O) take part: they state how
//     things are; experiences (B) and observations (S) record events,
//     which do not replace each other. Opinions are compared with
//     opinions, world facts with world facts.
//   - The two facts share an entity (by memory.EntityKey), are not the
//     same fact (FactID), and neither restates the other (every content
//     word and number of one is in the other: a log line and its curated
//     summary are one version said twice). A world fact that names no
//     entity is about the word it opens with ("- W: the ute is …", "- W
//     Priscilla Wong comes in on Mondays"), which stands for its entity;
//     two such facts that both say what that subject is ("the ute is …")
//     state the same attribute.
//   - Same attribute: two world facts share an attribute cue among their
//     first cueWords words (attributeCues: "lives" and "moved" are the
//     residence, "phone" and "mobile" the phone, "deployed" and "hosted"
//     the hosting, …); or their first content word is the same and one
//     more of their first headWords content words is shared ("Prefers
//     long replies" / "Prefers concise replies"); or at least minShared
//     content words are shared and they make up minOverlap of the union
//     of both (Jaccard). Content words are the words outside stop words,
//     entity names and numbers, lower-cased, with a light suffix strip.
//   - The superseded and current features apply only when both versions
//     are candidates, so a loose link cannot move a result on its own.
//   - Order: a fact in a daily log dates from the day it was written. A
//     curated fact (bank/, memory.md: no day) dates from its event time if
//     it names one. Else it is the current state, newer than every log,
//     until a log gives another value (replacesCurated) that was written
//     after the latest day it names and after the latest log fact that
//     says what it says (DateBy).
//   - The later fact supersedes the earlier; two facts of one day in one
//     file are ordered by line; otherwise equal times supersede nothing.
const (
	cueWords   = 6   // attribute cues count among a world fact's first words
	headWords  = 5   // the first content words compared by the head rule
	minShared  = 3   // content words two facts must share for the overlap rule
	minOverlap = 0.5 // … and their share of the union of both (Jaccard)
)

// attributeCues map words to the attribute they name (lang.AttributeCues):
// the attributes that change in people's and systems' lives.
var attributeCues = func() map[string]string {
	m := map[string]string{}
	for class, ws := range lang.AttributeCues {
		for _, w := range ws {
			m[w] = class
		}
	}
	return m
}()

// factSig is what supersession compares of a fact.
type factSig struct {
	it      memory.Item
	keys    []string  // its entities' keys (memory.EntityKey)
	when    time.Time // see the ordering rules above
	curated bool
	words   []string // content words, in order
	set     []string // the content words, sorted, each once
	cues    map[string]bool
	tokens  []string  // content words and numbers, sorted, each once: what the fact says
	names   []string  // its entities' names, lower-cased words
	asOf    time.Time // a curated fact: the latest day it names (AsOf) or that a log saying what it says was written (DateBy)
	// versions are the words a number follows ("debian" in "Debian 12",
	// "release" in "release 0.5"), with the number.
	versions map[string]string
	// amounts are the measured amounts it states, by unit ("ml" in "1.5
	// mL"), with the number.
	amounts map[string]string
	// says: an entity-less world fact that says what its subject is
	// ("the ute is a white Hilux").
	says bool
	// plain are its attribute words: the content words (stemmed) it
	// writes in lower case or opens with, no value (a name, a number) and
	// no calendar word, sorted, each once ("bas" of "based in Hamburg").
	plain []string
	// change: it says that a value changed (Says), read once.
	change *bool
}

// numberWords are amounts written out (lang.AmountWords): a count says
// how many, not what.
var numberWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range lang.AmountWords {
		m[w] = true
	}
	return m
}()

// farFuture orders undated curated facts after every log, unless a log
// replaces them (replacesCurated).
var farFuture = time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC)

func signature(it memory.Item) *factSig {
	s := &factSig{it: it}
	for _, e := range it.Entities {
		s.keys = append(s.keys, memory.EntityKey(e))
		// A few names at most: a slice beats a map (signatures are made
		// for hundreds of facts per recall).
		s.names = append(s.names, SplitWords(memory.EntityName(e))...)
	}
	s.date()
	if strings.ContainsAny(it.Content, "0123456789") { // what versionPattern needs, tested first: most lines have no digit
		s.readNumbers(strings.ToLower(it.Content))
	}
	if it.Kind == memory.KindPassage {
		s.readProseCues()
	}
	words := SplitWords(it.Content)
	firstContent := s.readWords(words)
	if len(s.keys) == 0 && it.Kind == memory.KindWorld && firstContent >= 0 && firstContent < subjectWithin {
		s.readSubject(words, firstContent)
	}
	// Sorted sets: the pairwise comparisons below merge them, which costs
	// far less than map lookups (up to 30 × 400 pairs per recall).
	slices.Sort(s.tokens)
	s.tokens = slices.Compact(s.tokens)
	s.set = slices.Sorted(slices.Values(s.words))
	slices.Sort(s.plain)
	s.plain = slices.Compact(s.plain)
	return s
}

// date places the fact in the order of versions (see the rules above): a
// log's fact at its day, a curated one at its event's start, else after
// every log and as of the latest day it names.
func (s *factSig) date() {
	it := s.it
	switch {
	case !it.Written.IsZero():
		s.when = memory.Day(it.Written)
	case it.Event != nil:
		s.when, s.curated = it.Event.Start, true
	default:
		s.when, s.curated = farFuture, true
		if it.Kind == memory.KindWorld || it.Kind == memory.KindPassage {
			s.asOf = AsOf(it.Content)
		}
	}
}

// readNumbers reads the versions and the measured amounts a lower-cased
// text with digits states.
func (s *factSig) readNumbers(lower string) {
	s.amounts = amountsOf(lower)
	for _, m := range versionPattern.FindAllStringSubmatch(lower, -1) {
		if query.IsStopWord(m[1]) || calendarWords[m[1]] {
			continue // "on Nov 28", "since October 25": dates, not versions
		}
		if s.versions == nil {
			s.versions = map[string]string{}
		}
		if _, ok := s.versions[m[1]]; !ok {
			s.versions[m[1]] = m[2]
		}
	}
}

// addCue records that the fact names the attribute class by a cue.
func (s *factSig) addCue(class string) {
	if s.cues == nil {
		s.cues = map[string]bool{}
	}
	s.cues[class] = true
}

// readProseCues reads the cues of prose: a cue counts among the first
// words of each sentence or clause ("Helped Marta with boxes. She has
// moved to Linz").
func (s *factSig) readProseCues() {
	for _, sentence := range sentences.Split(s.it.Content, -1) {
		for i, w := range SplitWords(sentence) {
			if c, ok := attributeCues[w]; ok && i < cueWords {
				s.addCue(c)
			}
		}
	}
}

// readWords reads the fact's words: a world fact's cues among its first
// words, its tokens, content words and attribute words (plain). It
// returns the index in words of the first content word, or -1.
func (s *factSig) readWords(words []string) (firstContent int) {
	firstContent = -1
	for i, w := range words {
		if i < cueWords && s.it.Kind == memory.KindWorld {
			if c, ok := cueAt(words, i); ok {
				s.addCue(c)
			}
		}
		if query.IsStopWord(w) || slices.Contains(s.names, w) {
			continue
		}
		s.tokens = append(s.tokens, Stem(w))
		if strings.ContainsAny(w, "0123456789") || numberWords[w] {
			continue // a count (numberWords) says how many, not what: "Two frost fans"
		}
		if !calendarWords[w] && (i == 0 || lowerIn(s.it.Content, w)) {
			s.plain = append(s.plain, Stem(w))
		}
		w = Stem(w)
		if firstContent < 0 {
			firstContent = i
		}
		if !slices.Contains(s.words, w) {
			s.words = append(s.words, w)
		}
	}
	return firstContent
}

// cueAt returns the attribute the word words[i] names as a cue: its
// attributeCues class, or the employer for a work verb that names one
// ("works at the bakery").
func cueAt(words []string, i int) (string, bool) {
	if c, ok := attributeCues[words[i]]; ok {
		return c, true
	}
	if workVerbs[words[i]] && namesEmployer(words[i+1:]) {
		return "employer", true
	}
	return "", false
}

// readSubject keys a world fact that names no entity ("- W: the ute is a
// white 2011 Hilux", "- W Priscilla Wong comes in on Mondays") by the
// thing it opens with: facts opening with the same word are compared as
// facts of one entity are.
func (s *factSig) readSubject(words []string, firstContent int) {
	s.keys = []string{subjectKeyPrefix + s.words[0]}
	// "the ute is …", "power company is …": it says what its subject is,
	// the one attribute such facts share (attributeMatch).
	for _, w := range words[firstContent+1 : min(len(words), firstContent+3)] {
		if w == "is" || w == "are" {
			s.says = true
			break
		}
	}
}

// lowerIn reports whether text writes the lower-case word w in lower
// case somewhere: a word written only capitalised is a name, a value.
func lowerIn(text, w string) bool {
	for i := strings.Index(text, w); i >= 0; {
		before, _ := utf8.DecodeLastRuneInString(text[:i])
		after, _ := utf8.DecodeRuneInString(text[i+len(w):])
		if !isWordRune(before) && !isWordRune(after) {
			return true
		}
		j := strings.Index(text[i+len(w):], w)
		if j < 0 {
			break
		}
		i += len(w) + j
	}
	return false
}

func isWordRune(r rune) bool {
	return r != utf8.RuneError && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-')
}

// saysChange reports (once) whether the fact says that a value changed.
func (s *factSig) saysChange() bool {
	if s.change == nil {
		c := Says(s.it.Content)
		s.change = &c
	}
	return *s.change
}

// changedAttribute reports whether two world facts of a shared entity
// state one attribute by the rule of change: the newer says that a value
// changed ("Now based in Berlin; moved from Hamburg last week",
// "Switched hosting to AWS") and the two share an attribute word ("based",
// "host"), not only values or names. (By meaning, with an embedding
// model's vectors, where recall gets them: it does not yet.)
func changedAttribute(a, b *factSig) bool {
	if a.it.Kind != memory.KindWorld || b.it.Kind != memory.KindWorld || len(a.plain) == 0 || len(b.plain) == 0 {
		return false
	}
	newer := a
	switch {
	case a.curated && b.curated:
		return false
	case a.curated:
		newer = b
	case b.curated:
	case b.when.After(a.when):
		newer = b
	case !a.when.After(b.when):
		return false // one day: no order of change
	}
	return newer.saysChange() && sharedCount(a.plain, b.plain) > 0
}

// subjectWithin is how near its start an entity-less world fact's first
// content word must be to name what the fact is about ("the ute is…",
// "our power company is…"), and subjectKeyPrefix marks the key made of
// it, which no entity key has.
const (
	subjectWithin    = 3
	subjectKeyPrefix = "~"
)

// SubjectOf returns the key a world fact that names no entity is
// compared by (the word it opens with: see signature), or "" when its
// first content word is not near its start.
func SubjectOf(text string) string {
	s := signature(memory.Item{Kind: memory.KindWorld, Content: text})
	if len(s.keys) == 1 && IsSubjectKey(s.keys[0]) {
		return s.keys[0]
	}
	return ""
}

// IsSubjectKey reports whether a key is one SubjectOf made, not an
// entity's.
func IsSubjectKey(k string) bool { return strings.HasPrefix(k, subjectKeyPrefix) }

// workVerbs say that someone works; namesEmployer tells when they name
// the employer.
var workVerbs = lang.WordSet(lang.WorkVerbs)

// namesEmployer reports whether the words after a work verb say where
// ("works at the bakery", "works after school at the Four Square") or for
// whom ("worked for Acme"). Alone, "works" is any activity ("works on the
// fans").
func namesEmployer(next []string) bool {
	if len(next) > 0 && next[0] == "for" {
		return true
	}
	return slices.Contains(next[:min(len(next), 4)], "at")
}

// calendarWords are month and weekday names (and their short forms) and
// the words week, day, month and year: a number after one is a day, not a
// version.
var calendarWords = func() map[string]bool {
	m := map[string]bool{}
	for _, n := range lang.Weekdays["en"] {
		m = addWords(m, n.Short)
	}
	for _, unit := range lang.CalendarUnits {
		m = addWords(m, lang.TimeUnits[unit][:2]) // its singular and plural
	}
	maps.Copy(m, monthNames)
	maps.Copy(m, weekdays)
	return m
}()

// versionPattern finds a word followed by a version or number: "debian
// 12", "release 0.5", "macos 15.1", "warelay v0.6.0".
var versionPattern = regexp.MustCompile(`([\p{L}][\p{L}\p{N}_-]*)\s+v?(\d+(?:\.\d+)*[a-z]?)\b`)

// SplitWords returns the words of a text in lower case: runs of letters,
// digits and '-'.
func SplitWords(text string) []string {
	return strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '-'
	})
}

// Stem strips a plural or verb ending, enough to match "prefers" with
// "prefer" and "replies" with "reply".
func Stem(w string) string {
	switch {
	case len(w) > 5 && strings.HasSuffix(w, "ies"):
		return w[:len(w)-3] + "y"
	case len(w) > 5 && strings.HasSuffix(w, "ing"):
		return w[:len(w)-3]
	case len(w) > 4 && strings.HasSuffix(w, "ed"):
		return w[:len(w)-2]
	case len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss"):
		return w[:len(w)-1]
	}
	return w
}

// Supersedable reports whether a kind takes part in update-awareness.
func Supersedable(k memory.Kind) bool { return k == memory.KindWorld || k == memory.KindOpinion }

// sentences splits prose at the end of a sentence, and a sentence at "and"
// or "but" between two clauses ("sold the Panda and now drives an
// Octavia").
var sentences = regexp.MustCompile(`[.;!?]\s+|,?\s+(?:and|but)\s+`)

// Prose takes part in one way only: a line of a curated page (an entity's
// page in bank/, a line of memory.md) states how things are, and a later
// line of a daily log that names the entity can say that it changed
// ("She has moved to Linz", "sold the Panda and now drives an Octavia").
// Such a pair is linked when both name the same attribute by a cue and the
// log replaces the curated line (replacesCurated: it says a change and
// keeps none of its values). Two log lines never supersede each other:
// prose records events, which do not replace one another.

// prosePair reports whether a and b are a curated line and a log line of
// prose (or a typed world fact) stating the same attribute of a shared
// entity.
func prosePair(a, b *factSig) bool {
	if a.it.Kind != memory.KindPassage && b.it.Kind != memory.KindPassage {
		return false
	}
	if a.curated == b.curated || !shareKey(a.keys, b.keys) {
		return false
	}
	for _, s := range []*factSig{a, b} {
		if s.it.Kind != memory.KindPassage && s.it.Kind != memory.KindWorld {
			return false
		}
	}
	for c := range a.cues {
		if b.cues[c] {
			return !restates(a, b) && !restates(b, a)
		}
	}
	return false
}

// sameAttribute reports whether two facts about a shared entity state the
// same attribute.
func sameAttribute(a, b *factSig) bool {
	if a.it.Kind != b.it.Kind || !Supersedable(a.it.Kind) || (a.it.FactID != "" && a.it.FactID == b.it.FactID) || !shareKey(a.keys, b.keys) {
		return false
	}
	// The rules that link first, then restates, which unlinks: most pairs
	// of one entity's facts link by none, and skip its two merges.
	return (attributeMatch(a, b) || changedAttribute(a, b)) && !restates(a, b) && !restates(b, a)
}

// attributeMatch reports whether two facts share an attribute cue, their
// head words or enough of their content words (see above), or name
// different versions of one thing ("Debian 12" and "Debian 13").
func attributeMatch(a, b *factSig) bool {
	if a.says && b.says && a.keys[0] == b.keys[0] {
		return true // "the ute is a white Hilux", "the ute is now a grey Ranger"
	}
	for c := range a.cues {
		if b.cues[c] {
			return true
		}
	}
	for w, v := range a.versions {
		if u, ok := b.versions[w]; ok && u != v {
			return true
		}
	}
	if len(a.words) > 0 && len(b.words) > 0 && a.words[0] == b.words[0] {
		for _, w := range a.words[1:min(headWords, len(a.words))] {
			if slices.Contains(b.words[1:min(headWords, len(b.words))], w) {
				return true
			}
		}
	}
	shared := sharedCount(a.set, b.set)
	for u, v := range a.amounts {
		// Another amount in the same unit, said of the same thing: "1.5 mL
		// of Metacam with dinner" and "Metacam dose is 1 mL with dinner".
		if w, ok := b.amounts[u]; ok && w != v && shared-sharedUnit(a, b, u) >= 1 {
			return true
		}
	}
	union := len(a.set) + len(b.set) - shared
	return shared >= minShared && union > 0 && float64(shared)/float64(union) >= minOverlap
}

// sharedUnit is 1 when the unit u is a word both facts' content words
// hold, else 0: a unit is no shared topic.
func sharedUnit(a, b *factSig, u string) int {
	if slices.Contains(a.set, u) && slices.Contains(b.set, u) {
		return 1
	}
	return 0
}

// amountPattern finds a measured amount in one of lang.MeasureUnits
// ("1.5 mL", "20 kg", "15%"). Money is left out: bills and prices of
// different things differ in every line about them, and the price cues
// (attributeCues) link the price of one thing.
var amountPattern = regexp.MustCompile(`(\d+(?:\.\d+)?)\s?(` + lang.Alternation(lang.MeasureUnits) + `)(?:[^\p{L}\p{N}]|$)`)

// amountsOf returns the amounts a lower-cased text states, by unit, the
// first of each unit.
func amountsOf(lower string) map[string]string {
	var out map[string]string
	for _, m := range amountPattern.FindAllStringSubmatch(lower, -1) {
		n, unit := m[1], m[2]
		if out == nil {
			out = map[string]string{}
		}
		if _, ok := out[unit]; !ok {
			out[unit] = n
		}
	}
	return out
}

// restates reports whether a says nothing b does not: every content word
// and number of a is in b. Such facts are the same version said twice
// (a log and the curated summary), not an update.
func restates(a, b *factSig) bool {
	return len(a.tokens) > 0 && sharedCount(a.tokens, b.tokens) == len(a.tokens)
}

// sharedCount counts the strings two sorted sets have in common.
func sharedCount(a, b []string) int {
	n, i, j := 0, 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] == b[j]:
			n++
			i++
			j++
		case a[i] < b[j]:
			i++
		default:
			j++
		}
	}
	return n
}

// shareKey reports whether two facts' entity keys have one in common.
func shareKey(a, b []string) bool {
	return slices.ContainsFunc(a, func(k string) bool { return slices.Contains(b, k) })
}

// later reports whether a supersedes b, given they state the same
// attribute.
func later(a, b *factSig) bool {
	switch {
	case a.curated && b.curated:
		return false
	case b.curated:
		return replacesCurated(a, b)
	case a.curated:
		return !replacesCurated(b, a)
	}
	if a.when.Equal(b.when) {
		return a.it.Source.Path == b.it.Source.Path && a.it.Source.Start > b.it.Source.Start
	}
	return a.when.After(b.when)
}

// replacesCurated reports whether log, a fact of a daily log, replaces
// curated, a curated world fact (bank/, memory.md) of the same attribute.
// A curated fact is the maintained current state, newer than every log,
// unless a log written after its asOf (the latest day it names, or the
// latest log that says what it says: DateBy) gives another value:
// another version, a typed world fact none of whose values is the curated
// fact's, or prose that says a change ("moved to", "switched",
// "upgraded", "no longer") in which none of the curated fact's values is
// current. Saying the same value in other words ("Registered his address
// at Lainzer Straße 88") replaces nothing. (A curated page written once
// and never updated used to outrank every later move, upgrade and
// release. A typed world fact states how things are on its day, so it
// needs no word of change; a line of prose may only mention a thing.)
func replacesCurated(log, curated *factSig) bool {
	if (curated.it.Kind != memory.KindWorld && curated.it.Kind != memory.KindPassage) || !log.when.After(curated.asOf) {
		return false
	}
	if (Sig{log}).VersionsDiffer(Sig{curated}) {
		return true
	}
	return (log.it.Kind == memory.KindWorld || Says(log.it.Content)) && !sharesValue(curated, log)
}

// sharesValue reports whether log states one of curated's current values
// (ShareCurrentValue; the entities' names are not values).
func sharesValue(curated, log *factSig) bool {
	isName := func(w string) bool {
		w = strings.ToLower(w)
		return slices.Contains(curated.names, w) || slices.Contains(log.names, w)
	}
	return ShareCurrentValue(curated.it.Content, log.it.Content, isName)
}

// DateBy dates a curated fact that repeats a dated one: a line of a
// curated page (bank/, memory.md) that states a value d, a daily log's
// fact of the same entity and attribute, states is current as of the
// latest such log (AsOf), not of every log. A page copied from the logs,
// or kept by reflect, then stays current while it repeats the latest
// version, and a later log with another value replaces it
// (ReplacesCurated). The caller gives c each log fact of its entities.
func (c Sig) DateBy(d Sig) {
	if !c.s.curated || (c.s.it.Kind != memory.KindWorld && c.s.it.Kind != memory.KindPassage) {
		return
	}
	if d.s.curated || !d.s.when.After(c.s.asOf) || !attributeMatch(c.s, d.s) || d.VersionsDiffer(c) || !sharesValue(c.s, d.s) {
		return
	}
	c.s.asOf = d.s.when
}

// Sig is a fact's signature for update-awareness, made once (it parses
// the text) and compared many times.
type Sig struct{ s *factSig }

// NewSig makes the signature of an item.
func NewSig(it memory.Item) Sig { return Sig{signature(it)} }

// Replaces reports whether later, a fact of a daily log, states the same
// attribute of a shared entity as curated (a world fact or opinion of the
// same kind) with another value: the rules of update-awareness above, but
// for a pair whose order the caller knows. A later fact that restates the
// curated one (says nothing it does not) confirms it instead; Restates
// reports that.
func (later Sig) Replaces(curated Sig) bool { return sameAttribute(later.s, curated.s) }

// Restates reports whether a says nothing b does not, or b nothing a does
// not: one version of a fact said twice.
func (a Sig) Restates(b Sig) bool { return restates(a.s, b.s) || restates(b.s, a.s) }

// SharesCue reports whether two facts name one attribute by a cue word
// ("lives" and "moved" the residence, "phone" and "mobile" the phone).
func (a Sig) SharesCue(b Sig) bool {
	for c := range a.s.cues {
		if b.s.cues[c] {
			return true
		}
	}
	return false
}

// Words returns the fact's content words in order, each once, lower-cased
// and lightly stemmed: no stop words, entity names or numbers.
func (a Sig) Words() []string { return a.s.words }

// VersionsDiffer reports whether two facts name different versions of one
// thing ("Debian 12" and "Debian 13", "release 0.5" and "release 0.6").
func (a Sig) VersionsDiffer(b Sig) bool {
	for w, v := range a.s.versions {
		if u, ok := b.s.versions[w]; ok && u != v {
			return true
		}
	}
	return false
}

// NewSigAbout makes the signature of an item about the entities keys,
// which stand for its own (a line of a daily log carries none: the
// caller finds the entities it names).
func NewSigAbout(it memory.Item, keys []string) Sig {
	s := signature(it)
	if keys != nil {
		s.keys = keys
	}
	return Sig{s}
}

// Item returns the item the signature was made of.
func (a Sig) Item() memory.Item { return a.s.it }

// Keys returns the keys the fact is compared by: its entities' keys
// (memory.EntityKey), or the subject it opens with (SubjectOf).
func (a Sig) Keys() []string { return a.s.keys }

// When returns the fact's time in the order of versions: the day it was
// written, the start of the event a curated fact tells, else a time after
// every log (a curated fact is the current state until a log replaces it).
func (a Sig) When() time.Time { return a.s.when }

// Curated reports whether the fact is curated (bank/, memory.md: no day
// written).
func (a Sig) Curated() bool { return a.s.curated }

// AsOf returns the day an undated curated fact holds as of: the latest
// day it names, or the latest log that says what it says (DateBy); zero
// when none.
func (a Sig) AsOf() time.Time { return a.s.asOf }

// NamesAttribute reports whether the fact names an attribute by a cue
// word (Cues).
func (a Sig) NamesAttribute() bool { return len(a.s.cues) > 0 }

// HasCue reports whether the fact names the attribute class by a cue
// word (Cues).
func (a Sig) HasCue(class string) bool { return a.s.cues[class] }

// SameAttribute reports whether two facts about a shared entity state the
// same attribute, by the rules of update-awareness above.
func (a Sig) SameAttribute(b Sig) bool { return sameAttribute(a.s, b.s) }

// Supersedes reports whether a supersedes b, given they state the same
// attribute: the later one, a curated one unless a log replaces it
// (ReplacesCurated), or the later line of one day's file.
func (a Sig) Supersedes(b Sig) bool { return later(a.s, b.s) }

// ProsePair reports whether a and b are a curated line and a log line of
// prose (or a typed world fact) that name the same attribute of a shared
// entity by a cue, neither restating the other.
func (a Sig) ProsePair(b Sig) bool { return prosePair(a.s, b.s) }

// ReplacesCurated reports whether log, a fact of a daily log, replaces
// curated, a curated fact of the same attribute (see replacesCurated).
func (log Sig) ReplacesCurated(curated Sig) bool { return replacesCurated(log.s, curated.s) }

// Cues returns a copy of the attribute cues: each cue word with the
// attribute it names ("lives" and "moved" the residence, "phone" and
// "mobile" the phone).
func Cues() map[string]string { return maps.Clone(attributeCues) }
