package reflect

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"memoria/change"
	"memoria/lang"
	"memoria/markdown"
	"memoria/memory"
)

// Stale curated lines. A curated statement (a sentence of an entity page
// outside the managed block, or a world fact of bank/world.md) is stale
// when the newest fact of the daily logs about the same entity and
// attribute says otherwise (change.Replaces: "Lives in Vienna." and, later,
// "Moved to Graz."), and no later fact restates it. Reflect marks it where
// it stands: the old text stays, struck through, followed by the current
// value and the citation of the fact that changed it. memory.md is never
// rewritten; its stale statements become core proposals instead.

// StaleTag ends the note reflect writes after a stale statement. A
// statement already marked (with the tag, whatever a person did to it
// since) is never marked again.
const StaleTag = "marked stale by memoria reflect"

// StaleMark reports one curated statement reflect marked as stale (or,
// in memory.md, proposed to change).
type StaleMark struct {
	Path    string `json:"path"`    // the curated file
	Line    int    `json:"line"`    // where the statement starts (1-based)
	Old     string `json:"old"`     // the statement, on one line
	Current string `json:"current"` // the fact that replaced it
	By      string `json:"by"`      // that fact's source
	Day     string `json:"day"`     // the day that fact was written
}

// statement is a sentence of a curated file: its bytes [start, end) in the
// file, the line it starts on and its text.
type statement struct {
	start, end int
	line       int
	text       string
	heading    string // the heading the statement stands under, without its #s ("" if none)
	unit       string // the paragraph or list item it is a sentence of
	marked     bool   // struck through by an earlier reflect: never marked again
}

// markedRun matches what StaleMark writes: "~~old~~ (now: … StaleTag)",
// the old text its group, after a typed fact's kind letter (kindLetter).
var (
	markedRun  = regexp.MustCompile(`(?s)~~(.*?)~~ \(now: [^()]*?` + regexp.QuoteMeta(StaleTag) + `\)`)
	kindLetter = regexp.MustCompile(`^[WBOS](?:\(c=[0-9.]+\))?:?\s+`)
)

// curatedStatements splits a curated Markdown file into statements: the
// sentences of its paragraphs and list items, leaving out front matter,
// headings, code, tables, HTML comments and reflect's managed blocks. What
// reflect marked before is returned marked, with no place in the file.
func curatedStatements(data []byte) []statement {
	r := newCuratedReader(string(data))
	for li, start := range r.lineStarts {
		end := len(r.s)
		if li+1 < len(r.lineStarts) {
			end = r.lineStarts[li+1]
		}
		line := strings.TrimRight(r.s[start:end], "\r\n")
		if !r.outside(li, strings.TrimSpace(line)) {
			r.add(start, line)
		}
	}
	r.flush()
	return r.out
}

// curatedReader reads a curated file's statements unit by unit: a
// paragraph or a list item, as its lines come.
type curatedReader struct {
	s          string
	skip       []bool // bytes that are no statement's: what reflect marked before
	lineStarts []int
	// Inside front matter, a code fence or a managed block.
	inFront, inFence, inBlock bool
	heading                   string
	unit                      [2]int // the current unit's text bytes; unit[1] == 0: none
	out                       []statement
}

func newCuratedReader(s string) *curatedReader {
	r := &curatedReader{s: s, skip: make([]bool, len(s)), lineStarts: []int{0}}
	for _, m := range markedRun.FindAllStringIndex(s, -1) {
		for i := m[0]; i < m[1]; i++ {
			r.skip[i] = true
		}
	}
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			r.lineStarts = append(r.lineStarts, i+1)
		}
	}
	return r
}

func (r *curatedReader) lineOf(off int) int {
	i, _ := slices.BinarySearch(r.lineStarts, off+1)
	return i
}

