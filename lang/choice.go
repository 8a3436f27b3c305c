package lang

// The English words of a choice and its reason. Package query reads
// them in a question, which then asks what was chosen or why
// (Query.Choice: ChoiceCues and AsksReason); package recall in the lines
// it ranks for such a question, which record a choice or give a reason
// (ChoiceCues and GivesReason). A cue is a phrase of lower-case words
// separated by single spaces; a trailing '*' on a word matches any word
// with that prefix.

// ChoiceCues are the cues of a choice, in a question and in a line
// alike: what was chosen ("went with", "settled on", "opted for",
// "picked"), what was turned away ("ruled out", "dropped", "instead",
// "rather than"), and its reason. Where other words of a line begin as a
// cue does, the cue is the word itself ("select", "selected", not
// "selection" nor "selective"; "choice", not "choices", which are
// options). "Stuck with" is none: one is as often stuck with a problem as
// with a choice ("I've been feeling stuck with my paintings" asks for
// ideas).
var ChoiceCues = []string{
	"decid*", "decision*", "chose", "chosen", "choos*", "choice",
	"pick", "picked", "opted", "opting", "opt for",
	"settled on", "settle on", "settling on",
	"went with", "going with", "go with", "gone with",
	"ended up", "end up", "in the end",
	"agreed", "agree on", "voted", "vote", "approved", "select", "selected",
	"switched", "switching", "swapped", "replaced", "replacing",
	"instead", "rather than", "won out",
	"ruled out", "rule out", "off the table", "turned down", "passed on",
	"stick with", "sticking with", "stay with", "staying with",
	"signed with", "plumped for",
	"dropped", "dropping", "abandon*", "ditch*", "scrapped", "rejected",
	"reason", "reasons",
}

// ChoiceCuesNot begin like a cue of ChoiceCues and say no choice: "when
// do I pick up the kids?", "picked up the keys", "she dropped in",
// "switched off the heating".
var ChoiceCuesNot = []string{
	"pick up", "picked up", "dropped in", "dropped off", "dropping off",
	"switched on", "switched off", "switching on", "switching off",
}

// AsksReason are the cues with which a question asks why something was
// done, or chosen: "why did we …", "what made her drop …".
var AsksReason = []string{"why", "how come", "what made", "what led"}

// GivesReason are the cues with which a line gives a reason: "because
// the price rose", "due to the delay".
var GivesReason = []string{"because", "due to", "so that", "given that"}

// ChoiceFrames are the phrases that frame the options a question weighs
// ("why X rather than Y?", "instead of"): they name no topic.
var ChoiceFrames = []string{"rather than", "instead of"}
