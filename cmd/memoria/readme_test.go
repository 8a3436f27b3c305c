package main

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"memoria/internal/testworkspace"
)

// TestREADMEExamples runs every line of the README's examples block, on a
// copy of the example workspace, and checks the exit code its comment
// gives; every code of the README's exit-code table is shown by one, and
// every command of its command table is one the binary knows.
func TestREADMEExamples(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	readme := string(data)
	start := strings.Index(readme, "Examples, each with its exit code")
	if start < 0 {
		t.Fatal("README: no examples block")
	}
	block := readme[start:]
	block = block[strings.Index(block, "```sh\n")+6:]
	block = block[:strings.Index(block, "```")]
	ws := testworkspace.CopyExample(t)
	line := regexp.MustCompile(`^memoria (.*?)\s+# (\d)\b`)
	seen := map[int]bool{}
	sc := bufio.NewScanner(strings.NewReader(block))
	n := 0
	for sc.Scan() {
		m := line.FindStringSubmatch(sc.Text())
		if m == nil {
			t.Errorf("README example without an exit code: %q", sc.Text())
			continue
		}
		args, err := shellWords(strings.ReplaceAll(m[1], "examples/workspace", ws))
		if err != nil {
			t.Fatalf("%q: %v", m[1], err)
		}
		want, _ := strconv.Atoi(m[2])
		seen[want] = true
		n++
		if code, _, errOut := cli(t, args...); code != want {
			t.Errorf("memoria %s: exit %d, README says %d (%s)", m[1], code, want, strings.TrimSpace(errOut))
		}
	}
	if n < 10 {
		t.Errorf("only %d examples found", n)
	}
	for _, code := range []int{exitOK, exitError, exitUsage, exitNoSpace, exitNotFound} {
		if !seen[code] {
			t.Errorf("no README example shows exit code %d", code)
		}
		if !strings.Contains(readme, "`"+strconv.Itoa(code)+"`") {
			t.Errorf("README's exit-code table lacks %d", code)
		}
	}
	known := map[string]bool{}
	for _, c := range commands {
		known[c.name] = true
	}
	for _, m := range regexp.MustCompile("(?m)^\\| `memoria ([a-z]+)").FindAllStringSubmatch(readme, -1) {
		if !known[m[1]] {
			t.Errorf("README's command table names %q, which the binary does not know", m[1])
		}
	}
	for _, c := range commands {
		if c.run != nil && c.name != "version" && !strings.Contains(readme, "| `memoria "+c.name) {
			t.Errorf("command %q is not in the README's command table", c.name)
		}
	}
}

// shellWords splits a command line as sh would for the README's simple
// examples: words separated by spaces, double-quoted words kept whole.
func shellWords(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord, quoted := false, false
	for _, r := range s {
		switch {
		case r == '"':
			quoted, inWord = !quoted, true
		case r == ' ' && !quoted:
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if quoted {
		return nil, strconv.ErrSyntax
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}
