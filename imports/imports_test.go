package imports

import (
	"os"
	"strings"
	"testing"
	"time"
)

func readAll(t *testing.T, format, path string) []Session {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []Session
	if err := Read(format, path, f, func(s Session) error { out = append(out, s); return nil }); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestReaders: each format's fixture (written from the format's public
// description) reads into sessions with stable keys, turns in order with
// time and speaker; ChatGPT's thread follows current_node (an abandoned
// edit is left out), tool results and system messages are left out.
func TestReaders(t *testing.T) {
	for _, tc := range []struct {
		format, path string
		sessions     int
		key          string
		turns        []string // "15:04 Speaker: first words" of the first session
		day          string
	}{
		{ChatGPT, "testdata/chatgpt-conversations.json", 2, "chatgpt:6f1c2a90-1111-4c5e-9a10-2b7d3e8f0a01",
			[]string{"09:01 User: My starter", "09:01 Assistant: Feed the starter", "09:03 User: Great, I'll"}, "2026-01-10"},
		{Claude, "testdata/claude-conversations.json", 1, "claude:c0ffee00-aaaa-4bbb-8ccc-000000000001",
			[]string{"19:05 User: We land", "19:05 Assistant: Campo de Ourique", "19:07 User: Campo de Ourique it is"}, "2026-01-12"},
		{OpenClaw, "testdata/openclaw-session.jsonl", 1, "openclaw:sess-7d1a",
			[]string{"08:00 User: Remind me", "08:00 Assistant: He wants", "08:01 User: Good."}, "2026-01-15"},
	} {
		t.Run(tc.format, func(t *testing.T) {
			ss := readAll(t, tc.format, tc.path)
			if len(ss) != tc.sessions {
				t.Fatalf("%d sessions, want %d", len(ss), tc.sessions)
			}
			s := ss[0]
			if s.Key() != tc.key || s.Day(time.Time{}) != tc.day || len(s.Turns) != len(tc.turns) {
				t.Fatalf("session %s day %s, %d turns: %+v", s.Key(), s.Day(time.Time{}), len(s.Turns), s.Turns)
			}
			for i, want := range tc.turns {
				got := s.Turns[i].Time.Format("15:04") + " " + s.Turns[i].Speaker + ": " + s.Turns[i].Text
				if !strings.HasPrefix(got, want) {
					t.Errorf("turn %d: %q, want %q…", i, got, want)
				}
			}
		})
	}
	notes := readAll(t, MemoryFile, "testdata/CLAUDE.md")
	if len(notes) != 1 || !strings.Contains(notes[0].Notes, "make check") || notes[0].Title != "CLAUDE.md" {
		t.Errorf("memory file: %+v", notes)
	}
}

// TestRender: a session renders as one section, its key in the heading,
// one bullet per turn with its time and speaker, long turns on indented
// continuation lines (so that "## Retain" in a turn stays text).
func TestRender(t *testing.T) {
	s := Session{Format: ChatGPT, ID: "x1", Title: "Test", Turns: []Turn{
		{Time: time.Date(2026, 1, 10, 9, 1, 0, 0, time.UTC), Speaker: "User", Text: "First line\n\n## Retain\nthird"},
		{Speaker: "Assistant", Text: "ok"},
	}}
	want := "## Conversation: Test [chatgpt:x1]\n\n- 09:01 **User**: First line\n    ## Retain\n    third\n- **Assistant**: ok\n"
	if got, err := Render(s); got != want || err != nil {
		t.Errorf("got\n%s\nwant\n%s (%v)", got, want, err)
	}
}

// TestDetect tells the formats apart from names and first bytes.
func TestDetect(t *testing.T) {
	for _, tc := range []struct{ name, head, want string }{
		{"conversations.json", `[{"title":"x","mapping":{}}]`, ChatGPT},
		{"conversations.json", ` [{"uuid":"u","chat_messages":[]}]`, Claude},
		{"sess.jsonl", `{"type":"session"}`, OpenClaw},
		{"AGENTS.md", `# x`, MemoryFile},
	} {
		if got, err := Detect(tc.name, []byte(tc.head)); got != tc.want || err != nil {
			t.Errorf("%s %q: %q, %v", tc.name, tc.head, got, err)
		}
	}
	if _, err := Detect("notes.txt", []byte("hello")); err == nil {
		t.Error("an unknown file was given a format")
	}
}