// outside reports whether line li (t, trimmed) holds no statement: front
// matter, a code fence, a managed block, a blank line, a heading, a
// table, an HTML comment or a quote. Those but the inside of a block end
// the unit before them.
func (r *curatedReader) outside(li int, t string) bool {
	switch {
	case li == 0 && t == "---":
		r.inFront = true
	case r.inFront:
		r.inFront = t != "---" && t != "..."
	case strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~"):
		r.flush()
		r.inFence = !r.inFence
	case r.inFence:
	case strings.HasPrefix(t, markdown.ManagedBegin) || strings.HasPrefix(t, "<!-- memoria:edited:"):
		r.flush()
		r.inBlock = true
	case r.inBlock:
		r.inBlock = !strings.HasPrefix(t, markdown.ManagedEnd) && !strings.HasPrefix(t, EditedEnd)
	case t == "" || strings.HasPrefix(t, "#") || strings.HasPrefix(t, "|") || strings.HasPrefix(t, "<!--") || strings.HasPrefix(t, ">"):
		r.flush()
		if strings.HasPrefix(t, "#") {
			r.heading = strings.TrimSpace(strings.TrimLeft(t, "#"))
		}
	default:
		return false
	}
	return true
}

// add reads a line of text starting at byte start: it starts a unit (a
// list item, or a paragraph after none or after deep indentation) or
// continues the current one.
func (r *curatedReader) add(start int, line string) {
	indent := len(line) - len(strings.TrimLeft(line, " \t"))
	if m, ok := markdown.ItemStart(line); ok {
		r.flush()
		r.unit = [2]int{start + m, start + len(line)}
		return
	}
	if r.unit[1] == 0 || indent > 8 {
		r.flush()
		r.unit = [2]int{start + indent, start + len(line)}
		return
	}
	r.unit[1] = start + len(line) // a continuation line
}

// flush ends the current unit, adding its statements. A unit holding a
// mark, whatever a person made of it since, is left as it is: reflect
// marks once, people decide after. What it struck through is returned as
// marked.
func (r *curatedReader) flush() {
	from, to := r.unit[0], r.unit[1]
	r.unit = [2]int{}
	if to <= from {
		return
	}
	unit := r.s[from:to]
	if strings.Contains(unit, StaleTag) {
		for _, m := range markedRun.FindAllStringSubmatch(unit, -1) {
			text := strings.Join(strings.Fields(strings.TrimPrefix(m[1], kindLetter.FindString(m[1]))), " ")
			r.out = append(r.out, statement{line: r.lineOf(from), text: text, heading: r.heading, unit: unit, marked: true})
		}
		return
	}
	for _, st := range sentences(r.s, from, to, r.skip, r.lineOf) {
		st.heading, st.unit = r.heading, unit
		r.out = append(r.out, st)
	}
}

// kindPrefix matches the kind letter of a typed fact after its list marker,
// up to where its statement starts.
var kindPrefix = regexp.MustCompile(`^\s*(?:[-*+]|\d+[.)])\s+([WBOS](?:\(c=[0-9.]+\))?:?\s+)$`)

// sentences cuts s[from:to] into sentences (markdown.SentenceEnd).
func sentences(s string, from, to int, skip []bool, lineOf func(int) int) []statement {
	var out []statement
	start := -1
	emit := func(end int) {
		if start < 0 {
			return
		}
		text := strings.Join(strings.Fields(s[start:end]), " ")
		if len(text) >= 8 {
			out = append(out, statement{start: start, end: end, line: lineOf(start), text: text})
		}
		start = -1
	}
	for i := from; i < to; i++ {
		if skip[i] {
			emit(i)
			continue
		}
		c := s[i]
		if start < 0 {
			if c == ' ' || c == '\t' || c == '\n' || c == '\r' {
				continue
			}
			start = i
		}
		if c == '.' || c == '!' || c == '?' {
			if end := markdown.SentenceEnd(s[:to], i); end > 0 {
				i = end - 1
				emit(end)
			}
		}
	}
	// The end of the unit, without trailing white space.
	if end := from + len(strings.TrimRight(s[from:to], " \t\r")); start >= 0 && start < end {
		emit(end)
	}
	return out
}

