package query

import (
	"slices"
	"testing"
)

func TestAskedSpeaker(t *testing.T) {
	tests := []struct {
		text string
		want Speaker
	}{
		{"What did I buy for my sister's birthday gift?", UserSpeaker},
		{"How many days ago did I run the 5K?", UserSpeaker},
		{"Can you suggest some activities that I can do in the evening?", UserSpeaker},
		{"I remember you told me to dilute tea tree oil. What was the ratio?", AssistantSpeaker},
		{"In our previous chat, you suggested a few terms. Which ones?", AssistantSpeaker},
		{"How many eggs did you say we need?", AssistantSpeaker},
		{"I was wondering if you could remind me of the name of that restaurant.", AssistantSpeaker},
		{"I'm trying to recall what the designation on my jumpsuit was.", AssistantSpeaker},
		{"What is Peter's phone number?", AnySpeaker},
		{"What happened last weekend?", AnySpeaker},
	}
	for _, tc := range tests {
		q := parse(t, tc.text)
		if got := AskedSpeaker(q.Words); got != tc.want {
			t.Errorf("AskedSpeaker(%q) = %v, want %v (words %v)", tc.text, got, tc.want, q.Words)
		}
	}
}

// TestNamesInIdentifiers: a name glued into a file name, a variable, a
// metric or a path is not a mention of the entity; its words stay search
// words.
func TestNamesInIdentifiers(t *testing.T) {
	tests := []struct {
		text     string
		entities []string
	}{
		{"What are the outbox.rate settings in warelay.yaml?", nil},
		{"What is the WARELAY_DEBUG=baileys switch for?", nil},
		{"What does warelay_media_upload_retries_total count?", nil},
		{"What is kept in /var/lib/warelay?", nil},
		{"Where does warelay run now?", []string{"warelay"}},
		{"Ask Pete.", []string{"Peter"}},
		{"Pete/Andy: who drives?", []string{"Peter", "Andy"}},
		{"Pete's phone and warelay's logs", []string{"Peter", "warelay"}},
	}
	for _, tc := range tests {
		q := parse(t, tc.text)
		if !slices.Equal(q.Entities, tc.entities) {
			t.Errorf("%q: entities %v, want %v", tc.text, q.Entities, tc.entities)
		}
		if len(tc.entities) == 0 && !slices.ContainsFunc(q.Words, func(w string) bool { return w == "warelay" }) {
			t.Errorf("%q: words %v lost warelay", tc.text, q.Words)
		}
	}
}
