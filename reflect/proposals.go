package reflect

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
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
// recent, and that core memory does not hold yet, and returns their
// proposals (cluster.proposal) that the proposals file does not hold.
func proposeCore(in *Input, facts []*fact, recent func(*fact) bool) []string {
	existing := string(in.Proposals.Data)
	core := coreTerms(in)
	var picked []*cluster
	for _, c := range recurring(facts, recent) {
		if len(c.days) < MinRecurrence || !c.recent || strings.Contains(existing, "["+proposalID("p_", c.key)+"]") {
			continue
		}
		if !slices.ContainsFunc(core, func(t terms) bool { return t.cosine(c.terms) >= coreSimilarity }) {
			picked = append(picked, c)
		}
	}
	slices.SortFunc(picked, func(a, b *cluster) int {
		return cmp.Or(cmp.Compare(len(b.days), len(a.days)), cmp.Compare(a.key, b.key))
	})
	var out []string
	for _, c := range picked {
		out = append(out, c.proposal())
	}
	return out
}

// withProposals appends proposal lines to the text of a proposals file;
// an empty file gets proposalsHeader first.
func withProposals(file string, lines []string) string {
	if file == "" {
		file = proposalsHeader
	} else if !strings.HasSuffix(file, "\n") {
		file += "\n"
	}
	return file + strings.Join(lines, "\n") + "\n"
}

// cluster is the facts of one kind that say the same thing of the same
// entities: the same terms.
type cluster struct {
	key    string // kind, entity keys and terms
	facts  []*fact
	days   map[string]bool // the days they were written on
	recent bool            // one of them is recent
	terms  terms
}

// recurring groups the durable facts into clusters.
func recurring(facts []*fact, recent func(*fact) bool) map[string]*cluster {
	clusters := map[string]*cluster{}
	for _, f := range facts {
		if (f.Kind != memory.KindWorld && f.Kind != memory.KindOpinion) || f.Event != nil {
			continue
		}
		if len(f.termSet()) == 0 {
			continue
		}
		ts := slices.Sorted(maps.Keys(f.terms))
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
	return clusters
}

// coreTerms are the terms of each fact and passage of core memory.
func coreTerms(in *Input) []terms {
	doc, err := markdown.Parse(in.CorePath, in.Core.Data)
	if err != nil {
		return nil
	}
	var out []terms
	for _, f := range doc.Facts {
		out = append(out, termsOf(f.Text))
	}
	for _, p := range doc.Passages {
		out = append(out, termsOf(p.Text))
	}
	return out
}

// proposal is the cluster's line of the proposals file: its latest fact,
// the block of core memory it belongs in, and its latest sources.
func (c *cluster) proposal() string {
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
	return fmt.Sprintf("- [ ] %s: %s%s — on %d days, latest %s (%s) [%s]",
		block, who, text(last.Text), len(c.days), day(last.Written), strings.Join(srcs, ", "), proposalID("p_", c.key))
}

// proposalID names a proposal by what it proposes (key: a cluster's, or a
// stale statement and what replaced it), so that it is proposed once:
// prefix "p_" for a recurring fact, "s_" for a stale statement.
func proposalID(prefix, key string) string {
	sum := sha256.Sum256([]byte(key))
	return prefix + hex.EncodeToString(sum[:5])
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