// staleIn finds the stale statements of a curated file and returns the
// file with each marked (or, when mark is false, unchanged) and the marks.
// page is the slug of the entity the file is the page of ("" for other
// files). Facts are the daily logs' facts by entity key, oldest first;
// prose the sentences of their narrative that say a change (prose.go).
func staleIn(path string, data []byte, page string, byKey map[string][]*fact, prose []*fact, res *resolver, mark bool) ([]byte, []StaleMark) {
	all := checkedStatements(data, page, byKey, res)
	best, tied := tieProse(all, page, prose, res)
	var stale []statement
	var marks []StaleMark
	for _, c := range all {
		if c.st.marked {
			continue // it takes part in tieProse only: reflect marks once
		}
		cands := c.cands
		for f, n := range c.replaced {
			if n == best[f] && n >= tied[f] {
				cands = append(cands, f)
			}
		}
		by := newestChange(c.st, c.text, c.value, c.ents, cands, res)
		if by == nil {
			continue
		}
		stale = append(stale, c.st)
		marks = append(marks, StaleMark{Path: path, Line: c.st.line, Old: c.st.text, Current: strings.Join(strings.Fields(by.Text), " "), By: by.Source.String(), Day: day(by.Written)})
	}
	if !mark || len(stale) == 0 {
		return data, marks
	}
	return strike(data, stale, marks), marks
}

// checked is a curated statement the check compares, with what it is
// compared by.
type checked struct {
	st    statement
	text  string // without a leading mention
	value string // what gives its values: after its label, if a field
	ents  []string
	cands []*fact // the typed facts of its entities

	// What changes said in prose are compared with (tieProse):
	said     *change.Statement
	inText   func(string) bool // names in the statement (resolver.namesIn)
	entities []string          // ents, without the words it opens with (change.IsSubjectKey)
	curated  *change.Sig       // made on first use
	// valueNames: on a page, a line that gives someone as its value
	// ("Treasurer: Raymond Thibodeau" on the choir's page) is about them
	// too for a sentence that names them: "the new treasurer is Louise
	// Caron, and Raymond is staying on the committee".
	valueNames []string
	// replaced are the changes said in prose that would outdate it, with
	// the topic words each shares with it.
	replaced map[*fact]int
}

// checkedStatements returns the statements of a curated file the check
// compares: those about an entity (statementEntities), but rules for the
// agent and lines a person struck through.
func checkedStatements(data []byte, page string, byKey map[string][]*fact, res *resolver) []*checked {
	var all []*checked
	for _, st := range curatedStatements(data) {
		if !st.marked && strings.Contains(st.text, "~~") {
			continue
		}
		ents, ok := statementEntities(st, page, res)
		if !ok {
			continue
		}
		text := withoutLeadingMention(st.text)
		if instruction(text) {
			continue
		}
		c := &checked{st: st, text: text, value: text, ents: ents}
		// A field's label ("UPI ID: …") names the attribute; its values
		// are what follows.
		if _, v, ok := change.Labelled(text); ok {
			c.value = v
		}
		for _, e := range ents {
			c.cands = append(c.cands, byKey[e]...)
		}
		c.inText, c.entities = res.namesIn(text), slices.DeleteFunc(slices.Clone(ents), change.IsSubjectKey)
		c.said = change.NewStatement(text, c.inText)
		c.said.Page = page != ""
		if page != "" {
			c.valueNames = slices.DeleteFunc(res.named(text), func(k string) bool { return k == page })
		}
		all = append(all, c)
	}
	return all
}

// tieProse finds the changes said in prose that would outdate each
// statement (checked.replaced). One sentence of prose changes one thing:
// of the statements of this file it would outdate, it may only outdate
// the one it shares the most words with (best), and none when two share
// as many (best is -1): "moved the dogs to Clutha Vets" changes "Vet for
// the dogs: …", not "Dogs: Tui and Bess". Statements marked before count
// too, so that a second run marks no runner-up.
//
// tied is, for each sentence, the most words it shares with a field it
// names by its whole label, whether or not it outdates it: a sentence
// about one field ("Ethan's Chinese tuition with Mdm Lee is now on
// Sundays" and "Chinese tuition: Saturdays 10am with Mdm Lee") outdates
// no other field that shares fewer of its words ("Maths tuition:
// Wednesdays …").
func tieProse(all []*checked, page string, prose []*fact, res *resolver) (best, tied map[*fact]int) {
	best, tied = map[*fact]int{}, map[*fact]int{}
	for _, c := range all {
		for _, f := range prose {
			t, head, value, ok := c.tie(f, page)
			if !ok {
				continue
			}
			if t == change.TieHead && namesLabel(c.text, f.change.Said) {
				tied[f] = max(tied[f], c.said.Shared(f.change))
			}
			if !c.outdated(f, t, head, value, res) {
				continue
			}
			if c.replaced == nil {
				c.replaced = map[*fact]int{}
			}
			n := c.said.Shared(f.change)
			c.replaced[f] = n
			if m, ok := best[f]; !ok || n > m {
				best[f] = n
			} else if n == m {
				best[f] = -1
			}
		}
	}
	return best, tied
}

