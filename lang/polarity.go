package lang

// The words by which a statement takes a side: the ends of the scales a
// view is said on ("concise" against "long"), and the words that negate
// what follows them ("not", "no longer"). Package reflect compares an
// opinion with a later fact by them, to tell whether the fact supports or
// contradicts it. English only, lower case.

// A Pole is one end of a scale a statement can take a side on: the words
// that say Sign (+1 or -1) of Concept, as "long" and "verbose" say +1 of
// "length" and "concise" says -1.
type Pole struct {
	Concept string
	Sign    int
	Words   []string
}

// Polarity is the polarity lexicon: both ends of each scale, each word on
// one end of one scale. A view and a fact that say opposite ends of one
// concept disagree, whatever else they say.
var Polarity = []Pole{
	{"like", +1, []string{"prefer", "prefers", "preferred", "like", "likes", "liked", "love", "loves", "loved", "enjoy", "enjoys", "enjoyed", "want", "wants", "wanted", "favour", "favor", "favours", "favors", "fan", "fond"}},
	{"like", -1, []string{"dislike", "dislikes", "disliked", "hate", "hates", "hated", "avoid", "avoids", "avoided", "detest", "detests", "dread", "dreads", "refuse", "refuses", "refused",
		"skip", "skips", "skipped", "ditch", "ditched", "drop", "drops", "dropped", "abandon", "abandoned", "resent", "resents"}},
	{"length", +1, []string{"long", "longer", "lengthy", "detailed", "verbose", "thorough", "elaborate", "wordy"}},
	{"length", -1, []string{"short", "shorter", "concise", "brief", "terse", "succinct", "compact"}},
	{"quality", +1, []string{"good", "great", "better", "best", "excellent", "reliable", "stable", "solid", "works", "suits", "fine", "helpful", "useful"}},
	{"quality", -1, []string{"bad", "worse", "worst", "poor", "broken", "unreliable", "unstable", "flaky", "buggy", "useless", "terrible", "awful"}},
	{"speed", +1, []string{"fast", "faster", "quick", "quicker", "rapid"}},
	{"speed", -1, []string{"slow", "slower", "sluggish"}},
	{"size", +1, []string{"big", "bigger", "large", "larger", "huge", "grand"}},
	{"size", -1, []string{"small", "smaller", "tiny", "little", "low-key", "intimate"}},
	{"mood", +1, []string{"happy", "happier", "glad", "pleased", "content", "cheerful", "fitter", "healthier"}},
	{"mood", -1, []string{"unhappy", "sad", "sadder", "upset", "annoyed", "angry", "miserable", "sicker"}},
	{"amount", +1, []string{"more", "most", "many", "often", "frequent", "frequently", "always"}},
	{"amount", -1, []string{"less", "least", "fewer", "few", "rarely", "seldom"}},
	{"ease", +1, []string{"easy", "easier", "simple", "simpler"}},
	{"ease", -1, []string{"hard", "harder", "difficult", "complicated", "complex"}},
	{"cost", +1, []string{"expensive", "pricey", "costly"}},
	{"cost", -1, []string{"cheap", "cheaper", "affordable", "inexpensive"}},
	{"agree", +1, []string{"agree", "agrees", "yes", "approve", "approves", "support", "supports"}},
	{"agree", -1, []string{"disagree", "disagrees", "oppose", "opposes", "against", "reject", "rejects"}},
}

// Negators negate what follows them, to the end of their clause: "not
// reliable", "never late", "stopped using Emacs". ("no longer" is "no"
// and "longer" read as one negator.)
var Negators = []string{"not", "no", "never", "without", "nor", "none", "cannot", "nobody", "nothing", "neither", "stopped", "quit"}

// NegatedAuxiliaries are what is left of an auxiliary verb before "n't"
// ("ca" of "can't", "wo" of "won't", "does" of "doesn't"): such a word is
// only the negation, where "n't" after any other word ("mustn't") leaves
// the word and a "not".
var NegatedAuxiliaries = []string{"ca", "wo", "do", "does", "did", "is", "was", "are", "were", "have", "has", "had", "should", "would", "could"}

// ClauseJoiners end a clause as a comma does: what follows "but" or
// "although" is outside a negation before it.
var ClauseJoiners = []string{"but", "although", "though"}

// NoMore words negate a clause from its end ("doesn't like tea anymore"
// states a reversed preference). Matched anywhere in the text.
var NoMore = []string{"anymore", "any more"}
