package lang

import (
	"slices"
	"strings"
)

// The words with which an English question says what kind of answer it
// wants and whose words it asks for: package query reads a question's
// intent and speaker with them. A cue is a phrase of lower-case words
// separated by single spaces ("tell me about"); a trailing '*' on a word
// matches any word with that prefix ("decid*": decide, decided,
// deciding). A few are "who is" in the other languages whose words the
// index stems or folds (docs/multilingual.md).

// AsksDecision are the cues of a question about what was decided.
var AsksDecision = []string{
	"decid*", "decision*", "agreed", "agree on", "chose", "chosen",
	"settled on", "concluded", "conclusion*", "resolved",
}

// AsksOpinion are the cues of a question about what someone prefers,
// thinks or likes, and what they refuse, avoid or will not put up with:
// the same question about a preference, asked from the other side.
var AsksOpinion = []string{
	"prefer*", "favorite*", "favourite*", "opinion*", "think", "thinks",
	"thought about", "thought of", "feel about", "feels about",
	"felt about", "likes", "liked", "dislike*", "love", "loves",
	"loved", "hate", "hates", "hated", "enjoy*", "believe*", "belief*",
	"view on", "views on", "stance", "taste*", "rather",
	"refuse*", "avoid*", "tolerat*", "allergic", "annoy*", "irritat*",
	"stand", "accept", "bother*", "mind",
}

// AsksNow are the cues of a question about the present: what is true now.
var AsksNow = []string{
	"now", "currently", "current", "nowadays", "presently", "these days",
	"at the moment", "at present", "still", "anymore", "latest",
}

// PresentWords are the words of a question that only place it in the
// present, naming no topic ("where is Ana right now?", "what does she
// drive today?"): the words of AsksNow, and "right" and "today".
var PresentWords = func() []string {
	words := []string{"right", "today"}
	for _, cue := range AsksNow {
		for _, w := range strings.Fields(cue) {
			if !slices.Contains(words, w) {
				words = append(words, w)
			}
		}
	}
	return words
}()

// LightVerbs say little of a topic on their own ("which vet does Biscuit
// see?", "what did we get done?"), in their English forms.
var LightVerbs = []string{
	"see", "saw", "seen", "sees", "seeing", "get", "gets", "got", "getting", "go", "goes", "went", "gone", "going",
	"make", "makes", "made", "take", "takes", "took", "taken", "give", "gives", "gave", "given", "come", "comes", "came",
	"put", "puts", "use", "uses", "used", "using", "find", "found", "keep", "keeps", "kept", "let", "lets", "seem", "seems",
	"look", "looks", "looked", "want", "wants", "need", "needs", "try", "tried",
}

// AsksPast are the cues of a question about what was true before.
var AsksPast = []string{
	"used to", "use to", "previously", "formerly", "former",
	"back then", "at the time", "in the past", "originally",
	"what was true", "what were",
}

// AsksAbout are the cues of a question about an entity as a whole ("tell
// me about X", "who is X"), in English and as "who is" in Russian,
// German, French, Spanish, Italian, Portuguese and Dutch.
var AsksAbout = []string{
	"tell me about", "tell me more about", "who is", "who s",
	"who was", "who are", "who were", "know about",
	"everything about", "anything about", "info on", "info about",
	"information on", "information about", "background on",
	"describe", "summary of", "summarize", "summarise", "profile of",
	"кто такой", "кто такая", "кто такие", "wer ist", "wer war",
	"qui est", "quién es", "quien es", "chi è", "chi era",
	"quem é", "wie is",
}

// AsksSuggestion are the cues of a question that asks for advice fitted
// to the person: the answer rests on what they said about themselves.
var AsksSuggestion = []string{
	"suggest", "suggestion*", "recommend", "recommendation*", "any ideas", "some ideas", "tips", "advice",
	"what should i", "help me choose", "help me pick", "help me find",
}

// LikeAuxiliaries make a following "like" an opinion ("does Peter like
// …", "what would she like"), which it is not in "what is Marrakech
// like".
var LikeAuxiliaries = []string{"do", "does", "did", "would", "d"}

// PastVerbs, in a question with a time window that has begun, make it a
// question about the past ("where was Peter in May").
var PastVerbs = []string{"was", "were", "had"}

// AsksAssistant are the cues of a question about what the assistant said
// or wrote in a chat, or about a conversation as a whole.
var AsksAssistant = []string{
	"you said", "you say", "you told", "you tell", "you mentioned",
	"you recommended", "you suggested", "you gave", "you provided",
	"you created", "you wrote", "you listed", "you explained",
	"you shared", "you described", "you came up", "did you",
	"previous conversation", "previous chat", "last conversation",
	"last chat", "earlier conversation", "our conversation", "our chat",
	"remind me", "recall",
}

// FirstPerson are the words with which a question speaks of the asker.
var FirstPerson = []string{"i", "my", "me", "mine", "myself"}

// The words of a window placed next to an event the memory records ("the
// week after the launch", "the day before her surgery", "her first month
// at the new job"), which package query reads.
var (
	// AnchorSpans are the spans of such a window, with their length in
	// days.
	AnchorSpans = map[string]int{"day": 1, "week": 7, "weekend": 3, "fortnight": 14, "two weeks": 14, "month": 30}
	// AnchorSomeSpans are the plural spans of "the (few) days after …":
	// some days, read as a week; some weeks, as three.
	AnchorSomeSpans = map[string]int{"days": 7, "weeks": 21}
	// AnchorAfter and AnchorBefore place the window after or before the
	// event.
	AnchorAfter  = []string{"after", "following"}
	AnchorBefore = []string{"before", "preceding"}
	// EventJoiners join the first span to the event ("her first month
	// at the new job", "my first week in the new flat").
	EventJoiners = []string{"at", "in", "on", "with", "of"}
	// EventOpeners open the name of the event ("the launch", "her
	// surgery").
	EventOpeners = []string{"the", "her", "his", "my", "our", "their", "its", "your"}
)