// tie returns how the change sentence f is tied to the statement
// (change.Statement.Tie), with the head words and the value it compares;
// false when it is not.
func (c *checked) tie(f *fact, page string) (t change.Tie, head []string, value string, ok bool) {
	if page != "" && len(f.keys) == 0 && len(f.around) > 0 && !slices.ContainsFunc(f.around, func(k string) bool { return slices.Contains(c.ents, k) }) {
		// A sentence that names no one, in a paragraph about someone
		// else, says nothing of this page's entity: "Dean told them where
		// to put it. Customers ring the garage mobile now: …" and Gaz's
		// "Mobile: …".
		return change.Untied, nil, "", false
	}
	ents := c.ents
	for _, k := range c.valueNames {
		if slices.Contains(f.keys, k) {
			ents = append(slices.Clip(ents), k)
		}
	}
	t, head, value = c.said.Tie(f.change, f.keys, ents)
	if t == change.Untied && page != "" && len(f.saying) < len(f.keys) && c.said.Shared(f.change) >= 2 {
		// The sentence names someone else only outside the clauses that
		// say its change ("Raymond had the numbers ready; … it was
		// decided: the fee is going up to $140 a year"): that change is
		// this page's when it shares more than one word with the line and
		// names its field's label ("Membership fee: $120 a year"), not
		// another page's "Fee: $180 per rehearsal" or "Ticket sales:
		// section leaders …". Only a tie by the field's label counts.
		t, head, value = c.said.Tie(f.change, f.saying, ents)
		if label, _, ok := change.Labelled(c.text); t != change.TieHead || !ok || !slices.ContainsFunc(head, func(w string) bool {
			return strings.Contains(strings.ToLower(label), w)
		}) {
			return change.Untied, nil, "", false
		}
	}
	return t, head, value, t != change.Untied
}

// outdated reports whether the change sentence f, tied to the statement
// by t, outdates it.
func (c *checked) outdated(f *fact, t change.Tie, head []string, value string, res *resolver) bool {
	inSentence := res.namesIn(f.change.Said)
	isName := func(w string) bool { return c.inText(w) || inSentence(w) }
	if t != change.TieEntity {
		return c.said.Outdated(f.change, head, value, isName)
	}
	// About the statement's entity: the same attribute by a cue ("lives",
	// "moved") and another value (a typed fact's attribute was compared
	// already, in newestChange); or the end of what the statement says
	// ("Marlene stepped down as treasurer" and, on her page, "Club
	// treasurer since 2021").
	if c.curated == nil {
		sig := change.NewSig(memory.Item{Kind: memory.KindWorld, Content: c.text, Entities: c.entities})
		c.curated = &sig
	}
	// The cue is in a clause that says the change: "He talks to me … from
	// a riad roof now, and the long answers live in files" says nothing of
	// where he lives.
	cue := !f.typed && change.NewSig(memory.Item{Kind: memory.KindPassage, Content: f.change.Saying(), Entities: c.entities}).SharesCue(*c.curated)
	return cue && c.said.Outdated(f.change, nil, value, isName) || c.said.Ended(f.change, isName)
}

