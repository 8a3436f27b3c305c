package reflect

import (
	"maps"
	"math"
	"slices"
	"strings"
	"sync"
	"unicode"

	"memoria/change"
	"memoria/lang"
)

// terms is the bag of words a statement is compared by: lower-cased,
// lightly stemmed content words (change.Stem, as recall stems them), stop
// words and negators left out, plus a "~concept" term for every polarity
// word (so that "concise" and "long" both carry "~length" and opposite
// statements still look alike).
type terms map[string]struct{}

// Similarity is the cosine of two statements' term sets, from 0 (nothing
// shared) to 1 (the same terms). It is symmetric and deterministic.
func Similarity(a, b string) float64 { return termsOf(a).cosine(termsOf(b)) }

func (a terms) cosine(b terms) float64 {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	if len(a) > len(b) {
		a, b = b, a
	}
	n := 0
	for t := range a {
		if _, ok := b[t]; ok {
			n++
		}
	}
	return float64(n) / math.Sqrt(float64(len(a))*float64(len(b)))
}

func termsOf(s string) terms {
	ts := terms{}
	for _, w := range words(s) {
		if w.neg || w.end || lex().stop[w.text] {
			continue
		}
		st := change.Stem(w.text)
		if st == "" {
			continue
		}
		ts[st] = struct{}{}
		if p, ok := lex().polarity[w.text]; ok {
			ts["~"+p.Concept] = struct{}{}
		} else if p, ok := lex().polarity[st]; ok {
			ts["~"+p.Concept] = struct{}{}
		}
	}
	return ts
}

// word is one token of a statement.
type word struct {
	text string // lower case
	neg  bool   // a negator ("not", "never", "no longer", "n't")
	end  bool   // a clause boundary (",", ";", ".", "but")
}

// words splits s into lower-case words and clause boundaries, marking
// negators; "n't" becomes its own negator and "no longer" one negator.
func words(s string) []word {
	var out []word
	var cur strings.Builder
	for _, r := range s {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '\'' || r == '’':
			cur.WriteRune(unicode.ToLower(r))
			continue
		case strings.ContainsRune(",;.:!?()\n—–", r):
			out = appendWord(out, cur.String())
			out = append(out, word{text: string(r), end: true})
		default:
			out = appendWord(out, cur.String())
		}
		cur.Reset()
	}
	return appendWord(out, cur.String())
}

// appendWord appends a token of words, lower case: without its quotes and
// its "'s", "n't" as a negator of its own (the auxiliary before it is the
// negation only: "can't", "doesn't"), and "longer" after "no" as "no
// longer".
func appendWord(out []word, w string) []word {
	w = strings.Trim(w, "'’")
	if w == "" {
		return out
	}
	if strings.HasSuffix(w, "n't") || strings.HasSuffix(w, "n’t") {
		if base := strings.TrimSuffix(strings.TrimSuffix(w, "n't"), "n’t"); base != "" && !lex().negatedAux[base] {
			out = append(out, word{text: base})
		}
		return append(out, word{text: "not", neg: true})
	}
	w = strings.TrimSuffix(strings.TrimSuffix(w, "'s"), "’s")
	if n := len(out); n > 0 && w == "longer" && out[n-1].text == "no" {
		out[n-1] = word{text: "no longer", neg: true}
		return out
	}
	return append(out, word{text: w, neg: lex().negators[w], end: lex().clauseJoiners[w]})
}

// lexicon is the lang tables reflect reads statements by, as sets, made on
// first use.
type lexicon struct {
	polarity        map[string]*lang.Pole // by word: "concise" is (length, -1)
	negators        map[string]bool
	negatedAux      map[string]bool // lang.NegatedAuxiliaries
	clauseJoiners   map[string]bool
	stop            map[string]bool // lang.StopWords and lang.StatementStopWords
	relationNouns   map[string]bool
	relationMods    map[string]bool // lang.RelationModifiers
	frameTerms      map[string]bool // the stems of lang.ViewVerbs
	preferenceVerbs map[string]bool
}

