package main

import (
	"encoding/json"
	"maps"
	"strings"
	"testing"

	"memoria/internal/testworkspace"
)

// TestStatusCountsOpenClawLayout: on a workspace laid out as OpenClaw
// writes it, `memoria status` counts each kind of file, in text and JSON,
// and the memory OpenClaw imported by assistant.
func TestStatusCountsOpenClawLayout(t *testing.T) {
	t.Parallel()
	ws := testworkspace.CopyOpenClaw(t)
	code, out, errOut := cli(t, "status", "-w", ws)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		"files      5 daily logs (2026-07-20 … 2026-07-28), 1 core, 0 bank, 0 opinions, 0 entity pages, 1 other\n",
		"openclaw   1 user model (USER.md), 2 dreaming summaries (DREAMS.md, memory/dreaming/), 6 imported (claude-code 2, codex 2, hermes 2)\n",
		"facts      3 (world 2, experience 0, opinion 1, observation 0)\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("status lacks %q:\n%s", want, out)
		}
	}
	code, out, errOut = cli(t, "status", "-w", ws, "--json")
	var st struct {
		Files    map[string]int `json:"files"`
		Imported map[string]int `json:"imported"`
		FirstDay string         `json:"first_day"`
		LastDay  string         `json:"last_day"`
	}
	if code != exitOK || json.Unmarshal([]byte(out), &st) != nil {
		t.Fatalf("exit %d: %s %s", code, out, errOut)
	}
	if want := map[string]int{"log": 5, "core": 1, "user": 1, "dreams": 2, "import": 6, "other": 1}; !maps.Equal(st.Files, want) {
		t.Errorf("files %v, want %v", st.Files, want)
	}
	if want := map[string]int{"codex": 2, "claude-code": 2, "hermes": 2}; !maps.Equal(st.Imported, want) {
		t.Errorf("imported %v, want %v", st.Imported, want)
	}
	if st.FirstDay != "2026-07-20" || st.LastDay != "2026-07-28" {
		t.Errorf("days %s … %s", st.FirstDay, st.LastDay)
	}

	// The example workspace has none of OpenClaw's files: no line for them.
	if _, out, _ := cli(t, "status", "-w", testworkspace.CopyExample(t)); strings.Contains(out, "openclaw ") {
		t.Errorf("status of a workspace without OpenClaw's files:\n%s", out)
	}
}

// TestRecallSaysWhereOpenClawLinesCameFrom: recall's JSON, text and
// compact forms say which assistant an imported line came from, that a
// line of the dreaming sweep is a machine's summary, and a user-model
// entry's mark.
func TestRecallSaysWhereOpenClawLinesCameFrom(t *testing.T) {
	t.Parallel()
	ws := testworkspace.CopyOpenClaw(t)
	tests := []struct {
		query, source string
		json          string // a field of the first result, as JSON writes it
		text, compact string // its meta in the text and compact forms
	}{
		{"pnpm workspaces", "memory/imports/codex/MEMORY.md#L3-L4", `"imported_from":"codex"`,
			"(passage, imported from codex)", "[passage imported from codex] "},
		{"mocked migration failed in production", "memory/imports/claude-code/atlas-7f3a2c/feedback_testing.md#L7", `"imported_from":"claude-code"`,
			"(passage, imported from claude-code)", "[passage imported from claude-code] "},
		{"on-call phone", "memory/imports/hermes/MEMORY.md#L1-L3", `"imported_from":"hermes"`,
			"(passage, imported from hermes)", "[passage imported from hermes] "},
		{"kept circling back", "DREAMS.md#L8", `"machine_summary":true`,
			"(passage, machine summary)", "[passage machine summary] "},
		{"Lives in Tromsø", "USER.md#L17", `"observed":"2026-06-14","status":"active"`,
			"(passage, observed 2026-06-14, active)", "[passage observed 2026-06-14 active] "},
		{"Lumen second offer", "memory/2026-07-28-vendor-pitch-2.md#L9", `"timestamp":"2026-07-28"`,
			"(passage, 2026-07-28)", "[passage 2026-07-28] "},
	}
	for _, tt := range tests {
		args := []string{"recall", tt.query, "-w", ws, "--k", "1", "--now", "2026-07-29", "--lexical"}
		code, out, errOut := cli(t, append(args, "--json")...)
		if code != exitOK || !strings.Contains(out, `"source":"`+tt.source+`"`) || !strings.Contains(out, tt.json) {
			t.Errorf("%q --json: exit %d, %s %s; want %s with %s", tt.query, code, out, errOut, tt.source, tt.json)
		}
		if _, out, _ := cli(t, args...); !strings.HasPrefix(out, tt.source+"  "+tt.text+"\n") {
			t.Errorf("%q: %q, want %s  %s", tt.query, out, tt.source, tt.text)
		}
		if _, out, _ := cli(t, append(args, "--format", "compact")...); !strings.HasPrefix(out, tt.compact) || !strings.Contains(out, "("+tt.source+")") {
			t.Errorf("%q --format compact: %q, want %s…(%s)", tt.query, out, tt.compact, tt.source)
		}
	}
}