// strike returns data with each stale statement struck through, followed
// by a note of its mark: what it is now, the source that says so and its
// day.
func strike(data []byte, stale []statement, marks []StaleMark) []byte {
	var b strings.Builder
	s := string(data)
	at := 0
	for i, st := range stale {
		start := st.start
		// A typed fact ("- W @Ana: …") is struck from its kind letter on:
		// the line stops being a fact, so the old value is no longer
		// recalled as the curated current state.
		lineStart := strings.LastIndexByte(s[:start], '\n') + 1
		if m := kindPrefix.FindStringSubmatchIndex(s[lineStart:start]); m != nil {
			start = lineStart + m[2]
		}
		m := marks[i]
		now := strings.NewReplacer("(", "[", ")", "]", "~~", "~", "<!--", "<!-").Replace(m.Current)
		fmt.Fprintf(&b, "%s~~%s~~ (now: %s — %s, %s; %s)", s[at:start], s[start:st.end], now, m.By, m.Day, StaleTag)
		at = st.end
	}
	b.WriteString(s[at:])
	return []byte(b.String())
}

// statementEntities returns the entities a curated statement is about
// (the page's, its mentions and, outside pages, the names and heading it
// names and the word it opens with), or false when it is none the check
// compares: about nothing known, history, a preference, or a page's line
// about someone else.
func statementEntities(st statement, page string, res *resolver) ([]string, bool) {
	text := st.text
	var ents []string
	if page != "" {
		ents = append(ents, page)
	}
	ents = res.addSlugs(ents, markdown.Mentions(text))
	if page == "" {
		// Outside entity pages, a known entity's name counts as a
		// mention ("Noor lives in Rotterdam" in memory.md), and so does
		// a heading that is an entity's name ("## Ridge House (B&B)"
		// over "- Room rate is $240 a night").
		for _, w := range strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '-' }) {
			if k, ok := res.byKey[memory.EntityKey(w)]; ok && unicode.IsUpper([]rune(w)[0]) {
				ents = addKey(ents, k)
			}
		}
		if k := headingEntity(st.heading, res); k != "" {
			ents = addKey(ents, k)
		}
		// A statement is also about the word it opens with, as a log's
		// world fact that names no entity is (change.SubjectOf): "The ute
		// is a white Hilux (Callum's)".
		if k := change.SubjectOf(withoutLeadingMention(text)); k != "" {
			ents = addKey(ents, k)
		}
	}
	if rel, keys := relativeOf(withoutLeadingMention(text), page, res); rel {
		// A relative's attribute ("Thomas, Peter's older brother, lives
		// in Graz"): the relative's, when a known entity, or no one's the
		// check compares.
		if page != "" || len(keys) == 0 {
			return nil, false
		}
		ents = keys
	}
	if len(ents) == 0 || historical(text) || preference(text) {
		return nil, false
	}
	if page != "" && otherSubject(text, page, res) {
		return nil, false // "Mother Ingrid lives downstairs" on Peter's page
	}
	return ents, true
}

// newestChange returns the fact that outdates a curated statement (text,
// without a leading mention; value, what gives its values), or nil: of
// the candidate facts written after the statement's day, the newest that
// speaks of the same attribute decides. A restatement confirms the
// statement, another value makes it stale. A change in prose among the
// candidates was found to give another value (staleIn).
func newestChange(st statement, text, value string, ents []string, cands []*fact, res *resolver) *fact {
	if len(cands) == 0 {
		return nil
	}
	slices.SortFunc(cands, newestFirst)
	byEntity := change.NewSig(memory.Item{Kind: memory.KindWorld, Content: text, Entities: slices.DeleteFunc(slices.Clone(ents), change.IsSubjectKey)})
	var bySubject *change.Sig // made for the first fact of its subject
	// Compared with a fact of its subject, the name it opens with
	// ("Priscilla Wong comes in on Mondays") stands for its entity: it
	// is no value either.
	opening := openingName(text)
	names := res.namesIn(text)
	subjectName := func(w string) bool { return names(w) || slices.Contains(opening, strings.ToLower(w)) }
	// The curated statement is as new as the latest day it, or the
	// item it is a sentence of, names ("Kitchen refitted in spring
	// 2026: … The old range is gone.").
	asOf := change.AsOf(text)
	if u := change.AsOf(st.unit); u.After(asOf) {
		asOf = u
	}
	for i, f := range cands {
		if i > 0 && f == cands[i-1] || f.Kind != memory.KindWorld || (!asOf.IsZero() && !f.Written.After(asOf)) {
			continue
		}
		if f.prose {
			return f
		}
		curated, isName := byEntity, names
		if len(f.keys) == 0 { // a fact of its subject
			if bySubject == nil {
				sig := change.NewSig(memory.Item{Kind: memory.KindWorld, Content: text})
				bySubject = &sig
			}
			curated, isName = *bySubject, subjectName
		}
		if stale, decided := outdates(f, curated, value, isName); decided {
			if stale {
				return f
			}
			return nil
		}
	}
	return nil
}