var lex = sync.OnceValue(func() *lexicon {
	l := &lexicon{polarity: map[string]*lang.Pole{}, frameTerms: map[string]bool{},
		negators: lang.WordSet(lang.Negators), negatedAux: lang.WordSet(lang.NegatedAuxiliaries), clauseJoiners: lang.WordSet(lang.ClauseJoiners),
		stop: lang.WordSet(slices.Concat(lang.StopWords, lang.StatementStopWords)), relationNouns: lang.WordSet(lang.RelationNouns), relationMods: lang.WordSet(lang.RelationModifiers),
		preferenceVerbs: lang.WordSet(lang.PreferenceVerbs)}
	for i, p := range lang.Polarity {
		for _, w := range p.Words {
			l.polarity[w] = &lang.Polarity[i]
		}
	}
	for _, w := range lang.ViewVerbs {
		l.frameTerms[change.Stem(w)] = true
	}
	return l
})

// stance is a statement's polar content: for each polarity concept
// ("~length") or plain content word, the sign of its first mention (a
// statement's first clause usually carries its claim; "concise replies;
// long content goes into files" is about concise replies).
type stance map[string]int

// stanceOf reads the polar content of s: polarity words have their sign,
// flipped inside a negator's scope (to the end of the clause); plain
// content words are +1, or -1 inside a negation scope.
func stanceOf(s string) stance { return stanceAbout(s, nil) }

// stanceAbout is stanceOf, reading a polarity adjective only when it
// speaks of the statement's topic: one right before a content word the
// topic does not have ("blocked a broken migration", against "the test
// suite is reliable") describes that other thing, not the topic. A nil
// topic reads every polarity word.
func stanceAbout(s string, topic terms) stance {
	st := stance{}
	neg := false
	ws := words(s)
	for i, w := range ws {
		switch {
		case w.end:
			neg = false
			continue
		case w.neg:
			neg = !neg
			continue
		case lex().stop[w.text]:
			continue
		}
		sign := 1
		if neg {
			sign = -1
		}
		k, v := change.Stem(w.text), sign
		if p, ok := lex().polarity[w.text]; ok {
			if topic != nil && p.Concept != "like" && modifiesOther(ws, i, topic) {
				continue
			}
			k, v = "~"+p.Concept, sign*p.Sign
		}
		if _, seen := st[k]; !seen && k != "" {
			st[k] = v // the first mention carries the claim
		}
	}
	if l := strings.ToLower(s); slices.ContainsFunc(lang.NoMore, func(w string) bool { return strings.Contains(l, w) }) {
		// "… anymore" negates its clause after the fact; approximate by
		// treating the preference it states as reversed.
		if v := st["~like"]; v > 0 {
			st["~like"] = -v
		}
	}
	return st
}

// Contradicts reports whether the fact text contradicts the statement,
// offline: they disagree on a polarity concept (concise versus long,
// happy versus unhappy, likes versus dislikes), or one negates a word the
// other asserts ("likes Fly.io" versus "no longer likes Fly.io"), more
// often than they agree on negated or negative-pole content, and at least
// one conflict is on a polarity concept, or two are on plain words, or the
// fact says the view changed ("no longer", "now prefers"). Stating the
// same preference verb ("prefers" in both) is not counted as agreement,
// since "prefers X" and "prefers Y" can oppose; opposing it ("likes"
// against "dislikes", "wants" against "no longer wants") counts twice.
func Contradicts(statement, fact string) bool {
	return reversedComparison(statement, fact) || compareStances(statement, fact).contradicts(fact)
}

// Bears reports whether a fact that is no opinion takes a stance on an
// opinion's statement, and which: it contradicts it (Contradicts), or it
// agrees with it on a polarity concept with no conflict ("W @Ridings: on
// time again, reliable as ever" for "Ridings are reliable on delivery
// times"). A fact that only shares its words takes none: most facts about
// an entity are neither for nor against a view of it.
func Bears(statement, fact string) (bears, supports bool) {
	if reversedComparison(statement, fact) {
		return true, false
	}
	c := compareStances(statement, fact)
	if c.contradicts(fact) {
		return true, false
	}
	return c.conflicts == 0 && c.polarAgrees > 0, true
}

