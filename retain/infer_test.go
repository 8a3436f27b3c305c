package retain

import (
	"strconv"
	"strings"
	"testing"
)

var testNames = Names{"peter": "Peter", "pete": "Peter", "andy": "Andy", "clara mendes": "Clara-Mendes", "clara": "Clara-Mendes", "the castle": "The-Castle", "warelay": "warelay"}

func TestInfer(t *testing.T) {
	log := strings.Join([]string{
		"# 2025-10-01", // 1
		"",             // 2
		"## Morning",   // 3
		"",             // 4
		"Pete felt tired. He decided he is moving to the top floor of the castle when the lease ends.", // 5
		"Andy prefers trains over planes for anything under six hours.",                                // 6
		"", // 7
		"- I fixed the reconnect loop in warelay by resetting the backoff timer.", // 8
		"- The weather was nice and nothing else happened at all today.",          // 9
		"",    // 10
		"```", // 11
		"Pete decided to keep this inside code, which is never proposed.", // 12
		"```",                              // 13
		"",                                 // 14
		"| who | prefers |",                // 15
		"| Pete | tea, decided long ago |", // 16
		"",                                 // 17
		`Clara said "I hate Mondays" on the call, then she logged off early.`, // 18
		"Clara moves to Porto on November 3, with her new team.",              // 19
		"Would Pete prefer the 9:00 slot?",                                    // 20
	}, "\n") + "\n"
	props, err := Infer("memory/2025-10-01.md", []byte(log), testNames)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct{ fact, source string }{
		{"W @Peter @The-Castle: Peter decided he is moving to the top floor of the castle when the lease ends.", "memory/2025-10-01.md#L5"},
		{"O(c=0.7) @Andy: Andy prefers trains over planes for anything under six hours.", "memory/2025-10-01.md#L6"},
		{"B @warelay: I fixed the reconnect loop in warelay by resetting the backoff timer.", "memory/2025-10-01.md#L8"},
		{"W @Clara-Mendes: Clara moves to Porto on November 3, with her new team.", "memory/2025-10-01.md#L19"},
	}
	if len(props) != len(want) {
		for _, p := range props {
			t.Log(p)
		}
		t.Fatalf("%d proposals, want %d", len(props), len(want))
	}
	for i, w := range want {
		if props[i].Fact != w.fact || props[i].Source.String() != w.source {
			t.Errorf("proposal %d:\n got %s (%s)\nwant %s (%s)", i, props[i].Fact, props[i].Source, w.fact, w.source)
		}
		if _, err := Validate(props[i].Fact); err != nil {
			t.Errorf("proposal %d is not a valid fact: %v", i, err)
		}
	}
}

func TestSentences(t *testing.T) {
	tests := []struct {
		text  string
		start int
		want  []string
	}{
		{"One sentence. Another one here.", 1, []string{"One sentence.|1-1", "Another one here.|1-1"}},
		{"Dr. Wolf saw him at 10:30. It went\nwell, v0.4 is out.", 5, []string{"Dr. Wolf saw him at 10:30.|5-5", "It went well, v0.4 is out.|5-6"}},
		{"- item one\n- item two. And more", 3, []string{"item one|3-3", "item two.|4-4", "And more|4-4"}},
	}
	for _, tt := range tests {
		var got []string
		for _, s := range sentences(tt.text, tt.start) {
			got = append(got, s.text+"|"+itoa(s.first)+"-"+itoa(s.last))
		}
		if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
			t.Errorf("sentences(%q):\n%s\nwant\n%s", tt.text, strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
		}
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

func TestReviewRoundTrip(t *testing.T) {
	props, _ := Infer("memory/2025-10-01.md", []byte("Andy prefers trains over planes for long trips.\nPete decided to sell the old laptop to Andy.\n"), testNames)
	if len(props) != 2 {
		t.Fatalf("%d proposals", len(props))
	}
	data, n := AddToReview(nil, props, " (inferred 2025-10-02)")
	if n != 2 || !strings.HasPrefix(string(data), ReviewHeader) || !strings.Contains(string(data), "\n## memory/2025-10-01.md (inferred 2025-10-02)\n- [ ] O(c=0.7) @Andy: ") {
		t.Fatalf("review:\n%s", data)
	}
	// Adding the same proposals again adds nothing.
	if again, n := AddToReview(data, props, ""); n != 0 || string(again) != string(data) {
		t.Errorf("re-adding changed the file (%d added)", n)
	}
	// A person ticks the second one and edits its text.
	edited := strings.Replace(string(data), "- [ ] W @Peter @Andy: Pete decided", "- [x] W @Peter @Andy: Peter decided", 1)
	parsed := ParseReview([]byte(edited))
	if len(parsed) != 2 || parsed[0].Ticked || !parsed[1].Ticked || !strings.HasPrefix(parsed[1].Fact, "W @Peter @Andy: Peter decided") || parsed[1].Source.String() != "memory/2025-10-01.md#L2" {
		t.Fatalf("parsed %+v", parsed)
	}
	left := RemoveReviewLines([]byte(edited), []int{parsed[1].Line})
	if strings.Contains(string(left), "Peter decided") || !strings.Contains(string(left), "@Andy: Andy prefers") {
		t.Errorf("after removal:\n%s", left)
	}
	// Removing the last one drops the group heading too.
	left = RemoveReviewLines(left, []int{ParseReview(left)[0].Line})
	if strings.Contains(string(left), "## memory/") || string(left) != ReviewHeader {
		t.Errorf("empty group kept:\n%q", left)
	}
}
