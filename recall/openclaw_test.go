package recall

import (
	"slices"
	"strings"
	"testing"

	"memoria/memory"
	"memoria/query"
)

// userModel is OpenClaw's USER.md with a preference that changed: the
// superseded entry says more of the question's words than the active one
// that replaced it (docs/concepts/user-model.md, "Supersede in place").
const userModel = `# User model

<!-- observed: 2026-05-10 | status: superseded -->

- Prefer detailed explanations of every code change, with explanations of each changed line of code.

<!-- observed: 2026-07-27 | status: active -->

- Prefer concise summaries of code changes unless more detail is requested.

<!-- observed: 2026-06-02 | status: active -->

- Always write dates as YYYY-MM-DD.
`

// TestSupersededEntryBelowActive: what USER.md marks superseded never
// outranks what it marks active, whatever the words; each result says
// its mark and the day it was observed, and no result joins the lines of
// two entries.
func TestSupersededEntryBelowActive(t *testing.T) {
	t.Parallel()
	ix := index(t, map[string]string{
		"USER.md":              userModel,
		"memory/2026-07-20.md": "# 2026-07-20\n\nReviewed the code of the parser.\n",
	})
	for _, words := range [][]string{
		{"explanations", "code", "change"},
		{"detailed", "explanations", "of", "every", "code", "change"},
		{"how", "should", "code", "changes", "be", "explained"},
	} {
		res := run(t, ix, Plan{Query: query.Query{Words: words}, K: 10})
		active := slices.IndexFunc(res, func(r Result) bool { return r.Source == "USER.md#L9" })
		superseded := slices.IndexFunc(res, func(r Result) bool { return r.Source == "USER.md#L5" })
		if active < 0 || superseded < 0 || superseded < active {
			t.Errorf("%v: active USER.md#L9 at %d, superseded USER.md#L5 at %d: %s", words, active, superseded, sources(res))
			continue
		}
		if r := res[active]; r.Status != memory.StatusActive || r.Observed != "2026-07-27" || r.EventTime != nil || r.Timestamp != "" {
			t.Errorf("active entry: %+v", r)
		}
		if r := res[superseded]; r.Status != memory.StatusSuperseded || r.Observed != "2026-05-10" {
			t.Errorf("superseded entry: %+v", r)
		}
		if got := res[superseded].Meta(false); got != "passage, observed 2026-05-10, superseded" {
			t.Errorf("meta %q", got)
		}
	}
	// Entries written without blank lines between them stay apart.
	ix = index(t, map[string]string{"USER.md": "<!-- status: superseded -->\n- Prefer tabs for indentation.\n<!-- status: active -->\n- Prefer spaces for indentation.\n"})
	res := run(t, ix, Plan{Query: query.Query{Words: []string{"tabs", "indentation"}}, K: 5})
	if got := sources(res); got != "USER.md#L4 USER.md#L2" {
		t.Errorf("adjacent entries: %s", got)
	}
}

// TestResultsSayWhereTheyCameFrom: a line imported by OpenClaw says from
// which assistant, a line of its dreaming sweep that it is a machine's
// summary, in the JSON shape and in the phrase people read.
func TestResultsSayWhereTheyCameFrom(t *testing.T) {
	t.Parallel()
	ix := index(t, map[string]string{
		"memory/imports/codex/MEMORY.md":                       "# Codex memory\n\n- The staging cluster is called Kestrel.\n",
		"memory/imports/claude-code/billing/project.md":        "The Kestrel staging cluster runs on arm64.\n",
		"memory/imports/hermes/USER.md":                        "<!-- observed: 2026-01-02 | status: active -->\n\n- Kestrel alerts go to the on-call phone.\n",
		"memory/imports/loose.md":                              "Kestrel was named by the ops team.\n",
		"DREAMS.md":                                            "# Dream Diary\n\nKestrel came up in three sessions this week.\n",
		"memory/dreaming/deep/2026-07-27.md":                   "Promoted: Kestrel is the staging cluster.\n",
		"memory/2026-07-27-kestrel-outage.md":                  "# Session\n\nKestrel was down for an hour.\n",
		"memory/imports/codex/nested/deeper/memory_summary.md": "Kestrel backups run nightly.\n",
	})
	res := run(t, ix, Plan{Query: query.Query{Words: []string{"kestrel"}}, K: 20})
	want := map[string]string{
		"memory/imports/codex/MEMORY.md#L3":                       "passage, imported from codex",
		"memory/imports/claude-code/billing/project.md#L1":        "passage, imported from claude-code",
		"memory/imports/hermes/USER.md#L3":                        "passage, imported from hermes",
		"memory/imports/loose.md#L1":                              "passage, imported from unknown",
		"DREAMS.md#L3":                                            "passage, machine summary",
		"memory/dreaming/deep/2026-07-27.md#L1":                   "passage, 2026-07-27, machine summary",
		"memory/2026-07-27-kestrel-outage.md#L3":                  "passage, 2026-07-27",
		"memory/imports/codex/nested/deeper/memory_summary.md#L1": "passage, imported from codex",
	}
	got := map[string]string{}
	for _, r := range res {
		got[r.Source] = r.Meta(false)
		if r.ImportedFrom != "" && !strings.HasPrefix(r.Source, "memory/imports/"+r.ImportedFrom+"/") && r.ImportedFrom != "unknown" {
			t.Errorf("%s says it was imported from %s", r.Source, r.ImportedFrom)
		}
		if r.Status != "" || r.Observed != "" {
			t.Errorf("%s has a user model's mark: %+v", r.Source, r)
		}
	}
	for src, meta := range want {
		if got[src] != meta {
			t.Errorf("%s: %q, want %q (all: %v)", src, got[src], meta, got)
		}
	}
}

// TestLowerTrustIsNotCurated: for "tell me about X", an undated line of
// the workspace's own curated memory counts as curated; a line of a
// machine's summary or of another assistant's memory does not.
func TestLowerTrustIsNotCurated(t *testing.T) {
	t.Parallel()
	ix := index(t, map[string]string{
		"memory.md":                      "# Core\n\n- Zelda runs the Kestrel project.\n",
		"USER.md":                        "- Ask Zelda before touching Kestrel.\n",
		"DREAMS.md":                      "Zelda and Kestrel came up together.\n",
		"memory/imports/codex/MEMORY.md": "Zelda owns the Kestrel repository.\n",
	})
	res := run(t, ix, Plan{Query: query.Query{Words: []string{"zelda", "kestrel"}, Intent: query.About}, K: 10, Explain: true})
	curated := map[string]bool{}
	for _, r := range res {
		curated[r.Source] = r.Explain != nil && r.Explain.Features["curated"] != 0
	}
	want := map[string]bool{"memory.md#L3": true, "USER.md#L1": true, "DREAMS.md#L1": false, "memory/imports/codex/MEMORY.md#L1": false}
	for src, w := range want {
		if c, ok := curated[src]; !ok || c != w {
			t.Errorf("%s: curated %v (found %v), want %v", src, c, ok, w)
		}
	}
}
