package reflect

import (
	"memoria/internal/testworkspace"
	"strings"
	"testing"
)

// TestRule is the confidence rule as a table: each case applies a
// sequence of evidence to a starting confidence and checks where it ends
// and how it got there.
func TestRule(t *testing.T) {
	sup := func(s float64) Step { return Step{Supports: true, Strength: s} }
	weak := func(s float64) Step { return Step{Strength: s} }
	strong := func(s float64) Step { return Step{Strength: s, Strong: true} }
	youngSup := func(s float64) Step { return Step{Supports: true, Strength: s, Young: true} }
	doubt := func(s float64) Step { return Step{Strength: s, Strong: true, Doubted: true} }
	tests := []struct {
		name    string
		start   float64
		steps   []Step
		want    []float64 // confidence after each step
		flipAt  int       // 1-based step that flips; 0 none
		newConf float64
	}{
		{"one support, small step", 0.7, []Step{sup(0.9)}, []float64{0.74}, 0, 0},
		{"repeated support saturates below 1", 0.9, []Step{sup(1), sup(1), sup(1), sup(1), sup(1), sup(1), sup(1), sup(1)},
			[]float64{0.91, 0.92, 0.93, 0.94, 0.95, 0.96, 0.96, 0.96}, 0, 0},
		{"support without c uses the default strength", 0.5, []Step{sup(DefaultStrength)}, []float64{0.54}, 0, 0},
		{"one weak contradiction lowers a little", 0.8, []Step{weak(0.6)}, []float64{0.75}, 0, 0},
		{"one strong contradiction lowers a little", 0.8, []Step{strong(0.9)}, []float64{0.73}, 0, 0},
		{"repeated weak contradiction never flips", 0.6, []Step{weak(0.6), weak(0.6), weak(0.6), weak(0.6), weak(0.6)},
			[]float64{0.55, 0.5, 0.45, 0.4, 0.35}, 0, 0},
		{"repeated strong contradiction moves far, then flips", 0.8, []Step{strong(0.9), strong(0.9), strong(0.9)},
			[]float64{0.73, 0.59, 0.37}, 3, 0.63},
		{"mixed evidence: support breaks the streak", 0.8, []Step{strong(0.9), strong(0.9), sup(0.9), strong(0.9), strong(0.9)},
			[]float64{0.73, 0.59, 0.64, 0.57, 0.43}, 5, 0.57},
		{"mixed evidence: alternating stays put", 0.7, []Step{strong(0.8), sup(0.8), strong(0.8), sup(0.8)},
			[]float64{0.64, 0.68, 0.62, 0.66}, 0, 0},
		{"never below the floor", 0.05, []Step{weak(1)}, []float64{0.01}, 0, 0},
		// The view restated at c=0.2, three times: it falls as strong
		// contradictions do, and never flips to itself.
		{"repeated doubt falls and does not flip", 0.7, []Step{doubt(0.8), doubt(0.8), doubt(0.8)}, []float64{0.64, 0.51, 0.32}, 0, 0},
		// A young opinion (fewer than YoungEvidence pieces of evidence)
		// moves twice as fast on support: three consistent facts at
		// c=0.7–0.8 take a new opinion past 0.8 (it stopped at 0.76).
		{"a young opinion's support moves twice as far", 0.7, []Step{youngSup(0.75), youngSup(0.8)}, []float64{0.77, 0.82}, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, streak := tt.start, 0
			for i, s := range tt.steps {
				out := Apply(c, streak, s)
				if out.After != tt.want[i] {
					t.Fatalf("step %d (%+v): c %v -> %v, want %v", i+1, s, c, out.After, tt.want[i])
				}
				if s.Supports && out.After < out.Before || !s.Supports && out.After > out.Before {
					t.Errorf("step %d moved the wrong way", i+1)
				}
				if out.After >= 1 {
					t.Errorf("step %d reached 1", i+1)
				}
				if d := out.After - out.Before; s.Supports && d > 0.15 || !s.Supports && i == 0 && d < -0.1 {
					t.Errorf("step %d: a single piece of evidence moved c by %v", i+1, d)
				}
				if out.Flipped != (i+1 == tt.flipAt) {
					t.Fatalf("step %d: flipped %v, want flip at step %d", i+1, out.Flipped, tt.flipAt)
				}
				if out.Flipped && out.NewConfidence != tt.newConf {
					t.Errorf("new confidence %v, want %v", out.NewConfidence, tt.newConf)
				}
				if note := out.Note(s); !strings.Contains(note, "c "+FormatConfidence(out.Before)+"->"+FormatConfidence(out.After)) {
					t.Errorf("note %q does not explain the change", note)
				}
				c, streak = out.After, out.Streak
			}
		})
	}
}

