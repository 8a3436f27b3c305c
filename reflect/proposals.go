package reflect

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"memoria/markdown"
	"memoria/memory"
)

// MinRecurrence is on how many different days a durable fact must recur
// before reflect proposes it for core memory.
const MinRecurrence = 3

// coreSimilarity is the similarity to a line of core memory above which a
// fact counts as already there.
const coreSimilarity = 0.6

const proposalsHeader = `# Core memory proposals

Durable facts that keep recurring in the daily logs, proposed for core memory by
` + "`memoria reflect`" + `. Nothing here reaches memory.md until a person or an agent accepts it,
for example with ` + "`memoria core append Preferences \"…\"`" + `. Delete a proposal you reject,
or mark it [-] to keep reflect from proposing it again. This file is outside memory/ and bank/,
so it is not indexed.

`

// proposeCore finds durable facts (world facts and opinions without a
// date of their own) that recur, in the same words up to case, stop
// words and inflection, on at least MinRecurrence days, one of them
// recent, and that core memory does not hold yet. It returns the new
// proposals file and how many proposals it added.
func proposeCore(in *Input, facts []*fact, recent func(*fact) bool, res *resolver) ([]byte, int) {
	type cluster struct {
		key    string
		facts  []*fact
		days   map[string]bool
		recent bool
		terms  terms
	}
	clusters := map[string]*cluster{}
	for _, f := range facts {
		if (f.Kind != memory.KindWorld && f.Kind != memory.KindOpinion) || f.Event != nil {
			continue
		}
		if f.terms == nil {
			f.terms = termsOf(f.Text)
		}
		if len(f.terms) == 0 {
			continue
		}
		ts := make([]string, 0, len(f.terms))
		for t := range f.terms {
			ts = append(ts, t)
		}
		slices.Sort(ts)
		ks := slices.Clone(f.keys)
		for i := range ks {
			ks[i] = memory.EntityKey(ks[i])
		}
		slices.Sort(ks)
		key := string(f.Kind) + "|" + strings.Join(ks, ",") + "|" + strings.Join(ts, " ")
		c := clusters[key]
		if c == nil {
			c = &cluster{key: key, days: map[string]bool{}, terms: f.terms}
			clusters[key] = c
		}
		c.facts = append(c.facts, f)
		c.days[day(f.Written)] = true
		c.recent = c.recent || recent(f)
	}
	var coreTerms []terms
	if doc, err := markdown.Parse(in.CorePath, in.Core.Data); err == nil {
		for _, f := range doc.Facts {
			coreTerms = append(coreTerms, termsOf(f.Text))
		}
		for _, p := range doc.Passages {
			coreTerms = append(coreTerms, termsOf(p.Text))
		}
	}
	existing := string(in.Proposals.Data)
	var picked []*cluster
	for _, c := range clusters {
		if len(c.days) < MinRecurrence || !c.recent {
			continue
		}
		if strings.Contains(existing, "["+proposalID(c.key)+"]") {
			continue
		}
		inCore := false
		for _, t := range coreTerms {
			if t.cosine(c.terms) >= coreSimilarity {
				inCore = true
				break
			}
		}
		if !inCore {
			picked = append(picked, c)
		}
	}
	if len(picked) == 0 {
		return nil, 0
	}
	slices.SortFunc(picked, func(a, b *cluster) int {
		return cmp.Or(cmp.Compare(len(b.days), len(a.days)), cmp.Compare(a.key, b.key))
	})
	var b strings.Builder
	if len(in.Proposals.Data) == 0 {
		b.WriteString(proposalsHeader)
	} else {
		b.Write(in.Proposals.Data)
		if !strings.HasSuffix(existing, "\n") {
			b.WriteString("\n")
		}
	}
	for _, c := range picked {
		last := c.facts[len(c.facts)-1]
		block := "Facts"
		if last.Kind == memory.KindOpinion {
			block = "Preferences"
		}
		var srcs []string
		for i := len(c.facts) - 1; i >= 0 && len(srcs) < 5; i-- {
			srcs = append(srcs, c.facts[i].Source.String())
		}
		who := ""
		if len(last.keys) > 0 {
			who = strings.TrimPrefix(mentions(last.keys), " ") + ": "
		}
		fmt.Fprintf(&b, "- [ ] %s: %s%s — on %d days, latest %s (%s) [%s]\n",
			block, who, text(last.Text), len(c.days),
			day(last.Written), strings.Join(srcs, ", "), proposalID(c.key))
	}
	return []byte(b.String()), len(picked)
}

// proposalID names a proposal's cluster, so that it is proposed once.
func proposalID(key string) string {
	sum := sha256.Sum256([]byte(key))
	return "p_" + hex.EncodeToString(sum[:5])
}

// ProposalLine is one proposal of ProposalsPath as written: "- [B] Block:
// body [key]", B being " " (open), "x" (accepted) or "-" (rejected).
type ProposalLine struct {
	Box, Block, Body, Key string
	Line                  int // 1-based
}

var proposalLineRE = regexp.MustCompile(`^\s*[-*+] \[([ xX-])\] ([A-Za-z]+): (.*?)\s*\[([ps]_[0-9a-f]+)\]\s*$`)

// ParseProposals reads the proposals of a proposals file, in file order;
// other lines (the header, a person's notes) are skipped.
func ParseProposals(data []byte) []ProposalLine {
	var out []ProposalLine
	for i, l := range strings.Split(string(data), "\n") {
		if m := proposalLineRE.FindStringSubmatch(strings.TrimRight(l, "\r")); m != nil {
			out = append(out, ProposalLine{Box: m[1], Block: m[2], Body: m[3], Key: m[4], Line: i + 1})
		}
	}
	return out
}
