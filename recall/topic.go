package recall

import (
	"strings"

	"memoria/change"
	"memoria/lang"
	"memoria/query"
)

// aboutQuery reports whether a candidate is about the query (Plan.Floor).
func aboutQuery(p Plan, c *candidate) bool {
	// One of the query's words that carry its topic, or two of any: a
	// light verb alone ("see" in "which vet does Biscuit see?") is too
	// little.
	if tw := c.text(); p.heavy.saidIn(tw) || p.topic.countIn(tw) >= 2 {
		return true
	}
	if _, ok := c.ranks["ongoing"]; ok {
		return true
	}
	if len(p.Entities) > 0 {
		for _, ch := range []string{"entity", "opinion"} {
			if _, ok := c.ranks[ch]; ok {
				return true
			}
		}
	}
	if r, ok := c.ranks["semantic"]; ok && r > 0 && c.raw["semantic"] >= p.nearCosine() {
		return true
	}
	return false
}

// lightVerbs say little of a topic on their own (lang.LightVerbs).
var lightVerbs = lang.WordSet(lang.LightVerbs)

// topicOf is the topic of the query's planned terms, without the words
// that ask for a time or for anything that happened.
func topicOf(terms []string) topicWords {
	var words []string
	for _, w := range terms {
		if !nowWords[w] && !query.IsGenericWord(w) && !query.IsStopWord(w) {
			words = append(words, w)
		}
	}
	return newTopicWords(words)
}

// nowWords place a question in the present without naming a topic
// (lang.PresentWords).
var nowWords = lang.WordSet(lang.PresentWords)

// topicWords are the content words of a query's topic (no stop words, no
// names), as stems, and the attributes they name (attributeCues).
type topicWords struct {
	stems []string
	cues  map[string]bool
}

func newTopicWords(topic []string) topicWords {
	t := topicWords{cues: map[string]bool{}}
	for _, w := range topic {
		if query.IsStopWord(w) {
			continue
		}
		t.stems = append(t.stems, change.Stem(w))
		if c, ok := attributeCues[w]; ok {
			t.cues[c] = true
		}
	}
	return t
}

// said reports whether text says something the topic asks about: one of
// its content words (by stem, or a word that starts with one: "deploy"
// finds "deployment"), or another word for the same attribute ("hosted"
// finds "Deployed on Fly.io"). A topic of stop words alone finds every
// text.
func (t topicWords) said(text string) bool { return t.saidIn(wordsOf(text)) }

// textWords are a text's words (change.SplitWords), cut once for the several
// questions the features ask of one candidate.
type textWords struct{ words []string }

func wordsOf(text string) textWords { return textWords{change.SplitWords(text)} }

// says reports whether the word w is the stem s or starts with it. A stem
// only strips an ending, so a word that does not begin as s does is
// neither, and most words are not stemmed at all: a recall asks this of
// every word of every candidate.
func says(w, s string) bool {
	if s == "" {
		return true
	}
	if w == "" || w[0] != s[0] {
		return false
	}
	return strings.HasPrefix(w, s) || change.Stem(w) == s
}

// countIn is how many of the topic's words a text says.
func (t topicWords) countIn(tw textWords) int {
	n := 0
	for _, s := range t.stems {
		for _, w := range tw.words {
			if says(w, s) {
				n++
				break
			}
		}
	}
	return n
}

func (t topicWords) saidIn(tw textWords) bool {
	if len(t.stems) == 0 {
		return true
	}
	for _, w := range tw.words {
		if len(t.cues) > 0 && t.cues[attributeCues[w]] {
			return true
		}
		for _, s := range t.stems {
			if says(w, s) {
				return true
			}
		}
	}
	return false
}
