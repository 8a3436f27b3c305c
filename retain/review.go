package retain

import (
	"bytes"
	"fmt"
	"memoria/markdown"
	"strconv"
	"strings"

	"memoria/memory"
)

// ReviewHeader opens a new review file.
const ReviewHeader = `# Retain proposals

Facts inferred from daily logs that have no Retain section. Nothing here is
indexed or recalled until accepted. Tick the ones worth keeping ([x]), edit
their text if you like, then run ` + "`memoria retain --accept`" + `: ticked lines
move into the Retain section of the log they cite and leave this file.
Delete a line to reject it.
`

var reviewLineRE = lazyRegexp(`^\s*[-*+] \[([ xX])\] (.+?) \(from ([^\s()#]+)#L(\d+)(?:-L?(\d+))?\)\s*$`)

// ParseReview reads the proposals of a review file, with their lines.
// Lines that are not proposals are ignored.
func ParseReview(data []byte) []Proposal {
	var out []Proposal
	for i, l := range strings.Split(string(data), "\n") {
		m := reviewLineRE().FindStringSubmatch(strings.TrimRight(l, "\r"))
		if m == nil {
			continue
		}
		start, _ := strconv.Atoi(m[4])
		end := start
		if m[5] != "" {
			end, _ = strconv.Atoi(m[5])
		}
		out = append(out, Proposal{
			Fact:   strings.TrimSpace(m[2]),
			Source: memory.Source{Path: m[3], Start: start, End: end},
			Ticked: m[1] != " ",
			Line:   i + 1,
		})
	}
	return out
}

// AddToReview appends proposals to a review file's content (the header
// when it is empty), one group per log, skipping any whose fact and
// source are already listed (ticked or not). It returns the new content
// and how many proposals were added. Existing bytes are kept.
func AddToReview(data []byte, props []Proposal, note string) ([]byte, int) {
	have := map[string]bool{}
	for _, p := range ParseReview(data) {
		have[p.Fact+"\x00"+p.Source.String()] = true
	}
	var b bytes.Buffer
	b.Write(data)
	if len(bytes.TrimSpace(data)) == 0 {
		b.Reset()
		b.WriteString(ReviewHeader)
	}
	eol := markdown.LineEnding(data)
	added := 0
	group := ""
	for _, p := range props {
		key := p.Fact + "\x00" + p.Source.String()
		if have[key] {
			continue
		}
		have[key] = true
		if p.Source.Path != group {
			group = p.Source.Path
			if !markdown.EndsWithNewline(b.Bytes()) {
				b.WriteString(eol)
			}
			fmt.Fprintf(&b, "%s## %s%s%s", eol, group, note, eol)
		}
		p.Ticked = false
		b.WriteString(p.String() + eol)
		added++
	}
	if added == 0 {
		return data, 0
	}
	return b.Bytes(), added
}

// RemoveReviewLines removes the given 1-based lines from a review file,
// keeping every other byte, and drops a "## " group heading left with no
// proposals under it.
func RemoveReviewLines(data []byte, lines []int) []byte {
	drop := map[int]bool{}
	for _, l := range lines {
		drop[l] = true
	}
	raw := markdown.RawLines(data)
	keep := make([]bool, len(raw))
	for i := range raw {
		keep[i] = !drop[i+1]
	}
	// A group heading whose proposals were all removed goes too, with the
	// blank line before it.
	for i, l := range raw {
		if !strings.HasPrefix(string(l), "## ") {
			continue
		}
		j := i + 1
		empty, touched := true, false
		for ; j < len(raw) && !strings.HasPrefix(string(raw[j]), "## "); j++ {
			if drop[j+1] {
				touched = true
			} else if len(bytes.TrimSpace(raw[j])) > 0 {
				empty = false
			}
		}
		if empty && touched {
			keep[i] = false
			if i > 0 && len(bytes.TrimSpace(raw[i-1])) == 0 {
				keep[i-1] = false
			}
		}
	}
	var b bytes.Buffer
	for i, l := range raw {
		if keep[i] {
			b.Write(l)
		}
	}
	return b.Bytes()
}
