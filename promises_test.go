package memoria_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestPromisesNameRealTests: every test docs/promises.md names exists, in
// the package it is named with, so that the page cannot promise what no
// test holds. In the page a package in backticks (`safewrite`, `.` for
// the root) comes before the tests of it (`TestConfinement`).
func TestPromisesNameRealTests(t *testing.T) {
	page, err := os.ReadFile(filepath.Join("docs", "promises.md"))
	if err != nil {
		t.Fatal(err)
	}
	sources := map[string]string{} // package folder → its tests' text
	testsOf := func(dir string) string {
		if s, ok := sources[dir]; ok {
			return s
		}
		files, _ := filepath.Glob(filepath.Join(dir, "*_test.go"))
		var b strings.Builder
		for _, f := range files {
			data, _ := os.ReadFile(f)
			b.Write(data)
		}
		sources[dir] = b.String()
		return sources[dir]
	}
	pkg, named := "", 0
	for _, m := range regexp.MustCompile("`([^`\n]+)`").FindAllStringSubmatch(string(page), -1) {
		tok := m[1]
		if st, err := os.Stat(tok); err == nil && st.IsDir() && (tok == "." || !strings.HasPrefix(tok, ".")) {
			if g, _ := filepath.Glob(filepath.Join(tok, "*.go")); len(g) > 0 {
				pkg = tok
				continue
			}
		}
		if !regexp.MustCompile(`^(Test|Fuzz)[A-Z]\w*$`).MatchString(tok) {
			continue
		}
		named++
		if pkg == "" {
			t.Errorf("%s is named before any package", tok)
		} else if !strings.Contains(testsOf(pkg), "func "+tok+"(") {
			t.Errorf("docs/promises.md names %s in %s, which has no such test", tok, pkg)
		}
	}
	if named < 40 {
		t.Errorf("only %d tests named: the page's form changed?", named)
	}
}
