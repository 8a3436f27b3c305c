package memory

import (
	"strings"
	"testing"
	"time"
)

func TestClassifyPath(t *testing.T) {
	tests := []struct {
		rel  string
		kind FileKind
		day  string
		ok   bool
	}{
		{"memory.md", FileCore, "", true},
		{"MEMORY.md", FileCore, "", true},
		{"memory/2025-11-27.md", FileLog, "2025-11-27", true},
		{"memory/2025-02-30.md", FileOther, "", true},
		{"memory/2025-13-01.md", FileOther, "", true},
		{"memory/notes.md", FileOther, "", true},
		{"memory/2025-11-27.txt", "", "", false},
		{"bank/opinions.md", FileOpinions, "", true},
		{"bank/world.md", FileBank, "", true},
		{"bank/entities/Peter.md", FileEntity, "", true},
		{"bank/sub/x.md", FileOther, "", true},
		{"elsewhere.md", "", "", false},

		// OpenClaw's layout (docs/openclaw.md, "The layout").
		{"USER.md", FileUser, "", true},
		{"user.md", "", "", false},
		{"DREAMS.md", FileDreams, "", true},
		{"dreams.md", FileDreams, "", true},
		{"memory/dreaming/deep/2026-07-27.md", FileDreams, "2026-07-27", true},
		{"memory/dreaming/rem/notes.md", FileDreams, "", true},
		{"memory/2026-07-27-1430.md", FileLog, "2026-07-27", true},
		{"memory/2026-07-27-vendor-pitch.md", FileLog, "2026-07-27", true},
		{"memory/2026-07-27-vendor-pitch-2.md", FileLog, "2026-07-27", true},
		{"memory/2026-07-27-.md", FileOther, "", true},
		{"memory/2026-07-27x.md", FileOther, "", true},
		{"memory/2026-02-30-standup.md", FileOther, "", true},
		{"memory/2026-13-01-standup.md", FileOther, "", true},
		{"memory/2026-7-27-standup.md", FileOther, "", true},
		{"memory/2026-07-27-standup.MD", FileOther, "", true},
		{"memory/imports/codex/MEMORY.md", FileImport, "", true},
		{"memory/imports/claude-code/proj/notes.md", FileImport, "", true},
		{"memory/imports/hermes/USER.md", FileImport, "", true},
		{"memory/imports/2026-07-27.md", FileImport, "", true},
		{"memory/imports.md", FileOther, "", true},
	}
	for _, tt := range tests {
		kind, day, ok := ClassifyPath(tt.rel)
		got := ""
		if !day.IsZero() {
			got = day.Format(time.DateOnly)
		}
		if kind != tt.kind || got != tt.day || ok != tt.ok {
			t.Errorf("ClassifyPath(%q) = %q, %q, %v; want %q, %q, %v", tt.rel, kind, got, ok, tt.kind, tt.day, tt.ok)
		}
	}
}

func TestImportSource(t *testing.T) {
	for rel, want := range map[string]string{
		"memory/imports/codex/MEMORY.md":           "codex",
		"memory/imports/claude-code/proj/notes.md": "claude-code",
		"memory/imports/hermes/USER.md":            "hermes",
		"memory/imports/loose.md":                  "",
		"memory/2026-07-27.md":                     "",
		"USER.md":                                  "",
	} {
		if got := ImportSource(rel); got != want {
			t.Errorf("ImportSource(%q) = %q, want %q", rel, got, want)
		}
	}
}

func TestFileKindTrust(t *testing.T) {
	for _, k := range []FileKind{FileUser, FileDreams, FileImport} {
		if !k.TextOnly() {
			t.Errorf("%s: not read as text only", k)
		}
	}
	for _, k := range []FileKind{FileLog, FileCore, FileBank, FileOpinions, FileEntity, FileOther} {
		if k.TextOnly() {
			t.Errorf("%s: read as text only", k)
		}
	}
	for _, k := range []FileKind{FileDreams, FileImport} {
		if !k.LowerTrust() {
			t.Errorf("%s: not of lower trust", k)
		}
	}
	for _, k := range []FileKind{FileLog, FileCore, FileUser, FileBank, FileOpinions, FileEntity, FileOther} {
		if k.LowerTrust() {
			t.Errorf("%s: of lower trust", k)
		}
	}
}

