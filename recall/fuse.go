package recall

import (
	"slices"
	"sort"
	"time"

	"memoria/memory"
	"memoria/query"
)

// The preliminary order: before the ranking can weigh what links the
// candidates (which version of a fact holds now), the steps that look at
// the best candidates (update-awareness compares their entities, asksNow
// probes whether the attribute asked about changed) take them in the
// order of reciprocal-rank fusion (the "fused" feature): a fixed order,
// the same when the weights are fitted and when they rank.

// recencyProbe: a question that is not about a past window (nor "tell me
// about X", which asks for the profile) asks for recency when one of its
// recencyProbe best candidates is a fact that a later candidate
// supersedes: the attribute it asks about changed.
const recencyProbe = 3

type scored struct {
	c     *candidate
	score float64
	x     []float64 // its features
}

// byRRF returns the candidates best first in the preliminary order
// (reciprocal-rank fusion over their channels), in a new slice; ties keep
// their order.
func byRRF(cands []*candidate) []*candidate {
	out := slices.Clone(cands)
	score := make(map[*candidate]float64, len(out))
	for _, c := range out {
		score[c] = rrf(c)
	}
	sort.SliceStable(out, func(i, j int) bool { return score[out[i]] > score[out[j]] })
	return out
}

// rrf is a candidate's reciprocal-rank fusion over its channels: rank r of
// a channel votes rrfK/(rrfK+r), a search hit of the entity channel as
// much as its words match (entityWeight).
func rrf(c *candidate) float64 {
	s := 0.0
	for _, v := range c.votes() {
		s += v.weight * rrfK / (rrfK + float64(v.rank))
	}
	return s
}

// vote is a channel's rank of a candidate and the weight of its vote.
type vote struct {
	channel string
	rank    int
	weight  float64
}

// votes lists, in the order of rankedChannels, each channel that ranked
// the candidate: its vote weighs 1, but for a search hit of the entity
// channel, which votes by how well its words match, relative to the best
// lexical hit (a fact about the entity that matches only the weak words
// is not the passage that matches the rare ones).
func (c *candidate) votes() []vote {
	out := make([]vote, 0, len(c.ranks))
	for _, ch := range rankedChannels {
		r, ok := c.ranks[ch]
		if !ok || r <= 0 {
			continue
		}
		w := 1.0
		if ch == "entity" && !c.listed {
			w = c.entityWeight
		}
		out = append(out, vote{ch, r, w})
	}
	return out
}

// asksNow reports whether a question asks for the present state of
// something that changed: it says so ("now", "currently": intent
// Current), or one of its recencyProbe best candidates (by RRF) is a fact
// that a later fact supersedes (the attribute it asks about changed; the
// changes said only in prose are linked after, being too loose a sign:
// "what did a sourdough cost back in March?"). Not
// for a question about a past window, nor for "tell me about X", which
// asks for the profile. Only such questions bring in the current version
// of a fact (the update channel), lift it and demote the outdated one,
// and lift recent facts: for any other question, a link between two
// candidate facts says nothing about what the question asks, and the
// boosts would lift facts over better-matching passages.
func asksNow(p Plan, cands []*candidate, l *links) bool {
	if p.pastWindow() || p.Now.IsZero() {
		return false
	}
	if p.Intent == query.Current {
		return true
	}
	if p.Intent == query.About {
		return false
	}
	for i, c := range byRRF(cands) {
		if i >= recencyProbe {
			break
		}
		if l.superseded(c.item.RowID) {
			return true
		}
	}
	return false
}

// eventOnly reports whether an item is in a window by its event time
// only: written on another day, or undated.
func eventOnly(it memory.Item, w memory.TimeRange) bool {
	return it.Written.IsZero() || !w.Contains(it.Written)
}

// windowMatches reports whether one of the best lexical matches of a
// question (its windowDepth best) lies in its window.
func windowMatches(cands []*candidate, w memory.TimeRange) bool {
	return slices.ContainsFunc(cands, func(c *candidate) bool {
		r, ok := c.ranks["lexical"]
		return ok && r <= windowDepth && inWindow(c.item.Written, c.item.Event, w)
	})
}

// heldBefore reports whether a candidate is one of the best lexical
// matches and was written before the window: when the window itself says
// nothing of the question's topic (windowMatches), such a line tells what
// held then ("what car was I driving in early October?" and, in September,
// "I drive a 2009 Volvo"), as no line of the window does.
func heldBefore(c *candidate, w memory.TimeRange) bool {
	r, ok := c.ranks["lexical"]
	return ok && r <= windowDepth && !c.item.Written.IsZero() && c.item.Written.Before(w.Start)
}

// inWindow reports whether an item written on day written (zero: undated)
// or about event falls in the window.
func inWindow(written time.Time, event *memory.TimeRange, w memory.TimeRange) bool {
	if !written.IsZero() && w.Contains(written) {
		return true
	}
	// An event much longer than the window does not place an item in it:
	// "the ute got a new fuel pump in August" says nothing of the weekend
	// asked about.
	return event != nil && event.Overlaps(w) && event.End.Sub(event.Start) <= eventSpan*(w.End.Sub(w.Start)+24*time.Hour)
}

// eventSpan is how many times longer than a window an item's event may
// be and still place it in the window (inWindow); 2, 4 and 8 measured
// alike on the development sets.
const eventSpan = 4

// inPool reports whether one of the rows (other versions of a fact) is a
// candidate: versions the query does not reach are about something else,
// whatever the link says, and are left alone.
func inPool(rows []int64, pool map[int64]*candidate) bool {
	return slices.ContainsFunc(rows, func(r int64) bool { return pool[r] != nil })
}
