package recall

import (
	"strings"

	"memoria/query"
)

// lineSpeaker reads who speaks in a line of a chat transcript: a list item
// that opens with the speaker's name in bold, after an optional time
// ("- 10:20 **User**: …", "**Assistant**: …"). The lines that continue a
// turn, and lines of anything else, have no speaker (AnySpeaker).
func lineSpeaker(content string) query.Speaker {
	name, _, ok := chatTurn(content)
	if !ok {
		return query.AnySpeaker
	}
	switch strings.ToLower(strings.TrimSpace(name)) {
	case "user", "human", "me":
		return query.UserSpeaker
	case "assistant", "ai", "agent", "bot":
		return query.AssistantSpeaker
	}
	return query.AnySpeaker
}

// chatTurn splits the opening of a turn of a chat transcript ("- 10:20
// **User**: …", "**Assistant:** …") into the speaker's name as written and
// the text after it; ok is false for any other line.
func chatTurn(line string) (name, rest string, ok bool) {
	s := strings.TrimLeft(line, " \t")
	s = strings.TrimPrefix(s, "- ")
	if len(s) > 6 && isDigit(s[0]) && isDigit(s[1]) && s[2] == ':' && isDigit(s[3]) && isDigit(s[4]) && s[5] == ' ' {
		s = s[6:] // "10:20 "
	}
	after, ok := strings.CutPrefix(s, "**")
	if !ok {
		return "", "", false
	}
	name, after, ok = strings.Cut(after, "**")
	colon := strings.HasSuffix(name, ":") // "**User:** …"
	if !ok || len(name) > 24 || !(colon || strings.HasPrefix(after, ":")) {
		return "", "", false
	}
	return strings.TrimSuffix(name, ":"), strings.TrimPrefix(after, ":"), true
}

func isDigit(b byte) bool { return b >= '0' && b <= '9' }
