package lang

// The English words of a choice: with which a question asks what was
// chosen or why, and with which a line records a choice or gives its
// reason. Package query reads the first in a question (Query.Choice),
// package recall the second in the lines it ranks for such a question. A
// cue is a phrase of lower-case words separated by single spaces; a
// trailing '*' on a word matches any word with that prefix.

// AsksChoice are the cues of a question that asks what was chosen, or
// why something was done: "why did we …", "what did we pick instead of
// …", "what made her drop …", "did we go with … or …". "Stuck with" is
// none: "I've been feeling stuck with my paintings" asks for ideas.
var AsksChoice = []string{
	"why", "how come", "reason", "reasons", "what made", "what led",
	"decid*", "decision*", "chose", "chosen", "choos*", "choice*",
	"pick", "picked", "opt for", "opted", "settle on", "settled on",
	"go with", "went with", "going with", "gone with",
	"end up", "ended up", "instead", "rather than", "agree on", "agreed on",
	"rule out", "ruled out", "abandon*", "ditch*",
	"vote", "voted", "select*",
}

// AsksChoiceNot begin like a cue of AsksChoice and ask for no choice:
// "when do I pick up the kids?". ("Drop" and "switch" are no cues at
// all: "where did I drop off the parcel?", "how do I switch on the
// heating?"; "why did we drop …" has its "why".)
var AsksChoiceNot = []string{"pick up", "picked up"}

// ChoiceFrames are the phrases that frame the options a question weighs
// ("why X rather than Y?", "instead of"): they name no topic.
var ChoiceFrames = []string{"rather than", "instead of"}

// StatesChoice are the cues with which a line records a choice or gives a
// reason: what was chosen ("went with", "settled on", "opted for",
// "picked"), what was turned away ("ruled out", "dropped", "instead",
// "rather than") and why ("because", "due to"). "Stuck with" is none: one
// is as often stuck with a problem as with a choice.
var StatesChoice = []string{
	"decid*", "decision*", "chose", "chosen", "choos*", "choice",
	"picked", "opted", "opting", "opt for",
	"settled on", "settle on", "settling on",
	"went with", "going with", "go with", "gone with",
	"ended up", "end up", "in the end",
	"agreed", "voted", "approved", "selected",
	"switched", "switching", "swapped", "replaced", "replacing",
	"instead", "rather than", "won out",
	"ruled out", "rule out", "off the table", "turned down", "passed on",
	"stick with", "sticking with", "stay with", "staying with",
	"signed with", "plumped for",
	"dropped", "dropping", "abandon*", "ditched", "ditching", "scrapped", "rejected",
	"because", "reason", "reasons", "due to", "so that", "given that",
}

// StatesChoiceNot begin like a cue of StatesChoice and record no choice:
// "picked up the keys".
var StatesChoiceNot = []string{"picked up"}
