package query

import (
	"slices"

	"memoria/lang"
)

// Intent is what kind of answer a query asks for; recall uses it to weigh
// its channels.
type Intent uint8

// The intents.
const (
	Search   Intent = iota // anything else: a plain search
	About                  // "tell me about X", "who is X", or just a name
	Opinion                // "what does X prefer / think / like"
	Decision               // "what did we decide about X"
	Current                // "what is X now", "where is X currently"
	Past                   // "what was true during …", "where did X use to live"
	Suggest                // "can you suggest / recommend …", "any tips for …"
)

var intentNames = [...]string{"search", "about", "opinion", "decision", "current", "past", "suggest"}

// String is the intent's lower-case name.
func (i Intent) String() string {
	if int(i) < len(intentNames) {
		return intentNames[i]
	}
	return "search"
}

// Markers of each intent (lang's tables).
var (
	decisionMarkers = lang.NewPhrases(lang.AsksDecision)
	opinionMarkers  = lang.NewPhrases(lang.AsksOpinion)
	currentMarkers  = lang.NewPhrases(lang.AsksNow)
	pastMarkers     = lang.NewPhrases(lang.AsksPast)
	aboutMarkers    = lang.NewPhrases(lang.AsksAbout)
	suggestMarkers  = lang.NewPhrases(lang.AsksSuggestion)
	likeAux         = lang.WordSet(lang.LikeAuxiliaries)
	pastVerbs       = lang.WordSet(lang.PastVerbs)
	// nowButLatest are the markers of now but "latest" (ordersInTime).
	nowButLatest = lang.NewPhrases(slices.DeleteFunc(slices.Clone(lang.AsksNow), func(p string) bool { return p == "latest" }))
)

// intentInput is what detectIntent looks at.
type intentInput struct {
	words      []string // every word of the text, lower-cased, in order
	hasWindow  bool     // a time phrase or flag gave a window
	pastWindow bool     // … that does not start after today
	onlyNames  bool     // the text names entities and has no other content words
}

// detectIntent reads the intent from the original words. Decision and
// Opinion come first, whichever is named earlier ("what does Peter think
// of the decision" is an opinion); then Current, Past, About, Search.
func detectIntent(in intentInput) Intent {
	dec := decisionMarkers.First(in.words)
	op := firstOpinion(in.words)
	if i := likeOpinion(in.words); i >= 0 && (op < 0 || i < op) {
		op = i
	}
	switch {
	case dec >= 0 && (op < 0 || dec <= op):
		return Decision
	case suggestMarkers.First(in.words) >= 0:
		return Suggest
	case op >= 0:
		return Opinion
	case currentMarkers.First(in.words) >= 0 && !ordersInTime(in.words):
		return Current
	case pastMarkers.First(in.words) >= 0:
		return Past
	case in.pastWindow && slices.ContainsFunc(in.words, func(w string) bool { return pastVerbs[w] }):
		return Past
	case aboutMarkers.First(in.words) >= 0:
		return About
	case in.onlyNames && !in.hasWindow:
		return About
	}
	return Search
}

// firstOpinion returns the index of the first opinion marker in ws, or
// -1. The "rather" of a choice frame is none: "why X rather than Y?"
// compares two options and asks for a choice (asksChoice), not for what
// someone would rather.
func firstOpinion(ws []string) int {
	for i := range ws {
		if !framesChoiceAt(ws, i) && opinionMarkers.At(ws, i) {
			return i
		}
	}
	return -1
}

// ordersInTime reports whether a question asks for things in order of
// time ("from earliest to latest"): its "latest" is then the last of
// them, not now. It says so only when "latest" is its one marker of now.
func ordersInTime(ws []string) bool {
	return slices.Contains(ws, "earliest") && nowButLatest.First(ws) < 0
}

// likeOpinion finds "like" after an auxiliary of a question: "does Peter
// like", "what would she like". It returns the index of "like" or -1.
func likeOpinion(ws []string) int {
	aux := false
	for i, w := range ws {
		if likeAux[w] {
			aux = true
		}
		if w == "like" && aux {
			return i
		}
	}
	return -1
}
