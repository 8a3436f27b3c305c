package openclaw_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// layoutHit is a memory_search hit with the fields that say what a line of
// OpenClaw's own files is (docs/openclaw.md, "The layout").
type layoutHit struct {
	hit
	Observed       string `json:"observed"`
	Status         string `json:"status"`
	ImportedFrom   string `json:"importedFrom"`
	MachineSummary bool   `json:"machineSummary"`
}

func layoutHitsOf(t *testing.T, v any) []layoutHit {
	t.Helper()
	b, _ := json.Marshal(v)
	var s struct {
		Results []layoutHit `json:"results"`
	}
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatalf("results: %v: %s", err, b)
	}
	return s.Results
}

// layoutOpenClaw builds memoria and the plugin and installs the plugin into
// an isolated OpenClaw (its own OPENCLAW_HOME) whose agent workspace is a
// copy of the workspace laid out as OpenClaw writes it
// (internal/testworkspace/openclaw), with memory-core disabled so that
// `openclaw memory …` is the plugin's. It returns the environment, the
// memoria binary and the workspace.
func layoutOpenClaw(t *testing.T) (*env, string, string) {
	t.Helper()
	r := newRig(t, "internal/testworkspace/openclaw")
	e, bin, ws := r.e, r.bin, r.ws
	conf, _ := json.Marshal(map[string]any{"binary": bin, "timeoutMs": 120000})
	e.openclaw(t, "config", "set", "plugins.entries.memoria.config", string(conf))
	e.openclaw(t, "config", "set", "plugins.entries.memory-core.enabled", "false")
	return e, bin, ws
}

