package lang

// The words that tell what kind of statement a sentence is rather than
// what it says: a view ("thinks the refit was worth it"), a preference
// ("likes flat costs"), a rule for the agent ("never book Tuesdays"), or
// history ("used to live in Graz"). Package reflect leaves such sentences
// of curated files out when it looks for stale ones, and does not count
// a view's framing verb as a shared topic. English, lower case.

// ViewVerbs frame a view ("thinks", "reckons", "finds"): any opinion may
// say them, so two opinions that share one share no topic by it.
var ViewVerbs = []string{
	"think", "thinks", "thought", "believe", "believes", "feel", "feels", "reckon", "reckons", "say", "says",
	"suspect", "suspects", "expect", "expects", "find", "finds", "consider", "considers",
}

// PreferenceVerbs open a statement of a preference or a view ("Likes flat,
// predictable costs", "Thinks the van is too small"): an opinion, not a
// fact about the world.
var PreferenceVerbs = []string{
	"likes", "loves", "prefers", "hates", "dislikes", "wants", "enjoys", "avoids", "refuses", "thinks", "believes", "feels",
}

// InstructionOpeners open a rule for the agent ("Never write Ralph's phone
// number into these notes", "Do not book Tuesdays", "Make sure …"): it
// says what to do, not how things are. Each is followed by a space.
var InstructionOpeners = []string{"never", "always", "do not", "don't", "don’t", "please", "make sure", "remember to"}

// PastMarkers say that a statement is about the past ("Before that: a
// rented flat", "Used to live in Graz", "Until 2024 …", "Earlier: …"),
// at the start of a word. "until" counts before a space only, "earlier:"
// as a label.
var PastMarkers = []string{"before that", "previously", "formerly", "used to", "until", "in the past", "no longer", "back then", "earlier:"}