// newestFirst orders facts newest first; on one day a typed fact before a
// change said in prose (it says it best), then by source, the last first.
func newestFirst(a, b *fact) int {
	if c := b.Written.Compare(a.Written); c != 0 {
		return c
	}
	if a.prose != b.prose {
		if a.prose {
			return 1
		}
		return -1
	}
	return strings.Compare(b.Source.String(), a.Source.String())
}

// outdates compares a typed world fact with a curated statement (curated,
// its signature; value, what gives its values): decided when the fact
// speaks of the statement's attribute, stale when it gives it another
// value.
func outdates(f *fact, curated change.Sig, value string, isName func(string) bool) (stale, decided bool) {
	if f.sig == nil {
		sig := change.NewSig(memory.Item{Kind: memory.KindWorld, Content: f.Text, Entities: f.keys})
		f.sig = &sig
	}
	it := *f.sig
	if it.Restates(curated) {
		return false, true
	}
	if !it.Replaces(curated) {
		return false, false
	}
	// The same value said in other words ("Lives at Lainzer Straße 88"
	// and "Registered his address at Lainzer Straße 88") confirms; only
	// another value, or another version of the same thing, makes the
	// statement stale. A statement that names no value (no name, no
	// number: "Plays the cello in an amateur orchestra") has nothing a
	// fact can outdate; a later fact adds detail to it.
	if !it.VersionsDiffer(curated) && (len(change.Values(value, isName)) == 0 || change.ShareCurrentValue(value, f.Text, isName)) {
		return false, true
	}
	if change.Unchanged(f.Text) {
		// "Eggless pineapple cake stays at ₹600 per kg" keeps its own
		// value: another value than the statement's says it is about
		// something else.
		return false, false
	}
	if !it.VersionsDiffer(curated) && !change.NewValueOfKind(value, f.Text) {
		// "Eggless chocolate truffle cake is now ₹700 per kg" gives
		// "Eggless cakes, …, ordered mostly on WhatsApp" no other name:
		// it speaks of something else.
		return false, false
	}
	return true, true
}

// staleProposals turns stale statements of core memory into proposals for
// review/core-proposals.md (core memory is a person's; reflect never
// rewrites it), each once.
func staleProposals(existing string, marks []StaleMark) []string {
	var out []string
	for _, m := range marks {
		id := proposalID("s_", m.Old+"\x00"+m.By)
		if strings.Contains(existing, "["+id+"]") {
			continue
		}
		out = append(out, fmt.Sprintf("- [ ] Stale: %s#L%d says %q; since %s, %s says: %s [%s]",
			m.Path, m.Line, m.Old, m.Day, m.By, text(m.Current), id))
	}
	return out
}

// historical reports whether a statement is about the past ("Before that:
// a rented flat…", "Used to live in Graz."): history is never stale.
func historical(text string) bool {
	l := change.WithoutDeadlines(strings.ToLower(text))
	return slices.ContainsFunc(lang.PastMarkers, func(w string) bool {
		if w == "until" {
			w += " " // "until 2024": a time follows
		}
		return strings.HasPrefix(l, w) || strings.Contains(l, " "+w)
	})
}

// withoutLeadingMention returns a statement without the mentions that
// open it ("@Peter: Lives in Vienna.", "@Peter @The-Castle: Lives on the
// top floor"): they name the entities, and the statement is what follows.
func withoutLeadingMention(text string) string {
	if i := strings.Index(text, ": "); i > 0 && strings.HasPrefix(text, "@") && !slices.ContainsFunc(strings.Fields(text[:i]), func(w string) bool { return !strings.HasPrefix(w, "@") }) {
		return text[i+2:]
	}
	return text
}