// TestOpenClawLayout runs the plugin in the real OpenClaw on a workspace
// laid out as OpenClaw's builtin memory writes it, so that a user who
// switches to Memoria loses none of it: USER.md's entries are found with
// their marks (the superseded one after the active one), DREAMS.md's lines
// as a machine's summary, the slugged daily notes as daily logs of their
// day (a window selects them), and the memory OpenClaw imported from
// Codex, Claude Code and Hermes with the assistant it came from; every
// citation reads back from the Markdown, and memory_get reads USER.md.
func TestOpenClawLayout(t *testing.T) {
	t.Parallel()
	if testing.Short() && os.Getenv("MEMORIA_REQUIRE_OPENCLAW") != "1" {
		t.Skip("runs OpenClaw: not in -short")
	}
	e, bin, ws := layoutOpenClaw(t)

	t.Run("cli recall", func(t *testing.T) {
		out := e.openclaw(t, "memory", "recall", "Lives in Tromsø", "--k", "3", "--json")
		hs := layoutHitsOf(t, json.RawMessage(out))
		userLine := lineOf(t, ws, "USER.md", "I live in Tromsø")
		if len(hs) == 0 || hs[0].Path != "USER.md" || hs[0].StartLine > userLine || hs[0].EndLine < userLine ||
			hs[0].Observed != "2026-06-14" || hs[0].Status != "active" {
			t.Fatalf("Lives in Tromsø: %s", out)
		}
		for _, h := range hs {
			checkCited(t, ws, h.hit)
		}
		if got, want := citations(hitsOf(t, json.RawMessage(out))), memoriaRecall(t, bin, ws, "Lives in Tromsø", 3); !slices.Equal(got, want) {
			t.Errorf("openclaw memory recall cites\n%v\nmemoria recall cites\n%v", got, want)
		}
		// The slugged notes of a day are its daily logs: a window selects them.
		out = e.openclaw(t, "memory", "recall", "Lumen", "--since", "2026-07-28", "--until", "2026-07-28", "--k", "10", "--json")
		files := map[string]bool{}
		for _, h := range layoutHitsOf(t, json.RawMessage(out)) {
			checkCited(t, ws, h.hit)
			files[h.Path] = true
			if h.Timestamp != "2026-07-28" {
				t.Errorf("Lumen on 2026-07-28: %s written %q", h.Citation, h.Timestamp)
			}
		}
		if !files["memory/2026-07-28-vendor-pitch.md"] || !files["memory/2026-07-28-vendor-pitch-2.md"] {
			t.Errorf("Lumen on 2026-07-28: %s", out)
		}
		// The human form says where an imported line came from.
		if out := e.openclaw(t, "memory", "recall", "pnpm workspaces", "--k", "1"); !strings.Contains(out, "memory/imports/codex/MEMORY.md#L3") ||
			!strings.Contains(out, "imported from codex") {
			t.Errorf("openclaw memory recall of an import:\n%s", out)
		}
	})

	if t.Failed() {
		return
	}
	g := startGateway(t, e)

	t.Run("memory_search", func(t *testing.T) {
		tests := []struct {
			query   string
			args    map[string]any
			path    string // of the first hit
			contain string // a line it must cite
			check   func(h layoutHit) bool
		}{
			{"Lives in Tromsø", nil, "USER.md", "I live in Tromsø",
				func(h layoutHit) bool { return h.Observed == "2026-06-14" && h.Status == "active" && h.Timestamp == "" }},
			{"what did we decide about the Atlas beta?", map[string]any{"since": "2026-07-27", "until": "2026-07-27"}, "memory/2026-07-27-1430.md", "We decided to ship the Atlas beta",
				func(h layoutHit) bool { return h.Timestamp == "2026-07-27" }},
			{"Lumen dashboard SSO enterprise plan", nil, "memory/2026-07-28-vendor-pitch.md", "their SSO needs the enterprise plan",
				func(h layoutHit) bool { return h.Timestamp == "2026-07-28" }},
			{"kept circling back", nil, "DREAMS.md", "kept circling back",
				func(h layoutHit) bool { return h.MachineSummary && h.Kind == "passage" }},
			{"pnpm workspaces", nil, "memory/imports/codex/MEMORY.md", "pnpm workspaces",
				func(h layoutHit) bool { return h.ImportedFrom == "codex" }},
			{"mocked migration failed in production", nil, "memory/imports/claude-code/atlas-7f3a2c/feedback_testing.md", "mocked migration",
				func(h layoutHit) bool { return h.ImportedFrom == "claude-code" }},
			{"on-call phone", nil, "memory/imports/hermes/MEMORY.md", "on-call phone",
				func(h layoutHit) bool { return h.ImportedFrom == "hermes" }},
		}
		for _, tt := range tests {
			args := map[string]any{"query": tt.query, "maxResults": 5}
			for k, v := range tt.args {
				args[k] = v
			}
			d, text := g.invoke(t, "memory_search", args)
			hs := layoutHitsOf(t, d)
			if len(hs) == 0 {
				t.Errorf("%q: no results: %s", tt.query, text)
				continue
			}
			for _, h := range hs {
				checkCited(t, ws, h.hit)
			}
			h := hs[0]
			line := lineOf(t, ws, tt.path, tt.contain)
			if h.Path != tt.path || h.StartLine > line || h.EndLine < line || !tt.check(h) {
				t.Errorf("%q: first hit %+v, want %s#L%d", tt.query, h, tt.path, line)
			}
		}

		// The superseded preference comes after the active one that replaced it.
		d, _ := g.invoke(t, "memory_search", map[string]any{"query": "prefer detailed explanations for every code change", "maxResults": 10})
		hs := layoutHitsOf(t, d)
		active := slices.IndexFunc(hs, func(h layoutHit) bool { return h.Citation == "USER.md#L11" })
		superseded := slices.IndexFunc(hs, func(h layoutHit) bool { return h.Citation == "USER.md#L7" })
		if active < 0 || superseded < active || hs[active].Status != "active" || hs[superseded].Status != "superseded" ||
			hs[superseded].Observed != "2026-05-10" {
			t.Errorf("USER.md#L11 (active) at %d, USER.md#L7 (superseded) at %d: %+v", active, superseded, hs)
		}
	})

	t.Run("memory_get", func(t *testing.T) {
		d, _ := g.invoke(t, "memory_get", map[string]any{"path": "USER.md#L11"})
		want := strings.Join(fileLines(t, ws, "USER.md", 11, 11), "\n")
		if text, _ := d["text"].(string); d["status"] != "ok" || !strings.HasPrefix(text, want) {
			t.Errorf("memory_get USER.md#L11: %v, want %q", d, want)
		}
		d, _ = g.invoke(t, "memory_get", map[string]any{"path": "memory/imports/hermes/USER.md"})
		b, _ := os.ReadFile(filepath.Join(ws, "memory", "imports", "hermes", "USER.md"))
		if d["status"] != "ok" || d["text"] != strings.TrimSuffix(string(b), "\n") {
			t.Errorf("memory_get of an imported file: %v", d)
		}
		d, _ = g.invoke(t, "memory_get", map[string]any{"path": "AGENTS.md"})
		if d["status"] == "ok" {
			t.Errorf("memory_get AGENTS.md, which is no memory file: %v", d)
		}
	})
}