// TestRuleInFile: the same rule through bank/opinions.md, where every
// change is written next to the evidence that caused it and the streak is
// read back from the file.
func TestRuleInFile(t *testing.T) {
	tests := []struct {
		name  string
		facts []string // O facts, one log per day
		want  []string // lines expected in bank/opinions.md
	}{
		{"repeated support",
			[]string{"O(c=0.7) @Ann: Prefers tea in the morning.", "O(c=0.9) @Ann: Prefers tea in the morning, green.", "O(c=0.9) @Ann: Prefers tea in the morning, always."},
			[]string{"- O(c=0.84) @Ann: Prefers tea in the morning.", "(new opinion, c=0.7)", "(c 0.7->0.78)", "(c 0.78->0.84)"}},
		{"one contradiction",
			[]string{"O(c=0.8) @Ann: Likes the night train to Rome.", "O(c=0.6) @Ann: Dislikes the night train to Rome."},
			[]string{"- O(c=0.75) @Ann: Likes the night train to Rome.", "contradicts: f_", "(c 0.8->0.75)"}},
		{"the view restated at a low confidence lowers it, without a flip",
			[]string{"O(c=0.7) @Ann: The night train to Rome runs on time.", "O(c=0.2) @Ann: The night train to Rome runs on time.",
				"O(c=0.2) @Ann: The night train to Rome runs on time.", "O(c=0.2) @Ann: The night train to Rome runs on time."},
			[]string{"- O(c=0.32) @Ann: The night train to Rome runs on time.", "contradicts: f_", "(strong; c 0.64->0.51)", "(strong; c 0.51->0.32)"}},
		{"repeated strong contradiction flips",
			[]string{"O(c=0.8) @Ann: Likes the night train to Rome.", "O(c=0.9) @Ann: No longer likes the night train to Rome.",
				"O(c=0.9) @Ann: Dislikes the night train to Rome now.", "O(c=0.9) @Ann: Really dislikes the night train to Rome."},
			[]string{"- O(c=0.63) @Ann: Really dislikes the night train to Rome.", "(strong; c 0.8->0.73)", "(strong; c 0.73->0.59)",
				"(strong; c 0.59->0.37; flipped, new c=0.63)", "superseded: O(c=0.37) @Ann: Likes the night train to Rome. (until 2025-01-04"}},
		// Few words in common, but the same thing named and a change said:
		// the fact is evidence against the opinion, not a new opinion.
		{"a changed view in other words",
			[]string{"O(c=0.7) @Ann: Prefers Emacs for everything, including mail and notes.", "O(c=0.9) @Ann: Stopped using Emacs entirely; Zed is fast enough."},
			[]string{"- O(c=0.63) @Ann: Prefers Emacs for everything", "contradicts: f_", "(strong; c 0.7->0.63)"}},
		{"mixed evidence",
			[]string{"O(c=0.8) @Ann: Likes the night train to Rome.", "O(c=0.9) @Ann: No longer likes the night train to Rome.",
				"O(c=0.9) @Ann: Likes the night train to Rome again.", "O(c=0.9) @Ann: No longer likes the night train to Rome."},
			[]string{"- O(c=0.73) @Ann: Likes the night train to Rome.", "(strong; c 0.8->0.73)", "(c 0.73->0.8)", "(strong; c 0.8->0.73)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeLogs(t, dir, tt.facts)
			data := opinionsAfterReflect(t, dir, tt.want, nil)
			if strings.Count(data, "\n- O(") != 1 && !strings.HasPrefix(data, "- O(") {
				t.Errorf("evidence started a second opinion:\n%s", data)
			}
		})
	}
}

