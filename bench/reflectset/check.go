package main

import (
	"bytes"
	"encoding/json"
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

// checks is what a set's checks.json expects of its workspace after
// reflect, as the person who wrote the set expects it.
type checks struct {
	// Now is the day reflect runs on: after the last log.
	Now string `json:"now"`
	// Stale: curated statements in bank/ later logs outdate; the line
	// holding Old must be struck through and name Current, a word of the
	// new value.
	Stale []struct{ Path, Old, Current string } `json:"stale"`
	// Kept: curated lines that must stay byte for byte.
	Kept []struct{ Path, Line string } `json:"kept"`
	// Proposals: memory.md statements gone out of date, which
	// review/core-proposals.md must name (with Current, when given);
	// NotProposed: memory.md statements it must not name.
	Proposals   []struct{ Old, Current string } `json:"proposals"`
	NotProposed []struct{ Old string }          `json:"not_proposed"`
	// Opinions: the confidence each opinion must end in.
	Opinions []struct {
		Prefix string  `json:"prefix"`
		Min    float64 `json:"min"`
		Max    float64 `json:"max"`
		Why    string  `json:"why"`
	} `json:"opinions"`
	// OpinionCount: how many opinions bank/opinions.md must hold (0: not
	// checked): the page's own and the new views, no view twice.
	OpinionCount int `json:"opinion_count"`
	// Summaries: a value a page's managed block must show; NewPages:
	// entity pages reflect must create.
	Summaries []struct{ Path, Value string } `json:"summaries"`
	NewPages  []string                       `json:"new_pages"`
}

// loadChecks reads a set's checks.json.
func loadChecks(path string) (*checks, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var c checks
	if err := json.Unmarshal(data, &c); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if c.Now == "" {
		return nil, fmt.Errorf("%s: no now", path)
	}
	return &c, nil
}

// validate reports what of the checks the original workspace orig does
// not hold as written: a stale or proposed statement, a kept line or an
// opinion that is not there.
func (c *checks) validate(orig string) error {
	read := func(rel string) string {
		b, _ := os.ReadFile(filepath.Join(orig, filepath.FromSlash(rel)))
		return string(b)
	}
	var missing []string
	for _, s := range c.Stale {
		if !strings.Contains(read(s.Path), s.Old) {
			missing = append(missing, s.Path+": "+s.Old)
		}
	}
	for _, k := range c.Kept {
		if lineWith(read(k.Path), k.Line) != k.Line {
			missing = append(missing, k.Path+": "+k.Line)
		}
	}
	for _, p := range c.Proposals {
		if !strings.Contains(read("memory.md"), p.Old) {
			missing = append(missing, "memory.md: "+p.Old)
		}
	}
	for _, p := range c.NotProposed {
		if !strings.Contains(read("memory.md"), p.Old) {
			missing = append(missing, "memory.md: "+p.Old)
		}
	}
	for _, o := range c.Opinions {
		// An opinion reflect is to create is in a log, not on the page.
		if !strings.Contains(read("bank/opinions.md"), o.Prefix) && !inLogs(orig, o.Prefix) {
			missing = append(missing, "opinion: "+o.Prefix)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("not in the workspace as written: %s", strings.Join(missing, "; "))
	}
	return nil
}

// inLogs reports whether a daily log of orig contains s.
func inLogs(orig, s string) bool {
	logs, _ := filepath.Glob(filepath.Join(orig, "memory", "*.md"))
	for _, l := range logs {
		if b, _ := os.ReadFile(l); strings.Contains(string(b), s) {
			return true
		}
	}
	return false
}

// checkWorkspace reads a reflected copy of the workspace (dir) and the
// original (orig), and returns the checks: c's, and that the logs and
// memory.md are byte-identical and a second run changed nothing.
func checkWorkspace(c *checks, orig, dir string, secondRunChanged []string) []check {
	var out []check
	add := func(name string, ok bool, detail string, args ...any) {
		out = append(out, check{name, ok, fmt.Sprintf(detail, args...)})
	}
	read := func(rel string) string {
		b, _ := os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel)))
		return string(b)
	}
	for _, s := range c.Stale {
		line := lineWith(read(s.Path), s.Old)
		marked := strings.Contains(line, "~~") && strings.Contains(line, s.Current)
		add("stale marked: "+s.Path+": "+s.Old, marked, "line %q", line)
	}
	for _, k := range c.Kept {
		line := lineWith(read(k.Path), k.Line)
		add("kept: "+k.Path+": "+k.Line, line == k.Line, "line %q", line)
	}
	for _, p := range c.Summaries {
		block := managedBlock(read(p.Path))
		add("current value in the page's summary: "+p.Path+": "+p.Value, strings.Contains(block, p.Value), "%d bytes of block", len(block))
	}
	for _, p := range c.NewPages {
		add("page for a new entity: "+p, strings.Contains(read(p), "memoria:begin"), "")
	}
	opinions := read("bank/opinions.md")
	for _, o := range c.Opinions {
		v, found := opinionConfidence(opinions, o.Prefix)
		add(fmt.Sprintf("confidence of %q in [%.2f, %.2f] (%s)", o.Prefix, o.Min, o.Max, o.Why), found && v >= o.Min && v <= o.Max, "c=%.2f found=%v", v, found)
	}
	if c.OpinionCount > 0 {
		n := strings.Count("\n"+opinions, "\n- O(")
		add(fmt.Sprintf("%d opinions, no view twice", c.OpinionCount), n == c.OpinionCount, "%d opinions", n)
	}
	proposals := read("review/core-proposals.md")
	for _, p := range c.Proposals {
		line := lineWith(proposals, p.Old)
		add("stale core line proposed: memory.md: "+p.Old, line != "" && strings.Contains(line, p.Current), "line %q", line)
	}
	for _, p := range c.NotProposed {
		add("core line not proposed: memory.md: "+p.Old, lineWith(proposals, p.Old) == "", "line %q", lineWith(proposals, p.Old))
	}
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
