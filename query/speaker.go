package query

import "memoria/lang"

// Speaker is whose words a question asks for when the memory holds chat
// transcripts ("- 10:20 **User**: …", "- 10:20 **Assistant**: …").
type Speaker uint8

// The speakers.
const (
	AnySpeaker       Speaker = iota // no one in particular, or unknown
	UserSpeaker                     // the person asking: "what did I buy", "my sister's birthday"
	AssistantSpeaker                // the assistant: "what did you recommend", "our previous chat"
)

var speakerNames = [...]string{"any", "user", "assistant"}

// String is the speaker's lower-case name.
func (s Speaker) String() string {
	if int(s) < len(speakerNames) {
		return speakerNames[s]
	}
	return "any"
}

// assistantMarkers ask for what the assistant said or wrote, or for a
// conversation as a whole (lang.AsksAssistant): the answer lies in the
// assistant's turns, or anywhere in the conversation. firstPerson are the
// words with which a question speaks of the asker.
var assistantMarkers, firstPerson = lang.NewPhrases(lang.AsksAssistant), lang.WordSet(lang.FirstPerson)

// AskedSpeaker reads whose words a question asks for from its words
// (lower-cased, in order, stop words kept: Query.Words). A question that
// speaks of what the assistant said, of a past conversation, or asks to be
// reminded ("remind me", "I'm trying to recall") is the assistant's
// (AssistantSpeaker); otherwise one in the first
// person ("what did I buy for my sister") asks what the person said about
// themselves (UserSpeaker); any other is AnySpeaker.
func AskedSpeaker(words []string) Speaker {
	if assistantMarkers.First(words) >= 0 {
		return AssistantSpeaker
	}
	for _, w := range words {
		if firstPerson[w] {
			return UserSpeaker
		}
	}
	return AnySpeaker
}