// opinionsAfterReflect runs reflect on dir and returns bank/opinions.md, which
// must hold every string of want and none of not.
func opinionsAfterReflect(t *testing.T, dir string, want, not []string) string {
	t.Helper()
	run(t, dir, Options{})
	data := testworkspace.Files(t, dir)["bank/opinions.md"]
	for _, w := range want {
		if !strings.Contains(data, w) {
			t.Errorf("bank/opinions.md lacks %q:\n%s", w, data)
		}
	}
	for _, w := range not {
		if strings.Contains(data, w) {
			t.Errorf("bank/opinions.md has %q:\n%s", w, data)
		}
	}
	return data
}

func writeLogs(t *testing.T, dir string, facts []string) {
	t.Helper()
	for i, f := range facts {
		day := "2025-01-" + string(rune('0'+(i+1)/10)) + string(rune('0'+(i+1)%10))
		writeFile(t, dir, "memory/"+day+".md", "# "+day+"\n\n## Retain\n- "+f+"\n")
	}
}

// TestSemanticMatch: with a similarity function (the embedding model), an
// opinion fact that shares few words with an opinion is matched to the
// opinion sharing an entity it is most similar to, when the similarity
// reaches SemanticMatch and leads the next by SemanticMargin; otherwise it
// starts a new opinion, as without the model.
func TestSemanticMatch(t *testing.T) {
	opinion := "O(c=0.7) @Ann: Wants long, detailed answers with tables."
	fact := "O(c=0.8) @Ann: Asks for every number explained when reviewing a design."
	for _, tc := range []struct {
		name      string
		sim       func(a, b string) float64
		opinions  int
		supported bool
	}{
		{"no model", nil, 2, false},
		{"similar enough", func(a, b string) float64 { return 0.62 }, 1, true},
		{"not similar enough", func(a, b string) float64 { return 0.5 }, 2, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeLogs(t, dir, []string{opinion, fact})
			run(t, dir, Options{Similarity: tc.sim})
			data := testworkspace.Files(t, dir)["bank/opinions.md"]
			if n := strings.Count(data, "- O("); n != tc.opinions {
				t.Errorf("%d opinions, want %d:\n%s", n, tc.opinions, data)
			}
			if got := tc.opinions == 1 && strings.Count(data, "supports: f_") == 2; got != tc.supported {
				t.Errorf("the fact supports the opinion: %v, want %v:\n%s", got, tc.supported, data)
			}
		})
	}
}

// TestParseNote reads back what Note writes.
func TestParseNote(t *testing.T) {
	o := Outcome{Before: 0.52, After: 0.38, Flipped: true, NewConfidence: 0.62}
	c := ParseNote(o.Note(Step{Strong: true}))
	if !c.HasChange || c.Before != 0.52 || c.After != 0.38 || !c.HasNew || !c.Flipped || c.New != 0.62 {
		t.Errorf("flipped: %+v", c)
	}
	c = ParseNote("new opinion, c=0.7")
	if c.HasChange || !c.HasNew || c.Flipped || c.New != 0.7 {
		t.Errorf("new: %+v", c)
	}
	if c := ParseNote("hand-written"); c.HasChange || c.HasNew {
		t.Errorf("plain: %+v", c)
	}
}

