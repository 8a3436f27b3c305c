package reflect

import (
	"testing"

	"memoria/change"
)

// TestBears: a fact that is no opinion bears on an opinion when it
// contradicts it, or agrees with it on a polarity concept without a
// conflict; sharing its words is not enough.
func TestBears(t *testing.T) {
	for _, tt := range []struct {
		statement, fact string
		bears, supports bool
	}{
		{"Ridings are reliable on delivery times.", "Not reliable on delivery times at the moment.", true, false},
		{"Ridings are reliable on delivery times.", "Reliable as ever on delivery times: every drop on the hour.", true, true},
		{"Ridings are reliable on delivery times.", "Ridings deliver twice a day from the Stourton depot.", false, true},
		{"The test suite is reliable enough to gate releases.", "The test suite blocked a broken migration.", false, true},
	} {
		bears, supports := Bears(tt.statement, tt.fact)
		if bears != tt.bears || bears && supports != tt.supports {
			t.Errorf("Bears(%q, %q) = %v, %v; want %v, %v", tt.statement, tt.fact, bears, supports, tt.bears, tt.supports)
		}
	}
}

func TestContradicts(t *testing.T) {
	tests := []struct {
		statement, fact string
		want            bool
	}{
		{"Prefers concise replies on WhatsApp.", "Prefers long, detailed replies on WhatsApp.", true},
		{"Prefers concise replies (<1500 chars) on WhatsApp; long content goes into files.",
			"Prefers concise replies; he no longer wants long essays in chat, not even at the desk.", false},
		{"Likes Fly.io for warelay.", "No longer likes Fly.io for warelay.", true},
		{"Likes Fly.io for warelay.", "Now dislikes Fly.io for warelay; deploys are easy, the bills are not.", true},
		{"Likes Fly.io for warelay.", "Doesn't like Fly.io for warelay.", true},
		{"Likes Fly.io for warelay.", "Likes Fly.io for warelay a lot.", false},
		{"Biscuit is happier since the move.", "Biscuit is unhappy since the move.", true},
		// A comparison turned round.
		{"Wednesday twilights bring in more new members than the Saturday races do.",
			"Saturday races bring in more new members than the twilights do; four of six new joiners first came for a Saturday.", true},
		{"Mrunal's Instagram reels bring in more new customers than the society WhatsApp groups.",
			"The society WhatsApp groups now bring in more new customers than Mrunal's Instagram reels.", true},
		{"Wednesday twilights bring in more new members than the Saturday races do.",
			"Wednesday twilights bring in more new members than Saturdays; three joined this month.", false},
		{"Tea suits Ann better than coffee.", "Ann drinks more tea than water.", false},
		{"Wants a small birthday; no big party.", "Now wants a big party for sixty people.", true},
		{"Wants a small birthday; no big party.", "Wants a small, quiet birthday with close friends.", false},
		{"A WhatsApp session needs a disk nobody moves.", "Decided to move the session to a disk of its own.", false},
		{"Prefers tea.", "Prefers tea in the morning.", false},
		// Change and refusal words (issue: "no longer / stopped / switched /
		// not anymore / refuses"), and adjectives about something else.
		{"Prefers Emacs for everything, including mail.", "Stopped using Emacs entirely; Zed is fast enough.", true},
		{"Prefers Emacs for everything, including mail.", "Won't go back to Emacs; calls his old config a museum.", true},
		{"Likes working from the office on Tuesdays.", "Skips the office on Tuesdays as a rule now.", true},
		{"Likes working from the office on Tuesdays.", "Refuses to come to the office on Tuesdays.", true},
		{"Likes the night train to Rome.", "Doesn't take the night train to Rome anymore.", true},
		{"The test suite is reliable enough to gate releases.", "The test suite blocked a broken migration; gating releases on it keeps paying off.", false},
		{"The test suite is reliable enough to gate releases.", "The test suite is flaky and blocks releases for no reason.", true},
	}
	for _, tt := range tests {
		if got := Contradicts(tt.statement, tt.fact); got != tt.want {
			t.Errorf("Contradicts(%q, %q) = %v, want %v (stances %v / %v)", tt.statement, tt.fact, got, tt.want, stanceOf(tt.statement), stanceOf(tt.fact))
		}
	}
}

func TestSimilarity(t *testing.T) {
	tests := []struct {
		a, b     string
		min, max float64
	}{
		{"Prefers concise replies on WhatsApp.", "prefers CONCISE reply on whatsapp", 1, 1},
		{"Prefers concise replies on WhatsApp.", "Prefers long replies on WhatsApp.", 0.6, 0.9},
		{"Prefers concise replies on WhatsApp.", "Biscuit weighs 12.7 kg.", 0, 0},
		{"", "anything", 0, 0},
	}
	for _, tt := range tests {
		s := Similarity(tt.a, tt.b)
		if s < tt.min-1e-9 || s > tt.max+1e-9 {
			t.Errorf("Similarity(%q, %q) = %.2f, want %.2f..%.2f", tt.a, tt.b, s, tt.min, tt.max)
		}
		if s2 := Similarity(tt.b, tt.a); s2 != s {
			t.Errorf("not symmetric: %v %v", s, s2)
		}
	}
}

func TestChangeMarker(t *testing.T) {
	for s, want := range map[string]bool{
		"No longer likes Fly.io": true, "now prefers Hetzner": true, "doesn't use it anymore": true,
		"Likes Fly.io": false, "Prefers concise replies": false,
		"Stopped using Emacs": true, "Switched to Zed": true, "Won't go back to Emacs": true, "Prefers Zed now": true,
		"Upgraded to Debian 13": true, "Moved to Utrecht": true, "Knows the way now, she says": true, "Nowhere to park": false,
	} {
		if got := change.Says(s); got != want {
			t.Errorf("change.Says(%q) = %v", s, got)
		}
	}
}