func TestSourceRoundTrip(t *testing.T) {
	// A name may hold "#": a citation reads back whatever its file is
	// called (these were cut at the first "#").
	for _, ref := range []string{"memory/2025-11-27.md#L12", "memory/2025-11-27.md#L12-L15", "memory.md",
		"memory/meeting #3.md#L2", "memory/C#.md", "memory/a#L2.MD", "memory/x#L1-L2#.md#L3-L4", "bank/notes#1/b.md#L1"} {
		s, err := ParseSource(ref)
		if err != nil || s.String() != ref {
			t.Errorf("%q: %v, %v", ref, s, err)
		}
	}
	if s, err := ParseSource("a.md#L3-5"); err != nil || s.String() != "a.md#L3-L5" {
		t.Errorf("short range: %v %v", s, err)
	}
	for _, bad := range []string{"#L1", "a.md#L0", "a.md#L5-L3", "a.md#Lx", "a.md#L1-"} {
		if _, err := ParseSource(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestValidateSlug(t *testing.T) {
	for _, ok := range []string{"Peter", "The-Castle", "warelay", "Пётр", "北京", "Zoë", "a.b_c-1"} {
		if err := ValidateSlug(ok); err != nil {
			t.Errorf("%q rejected: %v", ok, err)
		}
	}
	for _, bad := range []string{"", "../../etc", "a/b", ".hidden", "a..b", "x.", "a b", "a\\b", string(make([]byte, 65))} {
		if err := ValidateSlug(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestFactIDStable(t *testing.T) {
	a := FactID(KindWorld, "Lives in  Vienna.", []string{"Peter"})
	b := FactID(KindWorld, "lives in vienna.", []string{"peter"})
	c := FactID(KindOpinion, "Lives in Vienna.", []string{"Peter"})
	if a != b || a == c || len(a) != 14 {
		t.Errorf("ids %s %s %s", a, b, c)
	}
}

// TestEntityNamesNormalised: an entity named in different Unicode forms is
// one entity; an invisible character or a reserved device name is refused
// with a reason, not cut at or accepted.
func TestEntityNamesNormalised(t *testing.T) {
	same := [][2]string{
		{"caf\u00e9", "cafe\u0301"}, // composed, decomposed
		{"Peter", "\uff30eter"},     // fullwidth P
		{"The-Castle", "the castle"},
	}
	for _, p := range same {
		if NormalizeSlug(p[0]) != NormalizeSlug(p[1]) && EntityKey(p[0]) != EntityKey(p[1]) {
			t.Errorf("%q and %q are two entities", p[0], p[1])
		}
		if EntityKey(p[0]) != EntityKey(p[1]) {
			t.Errorf("keys %q, %q", EntityKey(p[0]), EntityKey(p[1]))
		}
	}
	for slug, why := range map[string]string{
		"Pe\u200bter": "invisible", "Pe\u202eter": "invisible", "Pe\u2060ter": "invisible",
		"CON": "reserves", "nul": "reserves", "Com1": "reserves", "LPT9.notes": "reserves", "Aux": "reserves",
	} {
		err := ValidateSlug(slug)
		if err == nil || !strings.Contains(err.Error(), why) {
			t.Errorf("ValidateSlug(%q) = %v, want %q", slug, err, why)
		}
	}
	for _, ok := range []string{"Console", "Nulla", "COM", "COMX", "Peter"} {
		if err := ValidateSlug(ok); err != nil {
			t.Errorf("ValidateSlug(%q) = %v", ok, err)
		}
	}
}
