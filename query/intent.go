package query

import (
	"slices"
	"strings"

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

// Markers of each intent (lang's tables), as lower-cased word sequences.
// A trailing '*' matches any word with that prefix.
var (
	decisionMarkers = markers(lang.AsksDecision)
	opinionMarkers  = markers(lang.AsksOpinion)
	currentMarkers  = markers(lang.AsksNow)
	pastMarkers     = markers(lang.AsksPast)
	aboutMarkers    = markers(lang.AsksAbout)
	suggestMarkers  = markers(lang.AsksSuggestion)
	likeAux         = lang.WordSet(lang.LikeAuxiliaries)
	pastVerbs       = lang.WordSet(lang.PastVerbs)
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
	dec := firstMarker(in.words, decisionMarkers)
	op := firstOpinion(in.words)
	if i := likeOpinion(in.words); i >= 0 && (op < 0 || i < op) {
		op = i
	}
	switch {
	case dec >= 0 && (op < 0 || dec <= op):
		return Decision
	case firstMarker(in.words, suggestMarkers) >= 0:
		return Suggest
	case op >= 0:
		return Opinion
	case firstMarker(in.words, currentMarkers) >= 0 && !ordersInTime(in.words):
		return Current
	case firstMarker(in.words, pastMarkers) >= 0:
		return Past
	case in.pastWindow && hasAny(in.words, pastVerbs):
		return Past
	case firstMarker(in.words, aboutMarkers) >= 0:
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
		if framesChoiceAt(ws, i) {
			continue
		}
		for _, m := range opinionMarkers {
			if MarkerAt(ws, i, m) {
				return i
			}
		}
	}
	return -1
}

// ordersInTime reports whether a question asks for things in order of
// time ("from earliest to latest"): its "latest" is then the last of
// them, not now. It says so only when "latest" is its one marker of now.
func ordersInTime(ws []string) bool {
	if !slices.Contains(ws, "earliest") {
		return false
	}
	for i := range ws {
		for _, m := range currentMarkers {
			if MarkerAt(ws, i, m) && !(len(m) == 1 && m[0] == "latest") {
				return false
			}
		}
	}
	return true
}

// firstMarker returns the index of the first word where any marker starts, or -1.
func firstMarker(ws []string, markers [][]string) int {
	for i := range ws {
		for _, m := range markers {
			if MarkerAt(ws, i, m) {
				return i
			}
		}
	}
	return -1
}

// MarkerAt reports whether the words from i on begin with marker m: a
// sequence of lower-cased words, where a trailing '*' on one matches any
// word with that prefix.
func MarkerAt(ws []string, i int, m []string) bool {
	if i+len(m) > len(ws) {
		return false
	}
	for k, p := range m {
		w := ws[i+k]
		if pre, ok := strings.CutSuffix(p, "*"); ok {
			if !strings.HasPrefix(w, pre) {
				return false
			}
		} else if w != p {
			return false
		}
	}
	return true
}

// markers splits each phrase of a lang table into its words.
func markers(phrases []string) [][]string {
	out := make([][]string, len(phrases))
	for i, p := range phrases {
		out[i] = strings.Split(p, " ")
	}
	return out
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

func hasAny(ws []string, set map[string]bool) bool {
	for _, w := range ws {
		if set[w] {
			return true
		}
	}
	return false
}
