package reflect

import (
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"memoria/change"
	"memoria/lang"
	"memoria/markdown"
	"memoria/memory"
)

// Changes said in prose. Most changes people note in a daily log are no
// typed fact: "Switched the club's chandlery account to Albatross Marine
// today", "We've moved the dogs to Clutha Vets in Alexandra". Reflect
// finds the sentences that say one (change.Read reads them, and
// change.Statement tells which curated statement they outdate:
// change/change.go), and the entities each names: by name, alias or a
// person's first name, and for a sentence that opens with a pronoun, whom
// the sentence before names first. A change tied to a statement only by
// an entity both name must also share an attribute cue with it ("lives"
// and "moved": change.Sig.SharesCue), or say that what it says ended
// (staleIn). A typed fact about the statement, when newer or of the same
// day, decides first.

// opensWithPronoun reports whether a sentence opens with a capitalised
// lang.PersonPronouns word: it is about whom the sentence before names
// ("Santosh kaka did his last round. He has moved back to Satara").
func opensWithPronoun(sentence string) bool {
	rest := strings.TrimLeftFunc(sentence, func(r rune) bool { // the first word, by ASCII word characters (regexp's \b)
		return r < utf8.RuneSelf && (r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r))
	})
	first := sentence[:len(sentence)-len(rest)]
	return slices.ContainsFunc(lang.PersonPronouns, func(p string) bool { return first == strings.ToUpper(p[:1])+p[1:] })
}

// proseChanges returns the sentences of the logs' narrative, written up to
// now (zero: all), that say a value changed, as world facts of their
// log's day, keyed by the entities they name; and the typed world facts
// that say one, again.
func proseChanges(in *Input, res *resolver, now time.Time) []*fact {
	var out []*fact
	for _, d := range in.Logs {
		if d.Kind != memory.FileLog || !now.IsZero() && d.Date.After(memory.Day(now)) {
			continue
		}
		for _, p := range d.Passages {
			out = append(out, passageChanges(d, p, res)...)
		}
		// A typed world fact that says a change is read as prose too, tied
		// by the statement's words only (its entities are compared by
		// attribute already, in newestChange): "Sipho Ndlovu is the new
		// treasurer" outdates "Treasurer: Marlene Jacobs".
		for _, f := range d.Facts {
			if f.Kind != memory.KindWorld {
				continue
			}
			ch := change.Read(f.Text, res.isName)
			if ch == nil || ch.Before(d.Date) || len(change.Values(ch.Said, res.isName)) == 0 {
				continue
			}
			keys := res.addSlugs(res.named(f.Text), f.Entities)
			out = append(out, &fact{Fact: f, keys: keys, prose: true, typed: true, change: ch})
		}
	}
	return out
}

// passageChanges returns the change sentences of one passage of log d.
func passageChanges(d *memory.Document, p memory.Passage, res *resolver) []*fact {
	text := blankListMarkers(p.Text)
	skip := make([]bool, len(text))
	lineOf := func(off int) int { return p.Source.Start + strings.Count(text[:off], "\n") }
	sts := sentences(text, 0, len(text), skip, lineOf)
	named := make([][]string, len(sts)) // made when needed: res.named(sts[i].text)
	namedIn := func(i int) []string {
		if named[i] == nil {
			named[i] = res.named(sts[i].text)
			if named[i] == nil {
				named[i] = []string{}
			}
		}
		return named[i]
	}
	var out []*fact
	for i, st := range sts {
		sentence, last := st.text, st.line
		ch := change.Read(sentence, res.isName)
		if ch == nil || ch.Before(d.Date) {
			continue
		}
		// "Aroha changed the Wi-Fi password this morning. New one's
		// SchistStone26.": the value is in the next sentence.
		if len(change.Values(ch.Said, res.isName)) == 0 && i+1 < len(sts) && len(strings.Fields(sts[i+1].text)) <= 8 {
			if joined := change.Read(sentence+" "+sts[i+1].text, res.isName); joined != nil {
				sentence, ch, last = sentence+" "+sts[i+1].text, joined, sts[i+1].line
			}
		}
		if len(change.Values(ch.Said, res.isName)) == 0 && !change.Ends(ch.Said) {
			continue // no new value, and no end of one ("stepped down as secretary")
		}
		keys := res.addSlugs(res.named(sentence), markdown.Mentions(sentence))
		var byPronoun []string
		if opensWithPronoun(sentence) {
			// The pronoun stands for whom the nearest sentence before
			// names first.
			for j := i - 1; j >= 0; j-- {
				if ns := namedIn(j); len(ns) > 0 {
					keys, byPronoun = addKey(keys, ns[0]), ns[:1]
					break
				}
			}
		}
		var around []string
		if len(keys) == 0 && i > 0 {
			around = namedIn(i - 1)
		}
		// Whom the clauses that say the change name: "Raymond had the
		// numbers ready as promised; … it was decided: the fee is going up
		// to $140 a year" changes no line of Raymond's.
		saying := keys
		if say := ch.Saying(); say != ch.Said {
			in := res.named(say)
			for _, m := range markdown.Mentions(say) {
				in = append(in, res.slug(m))
			}
			saying = slices.DeleteFunc(slices.Clone(keys), func(k string) bool { return !slices.Contains(in, k) && !slices.Contains(byPronoun, k) })
		}
		out = append(out, &fact{
			Fact: memory.Fact{Kind: memory.KindWorld, Text: sentence, Source: memory.Source{Path: d.Path, Start: st.line, End: last}, Written: d.Date},
			keys: keys, saying: saying, around: around, prose: true, change: ch,
		})
	}
	return out
}

// blankListMarkers replaces the list markers that open lines of text with
// spaces, keeping every offset.
func blankListMarkers(text string) string {
	b := []byte(text)
	at := 0
	for line := range strings.Lines(text) {
		// No list marker is the common case, told by its first byte.
		if t := strings.TrimLeft(line, " \t"); t != "" && strings.ContainsRune("-*+0123456789", rune(t[0])) {
			if m, ok := markdown.ItemStart(line); ok {
				copy(b[at:at+m], strings.Repeat(" ", m))
			}
		}
		at += len(line)
	}
	return string(b)
}