// TestEvidenceAlreadyHeld: an O fact no opinion cites by its line is not
// applied again when the opinions file says its confidence holds it
// already: the opinion cites the fact's file as a whole (in the same or in
// other words), or was last updated after the fact was written. An opinion
// citing nothing, at the confidence the fact states, was written from it:
// the fact becomes its citation and the confidence stays, and a later fact
// saying the same counts. A fact in part in the words of its entity's only
// opinion is evidence for it, not a second opinion; the verbs that frame
// a view ("thinks") are no shared words.
func TestEvidenceAlreadyHeld(t *testing.T) {
	tests := []struct {
		name     string
		opinions string   // bank/opinions.md after its title
		facts    []string // O facts, one log per day from 2025-01-01
		want     []string // in bank/opinions.md after reflect
		not      []string // not in it
	}{
		{"its file cited",
			"- O(c=0.8) @Ann: Prefers tea in the morning.\n  - supports: memory/2025-01-01.md\n",
			[]string{"O(c=0.8) @Ann: Prefers tea in the morning, green."},
			[]string{"- O(c=0.8) @Ann: Prefers tea in the morning.\n  - supports: memory/2025-01-01.md\n"},
			[]string{"f_"}},
		{"its file cited, in other words",
			"- O(c=0.9) @Ann: Do not ring Ann after lunch; she naps.\n  - supports: memory/2025-01-01.md\n",
			[]string{"O(c=0.9) @Ann: Must not be phoned between 13:00 and 16:00."},
			[]string{"- O(c=0.9) @Ann: Do not ring Ann after lunch"},
			[]string{"f_", "13:00"}},
		{"written before the last update",
			"- O(c=0.8) @Ann: Prefers tea in the morning.\n  - last_updated: 2025-01-05\n",
			[]string{"O(c=0.6) @Ann: Dislikes tea in the morning."},
			[]string{"- O(c=0.8) @Ann: Prefers tea in the morning.\n  - last_updated: 2025-01-05\n"},
			[]string{"f_"}},
		{"a last update that is no day",
			"- O(c=0.8) @Ann: Prefers tea in the morning.\n  - last_updated: late 2025\n",
			[]string{"O(c=0.9) @Ann: Prefers tea in the morning, always."},
			[]string{"memory/2025-01-01.md#L4 (c 0.8->"},
			nil},
		{"its source, then a second say",
			"- O(c=0.8) @Ann: Prefers tea in the morning.\n",
			[]string{"O(c=0.8) @Ann: Prefers tea in the morning.", "O(c=0.9) @Ann: Prefers tea in the morning, always."},
			[]string{"- O(c=0.85) @Ann: Prefers tea in the morning.", "memory/2025-01-01.md#L4 (" + SourceNote + ")", "memory/2025-01-02.md#L4 (c 0.8->0.85)"},
			nil},
		{"in part the words of the only opinion",
			"- O(c=0.8) @Ann: The best person in the building for calming a complaint, and steady in a crisis.\n",
			[]string{"O(c=0.7) @Ann: Steady in a crisis; handled the blackout at the Doyle wedding without any fuss."},
			[]string{"- O(c=0.8", "memory/2025-01-01.md#L4 (c 0.8->"},
			[]string{"new opinion"}},
		{"a world fact of its entity against it",
			"- O(c=0.7) @Ridings: Ridings are reliable on delivery times.\n",
			[]string{"W @Ridings: Sent pads for the wrong Focus; not reliable on delivery times at the moment."},
			[]string{"- O(c=0.65) @Ridings: Ridings are reliable on delivery times.", "contradicts: f_", "memory/2025-01-01.md#L4 (c 0.7->0.65)"},
			[]string{"new opinion"}},
		{"a world fact of its entity that takes no stance",
			"- O(c=0.7) @Ridings: Ridings are reliable on delivery times.\n",
			[]string{"W @Ridings: Ridings deliver twice a day from the Stourton depot."},
			[]string{"- O(c=0.7) @Ridings: Ridings are reliable on delivery times.\n"},
			[]string{"f_", "new opinion"}},
		{"a world fact that names no entity",
			"- O(c=0.7): The Roman Rock reading overstates the gusts at our slipway by a few knots.\n",
			[]string{"W Racing is cancelled if Roman Rock shows a sustained 25 knots or more."},
			[]string{"- O(c=0.7): The Roman Rock reading overstates the gusts at our slipway by a few knots.\n"},
			[]string{"f_"}},
		{"sharing only a framing verb",
			"- O(c=0.6) @Ann: Thinks drift nets say more about mayflies than benthic samples.\n",
			[]string{"O(c=0.6) @Ann: Thinks the paired samples could become a short paper."},
			[]string{"new opinion, c=0.6"},
			nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFile(t, dir, "bank/opinions.md", "# Opinions\n\n"+tt.opinions)
			writeLogs(t, dir, tt.facts)
			opinionsAfterReflect(t, dir, tt.want, tt.not)
		})
	}
}
