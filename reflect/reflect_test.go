package reflect

import (
	"context"
	"errors"
	"flag"
	"maps"
	"memoria/internal/testworkspace"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"memoria/markdown"
	"memoria/memory"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

var goldenNow = time.Date(2025, 11, 30, 0, 0, 0, 0, time.UTC)

// fixture copies testdata/ws into a temporary folder.
func fixture(t testing.TB) string {
	t.Helper()
	return testworkspace.Copy(t, filepath.Join("testdata", "ws"))
}

func run(t testing.TB, dir string, o Options) *Plan {
	t.Helper()
	p, err := Run(context.Background(), dir, o, false, WriteOptions{})
	if err != nil {
		t.Fatalf("reflect: %v", err)
	}
	return p
}

// TestGolden runs reflect on the fixture workspace and compares every file
// it writes with testdata/golden (go test ./reflect -run Golden -update
// rewrites them).
func TestGolden(t *testing.T) {
	dir := fixture(t)
	before := testworkspace.Files(t, dir)
	p := run(t, dir, Options{Now: goldenNow})
	after := testworkspace.Files(t, dir)
	golden := filepath.Join("testdata", "golden")
	if *update {
		os.RemoveAll(golden)
		for _, c := range p.Changes {
			out := filepath.Join(golden, filepath.FromSlash(c.Path))
			os.MkdirAll(filepath.Dir(out), 0o755)
			if err := os.WriteFile(out, c.New, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	want := testworkspace.Files(t, golden)
	var changed []string
	for rel, data := range after {
		if before[rel] != data {
			changed = append(changed, rel)
		}
	}
	slices.Sort(changed)
	var wantPaths []string
	for rel := range want {
		wantPaths = append(wantPaths, rel)
	}
	slices.Sort(wantPaths)
	if !slices.Equal(changed, wantPaths) {
		t.Fatalf("changed files %v, golden %v", changed, wantPaths)
	}
	for rel, w := range want {
		if after[rel] != w {
			t.Errorf("%s differs from testdata/golden:\n%s", rel, UnifiedDiff(rel, []byte(w), []byte(after[rel]), false))
		}
	}
	// Never memory.md, never a log.
	for rel := range after {
		if (rel == "memory.md" || strings.HasPrefix(rel, "memory/")) && before[rel] != after[rel] {
			t.Errorf("reflect wrote %s", rel)
		}
	}
}

// TestTwiceIdentical: a second run right after the first changes nothing.
func TestTwiceIdentical(t *testing.T) {
	for _, o := range []Options{{Now: goldenNow}, {}, {Since: time.Date(2025, 11, 5, 0, 0, 0, 0, time.UTC)}} {
		dir := fixture(t)
		run(t, dir, o)
		first := testworkspace.Files(t, dir)
		p := run(t, dir, o)
		if len(p.Changes) != 0 {
			t.Errorf("%+v: second run changes %v", o, p.Report.Changed)
		}
		if second := testworkspace.Files(t, dir); !maps.Equal(first, second) {
			t.Errorf("%+v: second run changed bytes", o)
		}
	}
}

// TestHandEdits: text outside the managed block survives byte for byte;
// an edit inside it is reported and kept beside a fresh block.
func TestHandEdits(t *testing.T) {
	dir := fixture(t)
	run(t, dir, Options{Now: goldenNow})
	page := filepath.Join(dir, "bank", "entities", "Peter.md")
	data, _ := os.ReadFile(page)
	s := string(data)
	begin := strings.Index(s, BeginMarker)
	end := strings.Index(s, EndMarker) + len(EndMarker) + 1
	if begin < 0 || end <= begin {
		t.Fatalf("no managed block in Peter.md:\n%s", s)
	}
	// Edit outside (before and after) and inside the block.
	head := s[:begin] + "My own line, before the block.\n\n"
	tail := "\nAfter the block, no final newline"
	inside := strings.Replace(s[begin:end], "Drinks oat milk flat whites.", "Drinks oat milk flat whites (hand edit).", 1)
	if inside == s[begin:end] {
		t.Fatal("fixture changed: no oat milk line in the block")
	}
	os.WriteFile(page, []byte(head+inside+tail), 0o644)
	// A new fact, so that the block has something new to say.
	os.WriteFile(filepath.Join(dir, "memory", "2025-11-20.md"), []byte("## Retain\n- W @Peter: Bought a cargo bike.\n"), 0o644)

	p := run(t, dir, Options{Now: goldenNow})
	var pc *PageChange
	for i := range p.Report.Pages {
		if p.Report.Pages[i].Path == "bank/entities/Peter.md" {
			pc = &p.Report.Pages[i]
		}
	}
	if pc == nil || !pc.HandEdited {
		t.Fatalf("hand edit inside the block not reported: %+v", p.Report.Pages)
	}
	got, _ := os.ReadFile(page)
	g := string(got)
	if !strings.HasPrefix(g, head) || !strings.HasSuffix(g, tail) {
		t.Errorf("text outside the block changed:\n%s", g)
	}
	if !strings.Contains(g, "(hand edit)") || !strings.Contains(g, EditedBegin) {
		t.Errorf("the edited block was not kept:\n%s", g)
	}
	if !strings.Contains(g, "Bought a cargo bike") || strings.Count(g, BeginMarker) != 1 {
		t.Errorf("no fresh block:\n%s", g)
	}
	// And then nothing more changes.
	if p := run(t, dir, Options{Now: goldenNow}); len(p.Changes) != 0 {
		t.Errorf("third run changes %v", p.Report.Changed)
	}
	// Malformed markers: the page is left alone, with a warning.
	os.WriteFile(page, []byte(g+"\n"+BeginMarker+" hash=x -->\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "memory", "2025-11-21.md"), []byte("## Retain\n- W @Peter: Sold the cargo bike.\n"), 0o644)
	before, _ := os.ReadFile(page)
	p = run(t, dir, Options{Now: goldenNow})
	after, _ := os.ReadFile(page)
	if string(before) != string(after) || len(p.Report.Warnings) == 0 {
		t.Errorf("malformed page touched, or no warning: %v", p.Report.Warnings)
	}
}

// TestEditedWhileRunning: a file edited between compute and write is not
// overwritten, and nothing else is written either.
func TestEditedWhileRunning(t *testing.T) {
	dir := fixture(t)
	before := testworkspace.Files(t, dir)
	ops := filepath.Join(dir, "bank", "opinions.md")
	edit := before["bank/opinions.md"] + "\n- O(c=0.5) @Biscuit: Likes the garden.\n"
	_, err := Run(context.Background(), dir, Options{Now: goldenNow}, false, WriteOptions{
		BeforeWrite: func() { os.WriteFile(ops, []byte(edit), 0o644) },
	})
	if !errors.Is(err, ErrChanged) || !strings.Contains(err.Error(), "bank/opinions.md") {
		t.Fatalf("want ErrChanged naming bank/opinions.md, got %v", err)
	}
	after := testworkspace.Files(t, dir)
	before["bank/opinions.md"] = edit
	if !maps.Equal(before, after) {
		t.Error("reflect wrote something after detecting a concurrent edit")
	}
	// Run again: the edit is kept and built upon.
	run(t, dir, Options{Now: goldenNow})
	if got, _ := os.ReadFile(ops); !strings.Contains(string(got), "@Biscuit: Likes the garden.") {
		t.Error("the concurrent edit was lost")
	}
}

// TestDryRun writes nothing and shows a unified diff.
func TestDryRun(t *testing.T) {
	dir := fixture(t)
	before := testworkspace.Files(t, dir)
	p, err := Run(context.Background(), dir, Options{Now: goldenNow}, true, WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !maps.Equal(before, testworkspace.Files(t, dir)) {
		t.Error("dry run wrote")
	}
	d := p.Diff()
	for _, want := range []string{"--- a/bank/opinions.md\n+++ b/bank/opinions.md\n@@ ", "--- /dev/null\n+++ b/bank/entities/Biscuit.md\n", "+- O(c=0.51) @Peter @warelay: Now dislikes Fly.io"} {
		if !strings.Contains(d, want) {
			t.Errorf("diff lacks %q:\n%s", want, d)
		}
	}
}

// TestEvidenceResolves: every evidence line reflect wrote cites a fact ID
// that is the fact at the cited lines, and notes the change it made.
func TestEvidenceResolves(t *testing.T) {
	dir := fixture(t)
	run(t, dir, Options{Now: goldenNow})
	data, _ := os.ReadFile(filepath.Join(dir, "bank", "opinions.md"))
	f, err := ParseOpinions(data)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, op := range f.Opinions() {
		ev, _ := op.Evidence()
		for _, e := range ev {
			if e.FactID == "" {
				continue // hand-written, kept as is
			}
			n++
			if !strings.Contains(e.Note, "c ") && !strings.Contains(e.Note, "c=") {
				t.Errorf("evidence %s does not say what it changed", e)
			}
			log, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(e.Source.Path)))
			if err != nil {
				t.Fatalf("%s: %v", e, err)
			}
			doc, _ := markdown.Parse(e.Source.Path, log)
			found := false
			for _, fa := range doc.Facts {
				if fa.ID == e.FactID && fa.Source == e.Source {
					found = true
				}
			}
			if !found {
				t.Errorf("evidence %s does not resolve", e)
			}
		}
	}
	if n < 6 {
		t.Errorf("only %d evidence lines written", n)
	}
}

// TestSinceScope: with --since, older facts are not new evidence.
func TestSinceScope(t *testing.T) {
	dir := fixture(t)
	p := run(t, dir, Options{Now: goldenNow, Since: time.Date(2025, 11, 6, 0, 0, 0, 0, time.UTC)})
	if p.Report.NewEvidence != 2 {
		t.Errorf("new evidence %d, want 2 (2025-11-06 and 2025-11-07)", p.Report.NewEvidence)
	}
	for _, pc := range p.Report.Pages {
		if pc.Path == "bank/entities/Biscuit.md" || pc.Path == "bank/entities/Andy.md" {
			t.Errorf("page of an entity without recent facts refreshed: %s", pc.Path)
		}
	}
}

var _ = memory.Day

func writeFile(t testing.TB, dir, rel, data string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}
