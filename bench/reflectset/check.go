package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// A check is one thing the reflected workspace must show.
type check struct {
	name   string
	ok     bool
	detail string
}

// staleLine: a curated statement later logs contradict, and a word of the
// value that replaced it.
type staleLine struct {
	path, old, current string
}

// The workspace's curated pages, as later logs contradict them.
var staleLines = []staleLine{
	{"bank/entities/Noor.md", "Lives in Rotterdam", "Utrecht"},
	{"bank/entities/Tomasz.md", "Uses Emacs as his editor", "Zed"},
	{"bank/entities/kiln-server.md", "Runs Debian 12", "Debian 13"},
	{"bank/entities/harbor-app.md", "Production is on release 2.3", "2.5"},
	{"bank/world.md", "kiln-server runs Debian 12", "Debian 13"},
	{"bank/world.md", "harbor-app is on release 2.3", "2.5"},
}

// currentLines: curated statements no later log contradicts, which must
// stay as written.
var currentLines = []staleLine{
	{"bank/entities/Noor.md", "- Drinks her coffee black.", ""},
	{"bank/entities/Tomasz.md", "- Rides a cargo bike to work.", ""},
	{"bank/entities/harbor-app.md", "- Deploys go out on Thursday afternoons.", ""},
	{"bank/world.md", "- W @Noor: Noor's team has four analysts.", ""},
}

// confidence: the opinion whose statement starts with prefix, as found in
// bank/opinions.md (its bullet, or the superseded line if it flipped), must
// have a confidence in [min, max].
type confidence struct {
	prefix   string
	min, max float64
	why      string
}

var confidences = []confidence{
	{"Prefers Emacs for everything", 0, 0.4, "repeated, strong contradiction"},
	{"Likes working from the office on Tuesdays", 0, 0.55, "contradicted twice"},
	{"The harbor-app test suite is reliable", 0.7, 1, "supported three times"},
	{"Prefers to do code review first thing in the morning", 0.8, 1, "a new opinion three consistent facts support"},
}

// checkWorkspace reads a reflected copy of the workspace (dir) and the
// original (orig), and returns the checks.
func checkWorkspace(orig, dir string, secondRunChanged []string) []check {
	var out []check
	add := func(name string, ok bool, detail string, args ...any) {
		out = append(out, check{name, ok, fmt.Sprintf(detail, args...)})
	}
	read := func(rel string) string {
		b, _ := os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel)))
		return string(b)
	}
	for _, s := range staleLines {
		text := read(s.path)
		line := lineWith(text, s.old)
		marked := strings.Contains(line, "~~") && strings.Contains(line, s.current)
		add("stale marked: "+s.path+": "+s.old, marked, "line %q", line)
	}
	for _, s := range currentLines {
		add("kept: "+s.path+": "+s.old, lineWith(read(s.path), s.old) == s.old, "line %q", lineWith(read(s.path), s.old))
	}
	for _, p := range []struct{ page, value string }{
		{"bank/entities/Noor.md", "Utrecht"}, {"bank/entities/Tomasz.md", "Zed"},
		{"bank/entities/kiln-server.md", "Debian 13"}, {"bank/entities/harbor-app.md", "2.5"},
	} {
		block := managedBlock(read(p.page))
		add("current value in the page's summary: "+p.page+": "+p.value, strings.Contains(block, p.value), "%d bytes of block", len(block))
	}
	add("page for a new person: bank/entities/Priya.md", strings.Contains(read("bank/entities/Priya.md"), "memoria:begin"), "")
	opinions := read("bank/opinions.md")
	for _, c := range confidences {
		v, found := opinionConfidence(opinions, c.prefix)
		add(fmt.Sprintf("confidence of %q in [%.2f, %.2f] (%s)", c.prefix, c.min, c.max, c.why), found && v >= c.min && v <= c.max, "c=%.2f found=%v", v, found)
	}
	proposals := read("review/core-proposals.md")
	add("stale core line proposed: memory.md: Noor lives in Rotterdam", strings.Contains(proposals, "Rotterdam") && strings.Contains(proposals, "Utrecht"), "")
	same := true
	for _, rel := range []string{"memory.md"} {
		a, _ := os.ReadFile(filepath.Join(orig, rel))
		same = same && bytes.Equal(a, []byte(read(rel)))
	}
	logs, _ := filepath.Glob(filepath.Join(orig, "memory", "*.md"))
	for _, l := range logs {
		a, _ := os.ReadFile(l)
		same = same && bytes.Equal(a, []byte(read("memory/"+filepath.Base(l))))
	}
	add("logs and memory.md byte-identical", same && len(logs) > 0, "%d logs", len(logs))
	add("a second run changes nothing", len(secondRunChanged) == 0, "changed %v", secondRunChanged)
	return out
}

// lineWith returns the first line of text that contains s, or "".
func lineWith(text, s string) string {
	for _, l := range strings.Split(text, "\n") {
		if strings.Contains(l, s) {
			return strings.TrimRight(l, "\r")
		}
	}
	return ""
}

// managedBlock returns a page's managed block.
func managedBlock(text string) string {
	i := strings.Index(text, "<!-- memoria:begin")
	j := strings.Index(text, "<!-- memoria:end")
	if i < 0 || j < i {
		return ""
	}
	return text[i:j]
}

var confPattern = regexp.MustCompile(`O\(c=([0-9.]+)\)`)

// opinionConfidence finds the confidence written with the statement that
// starts with prefix: on the opinion's bullet, or on its superseded line
// after a flip (where the old statement keeps its last confidence).
func opinionConfidence(text, prefix string) (float64, bool) {
	for _, l := range strings.Split(text, "\n") {
		i := strings.Index(l, prefix)
		if i < 0 {
			continue
		}
		m := confPattern.FindStringSubmatch(l[:i])
		if m == nil {
			continue
		}
		v, err := strconv.ParseFloat(m[1], 64)
		return v, err == nil
	}
	return 0, false
}
