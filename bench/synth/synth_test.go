package synth

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// readTree returns every file under dir by slash-separated relative path.
func readTree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		files[filepath.ToSlash(rel)] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func TestLayout30Days(t *testing.T) {
	dir := t.TempDir()
	start := time.Date(2019, 2, 20, 0, 0, 0, 0, time.UTC)
	st, err := Generate(dir, Options{Days: 30, Seed: 7, Start: start})
	if err != nil {
		t.Fatal(err)
	}
	files := readTree(t, dir)
	if st.Files != len(files) || st.DailyLogs != 30 || st.EntityPages != 100 {
		t.Fatalf("stats %+v, %d files on disk", st, len(files))
	}
	if st.Entities < 190 || st.Entities > 210 {
		t.Errorf("entity pool of %d, want about 200", st.Entities)
	}
	var total int64
	for _, b := range files {
		total += int64(len(b))
	}
	if total != st.Bytes {
		t.Errorf("Stats.Bytes = %d, files hold %d", st.Bytes, total)
	}
	for _, want := range []string{"memory.md", "bank/world.md", "bank/experience.md", "bank/opinions.md",
		"memory/2019-02-20.md", "memory/2019-03-21.md", "bank/entities/Peter.md", "bank/entities/warelay.md"} {
		if _, ok := files[want]; !ok {
			t.Errorf("missing %s", want)
		}
	}
	if _, ok := files["memory/2019-03-22.md"]; ok {
		t.Error("wrote a 31st day")
	}
	logName := regexp.MustCompile(`^memory/(\d{4}-\d{2}-\d{2})\.md$`)
	heading := regexp.MustCompile(`^## (Session \d+ · \d{2}:\d{2}|.+)$`)
	typed := regexp.MustCompile(`^- (W|B|S|O(\(c=(0(\.\d+)?|1(\.0+)?)\))?) @[A-Za-z][A-Za-z0-9-]*: \S`)
	retains := 0
	for name, b := range files {
		if !bytes.HasSuffix(b, []byte("\n")) || bytes.HasSuffix(b, []byte("\n\n")) {
			t.Errorf("%s does not end with exactly one newline", name)
		}
		m := logName.FindStringSubmatch(name)
		if m == nil {
			continue
		}
		lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
		if lines[0] != "# "+m[1] {
			t.Errorf("%s: title %q", name, lines[0])
		}
		sections, inRetain := 0, false
		for i, l := range lines {
			if strings.HasPrefix(l, "## ") {
				if !heading.MatchString(l) {
					t.Errorf("%s:%d: bad heading %q", name, i+1, l)
				}
				sections++
				inRetain = l == "## Retain"
				if inRetain {
					retains++
				}
				continue
			}
			if inRetain && strings.HasPrefix(l, "- ") && !typed.MatchString(l) {
				t.Errorf("%s:%d: bad Retain bullet %q", name, i+1, l)
			}
		}
		if sections == 0 {
			t.Errorf("%s has no sections", name)
		}
	}
	if retains != st.RetainSections || retains == 0 || retains == 30 {
		t.Errorf("%d Retain sections (stats say %d), want some but not all", retains, st.RetainSections)
	}
	page := string(files["bank/entities/Peter.md"])
	if !strings.HasPrefix(page, "---\naliases: [Pete]\ntype: person\n---\n# Peter\n") {
		t.Errorf("Peter.md starts %q", page[:min(len(page), 80)])
	}
	// Evidence links in opinions.md point at real Retain bullets.
	src := regexp.MustCompile(`supports: (memory/[0-9-]+\.md)#L(\d+)`)
	for _, m := range src.FindAllStringSubmatch(string(files["bank/opinions.md"]), -1) {
		lines := strings.Split(string(files[m[1]]), "\n")
		var n int
		for _, c := range m[2] {
			n = n*10 + int(c-'0')
		}
		if n < 1 || n > len(lines) || !strings.HasPrefix(lines[n-1], "- O") {
			t.Errorf("opinion evidence %s#L%s is not an opinion bullet", m[1], m[2])
		}
	}
}

func TestDeterministic(t *testing.T) {
	gen := func(seed uint64, days int) map[string][]byte {
		dir := t.TempDir()
		if _, err := Generate(dir, Options{Days: days, Seed: seed}); err != nil {
			t.Fatal(err)
		}
		return readTree(t, dir)
	}
	a, b, c := gen(1, 60), gen(1, 60), gen(2, 60)
	if len(a) != len(b) {
		t.Fatalf("%d vs %d files", len(a), len(b))
	}
	for name, x := range a {
		if !bytes.Equal(x, b[name]) {
			t.Errorf("%s differs between two runs with the same seed", name)
		}
	}
	if bytes.Equal(a["memory/2016-01-05.md"], c["memory/2016-01-05.md"]) {
		t.Error("seed 2 produced the same log as seed 1")
	}
	// A shorter workspace is a prefix of a longer one, log for log.
	short := gen(1, 10)
	for name, x := range short {
		if strings.HasPrefix(name, "memory/") && !bytes.Equal(x, a[name]) {
			t.Errorf("%s differs between a 10-day and a 60-day workspace", name)
		}
	}
}

func TestNegativeDays(t *testing.T) {
	if _, err := Generate(t.TempDir(), Options{Days: -1}); err == nil {
		t.Error("no error for negative days")
	}
}

// BenchmarkGenerate365 measures generating one year of logs.
func BenchmarkGenerate365(b *testing.B) {
	for b.Loop() {
		if _, err := Generate(b.TempDir(), Options{Days: 365, Seed: 1}); err != nil {
			b.Fatal(err)
		}
	}
}