// reversedComparison reports whether a fact compares the two things a
// statement compares the other way round: "Saturday races bring in more
// new members than the twilights do" against "Wednesday twilights bring
// in more new members than the Saturday races do". Each says "than"; what
// the fact puts first the statement puts after its "than", and the other
// way round.
func reversedComparison(statement, fact string) bool {
	sFirst, sSecond, ok := comparedSides(statement)
	if !ok {
		return false
	}
	fFirst, fSecond, ok := comparedSides(fact)
	return ok && shareAny(fFirst, sSecond) && shareAny(fSecond, sFirst) && !shareAny(fSecond, sSecond)
}

// comparedSides returns the stems of the content words on each side of
// the first "than" of s, within its clause, each side without the words
// both share, and whether there is one.
func comparedSides(s string) (first, second map[string]bool, ok bool) {
	var side []map[string]bool
	cur := map[string]bool{}
	for _, w := range words(s) {
		switch {
		case w.end && len(side) == 1:
			return without(side[0], cur), without(cur, side[0]), true
		case w.end:
			cur = map[string]bool{}
		case w.text == "than" && len(side) == 0:
			side = append(side, cur)
			cur = map[string]bool{}
		case !w.neg && !lex().stop[w.text]:
			cur[change.Stem(w.text)] = true
		}
	}
	if len(side) == 1 {
		return without(side[0], cur), without(cur, side[0]), true
	}
	return nil, nil, false
}

func without(a, b map[string]bool) map[string]bool {
	out := maps.Clone(a)
	maps.DeleteFunc(out, func(k string, _ bool) bool { return b[k] })
	return out
}

func shareAny(a, b map[string]bool) bool {
	for k := range a {
		if b[k] {
			return true
		}
	}
	return false
}

// stanceComparison counts how a fact's stance meets a statement's.
type stanceComparison struct {
	conflicts, agrees, polar int // polar: conflicts on a polarity concept
	polarAgrees              int // agreements on a polarity concept other than the preference itself
}

// contradicts reports whether the comparison makes fact a contradiction
// (Contradicts). One negated plain word ("a disk nobody moves" against
// "move it") is too little on its own.
func (c stanceComparison) contradicts(fact string) bool {
	return c.conflicts > c.agrees && (c.polar > 0 || c.conflicts >= 2 || change.Says(fact))
}

func compareStances(statement, fact string) stanceComparison {
	a, b := stanceOf(statement), stanceAbout(fact, termsOf(statement))
	var c stanceComparison
	for k, x := range a {
		y, ok := b[k]
		if !ok || x == 0 || y == 0 {
			continue
		}
		concept := strings.HasPrefix(k, "~")
		if !concept && x > 0 && y > 0 {
			continue // a plain word both assert: neutral
		}
		switch {
		case (x > 0) != (y > 0):
			c.conflicts++
			if k == "~like" {
				c.conflicts++ // the stance itself weighs double
			}
			if concept {
				c.polar++
			}
		case k == "~like" && x > 0:
			// same preference verb, not agreement
		default:
			c.agrees++
			if concept && k != "~like" {
				c.polarAgrees++
			}
		}
	}
	return c
}

// modifiesOther reports whether the polarity word ws[i] stands right before
// a content word (not a polarity word, not a stop word) that topic does
// not hold: an adjective describing something else.
func modifiesOther(ws []word, i int, topic terms) bool {
	if i+1 >= len(ws) {
		return false
	}
	n := ws[i+1]
	if n.end || n.neg || lex().stop[n.text] {
		return false
	}
	if _, ok := lex().polarity[n.text]; ok {
		return false
	}
	_, known := topic[change.Stem(n.text)]
	return !known
}