// openingName returns the lower-cased words of the run of capitalised
// words a statement opens with ("Priscilla Wong" of "Priscilla Wong comes
// in on Mondays"), or nil.
func openingName(text string) []string {
	var out []string
	for _, w := range strings.Fields(text) {
		w = strings.Trim(w, ",.;:()\"'’")
		if w == "" || !unicode.IsUpper([]rune(w)[0]) {
			break
		}
		out = append(out, strings.ToLower(w))
	}
	return out
}

// headingEntity returns the entity a heading names as a whole, with or
// without a closing parenthesis ("Ridge House (B&B)"), or "".
func headingEntity(heading string, res *resolver) string {
	if heading == "" {
		return ""
	}
	if i := strings.LastIndexByte(heading, '('); i > 0 && strings.HasSuffix(heading, ")") {
		if k := res.byKey[memory.EntityKey(strings.TrimSpace(heading[:i]))]; k != "" {
			return k
		}
	}
	return res.byKey[memory.EntityKey(heading)]
}

// instruction reports whether a statement is a rule for the agent
// ("Never write Ralph's phone number into these notes", "Do not book
// Tuesdays"): it says what to do, not how things are, so no fact
// outdates it.
func instruction(text string) bool {
	l := strings.ToLower(strings.TrimSpace(text))
	return slices.ContainsFunc(lang.InstructionOpeners, func(p string) bool { return strings.HasPrefix(l, p+" ") })
}

// preference reports whether a statement is a preference ("Likes flat,
// predictable costs"): an opinion, which the opinion rules follow, not a
// world fact.
func preference(text string) bool {
	first, _, _ := strings.Cut(strings.ToLower(strings.TrimSpace(text)), " ")
	return lex().preferenceVerbs[strings.Trim(first, ",.;:")]
}

// otherSubject reports whether a statement of page's entity page is about
// someone or something else: a capitalised word before its predicate (the
// first word in lower case) that is not one of the page's own names
// ("Mother Ingrid lives downstairs", "Peter moved in on October 25" on
// The-Castle's page). A capitalised first word counts only when it names a
// known entity: every sentence starts with a capital ("Lives in
// Rotterdam").
func otherSubject(text, page string, res *resolver) bool {
	if _, _, ok := change.Field(text); ok || strings.HasPrefix(text, "@") {
		return false // "Vet: Dr Fiona McLeod", "UPI ID: …": a field of the page's entity
	}
	for i, w := range strings.Fields(text) {
		w = strings.Trim(w, ",.;:()\"'’")
		w = strings.TrimSuffix(strings.TrimSuffix(w, "'s"), "’s")
		if w == "" {
			continue
		}
		if !unicode.IsUpper([]rune(w)[0]) {
			return false // the predicate starts: its subject was the page's
		}
		if res.slug(w) == page || strings.EqualFold(w, page) || strings.Contains(strings.ToLower(page), strings.ToLower(w)) {
			continue
		}
		if i == 0 && res.byKey[memory.EntityKey(w)] == "" {
			if l := strings.ToLower(w); strings.HasSuffix(l, "s") || strings.HasSuffix(l, "ed") {
				return false // a verb starts the sentence: "Uses Emacs…", "Runs Debian 12…"
			}
			continue
		}
		return true
	}
	return false
}

// isName reports whether a word names a known entity (it says who, not
// what, so it is no value).
func (r *resolver) isName(w string) bool { return r.byKey[memory.EntityKey(w)] != "" }

// namesLabel reports whether a statement is a field (change.Field) whose
// label's every word the sentence says.
func namesLabel(statement, sentence string) bool {
	label, _, ok := change.Field(statement)
	if !ok {
		return false
	}
	l := strings.ToLower(sentence)
	for _, w := range strings.Fields(strings.ToLower(label)) {
		if !strings.Contains(l, w) {
			return false
		}
	}
	return true
}
