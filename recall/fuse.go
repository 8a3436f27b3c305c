package recall

import (
	"math"
	"slices"
	"sort"
	"time"

	"memoria/memory"
	"memoria/query"
)

// rrfK is reciprocal-rank fusion's constant (Cormack et al. 2009; 60 is
// the customary value): a channel's rank r contributes 1/(rrfK+r).
const rrfK = 60

// Boosts: small, named, multiplicative. docs/recall.md measures each.
const (
	// boostTypedFact lifts a typed, curated fact over a raw passage.
	boostTypedFact = 1.10
	// boostConfidence scales with a typed fact's confidence c in [0, 1]:
	// the factor is 1 + boostConfidence·(c − 0.5), so c=1 gives ×1.075
	// and c=0.3 gives ×0.97.
	boostConfidence = 0.15
	// boostRecency, for queries about now ("currently", "latest", or an
	// attribute that changed): 1 + boostRecency·2^(−age/recencyHalfLife),
	// age counted from the day written to the query's now; curated,
	// undated items (bank/, memory.md) count as current. It applies to
	// typed facts, curated items and the passages that say the question's
	// topic ("gym" for "which gym do I go to now?"): of the turns that
	// name it, the later ones tell what holds now. Passages off the topic
	// get none: raw passages of old conversations often hold the answer to
	// "what do I use now" (measured on longmemeval100, docs/recall.md).
	boostRecency    = 0.25
	recencyHalfLife = 30 * 24 * time.Hour
	// undatedAge is the age recency gives a curated line that dates
	// nothing and that no log restates: about three months, where it
	// counted as written today, and a page's stale line outranked the
	// log that had replaced it (docs/recall.md).
	undatedAge = 3 * recencyHalfLife
	// demoteSuperseded is a fact replaced by a later one, for a question
	// about now; for a past window, a fact that came after the window
	// and replaced what was true then.
	demoteSuperseded = 0.5
	// boostCurrent is the version that answers for the asked time when
	// another version exists: the current fact for now, the one true then
	// for a past window.
	boostCurrent = 1.15
	// boostOngoing lifts, for a question about now, a fact whose event
	// range covers today ("in Lisbon Mar 1–6" asked on Mar 4): it says
	// what holds right now more surely than the latest fact of the kind.
	boostOngoing = 1.5
	// demoteOffTopic lowers, for a question about a window with a topic, a
	// candidate that says none of the topic's words.
	demoteOffTopic = 0.8
	// demoteOutside is an item outside the window the query speaks of.
	demoteOutside = 0.5
	// windowDepth is how many of the best lexical matches windowMatches
	// and heldBefore look at.
	windowDepth = 10
	// recencyProbe: a question that is not about a past window (nor
	// "tell me about X", which asks for the profile) asks for
	// recency when one of its recencyProbe best candidates (by RRF) is a
	// fact that a later candidate supersedes: the attribute it asks about
	// changed.
	recencyProbe = 3
	// entityWeightPower shapes the entity channel's vote for a search hit:
	// (its bm25 / the best lexical bm25)^entityWeightPower, at most 1.
	entityWeightPower = 2.0
	// competeRatio: two versions of a fact compete (and the superseded
	// one is demoted) only when the weaker one's RRF score is at least
	// this share of the stronger one's. 0: any two versions that are both
	// candidates compete; 0.5 cost CurFirst 0.941 → 0.882 on the
	// evaluation set (docs/recall.md), so it is off.
	competeRatio = 0.0
	// semanticWeight scales the semantic channel's RRF votes: embeddings
	// find what words miss, but rank worse than bm25 where words do match
	// (measured on the thirteen evaluation sets, docs/recall.md).
	semanticWeight = 0.3
	// semanticWeightSuggest is the weight for requests for suggestions
	// ("can you recommend …"): what fits the person is what they said about
	// themselves, which shares few words with the request. Questions about
	// what the assistant said get it too: its answers paraphrase, and
	// questions about them rarely repeat their words.
	semanticWeightSuggest = 0.7
	// boostEntityPage lifts the named entity's own page for "tell me
	// about X".
	boostEntityPage = 1.5
	// boostCurated lifts curated items (bank/, memory.md: no day
	// written) other than the entity's page for "tell me about X" and
	// "who is X": they hold the maintained profile, where daily logs hold
	// episodes ("who is Ingrid?": "Family: mother Ingrid …" over "Biscuit
	// stays with Ingrid while Peter is in Lisbon").
	boostCurated = 1.1
	// boostSpeaker lifts, in chat transcripts, the lines the person
	// asking said, for a question in the first person about themselves
	// ("what did I buy for my sister's birthday?"): the answer is what they
	// said, not the assistant's reply that repeats their words (measured
	// on longmemeval100, docs/recall.md). Questions about what the
	// assistant said get no lift: an assistant's turn runs over many lines,
	// and only its first names the speaker.
	boostSpeaker = 1.15
	// boostQuantity lifts, for a question that asks for an amount ("how
	// many", "how long", "what percentage"), a candidate that states one
	// (statesQuantity): of the lines that speak of the topic, the answer
	// is among those that give the number (measured on longmemeval100,
	// docs/recall.md).
	boostQuantity = 1.1
	// boostRare lifts the candidates that say the question's rare word
	// (Plan.rare): a code, an identifier or a name that only a few items
	// contain ("MemoryMax", "INV-0419", "#249", a CJK name) says what the
	// question is about more surely than its other words together, which
	// bm25 adds up over longer lines that share the common ones. Not for
	// a question that asks for a choice: its rare word names an option,
	// which the quote, the demo and the later use all say.
	boostRare = 1.15
	// boostChoice lifts, for a question that asks what was chosen or why
	// ("why did we …", "what did we pick instead of …"), a candidate that
	// records a choice or gives a reason (statesChoice): of the lines
	// that name the options, the answer is the one that says which won
	// and why, not the quote, the demo or the later use.
	boostChoice = 1.15
	// boostSameDay lifts a line of a daily log by the other lines of the
	// same log among the lexical channel's best sameDayRank hits: each
	// lifts it by boostSameDay/sameDayCap, up to sameDayCap of them. A day
	// whose log answers the question's words several times is likely the
	// episode it asks about, and its lines vouch for each other: the line
	// that says what was decided or what changed often shares none of the
	// question's words ("told him to go ahead"), its neighbours do (the
	// passage's own score and its document's, as passage retrieval
	// combines them). Chosen on the development sets (docs/recall.md).
	boostSameDay = 0.1
	sameDayRank  = 30
	sameDayCap   = 4
	// nearestSlot is the place the semantic channel's nearest item is
	// kept within (keepNearest).
	nearestSlot = 10
)

type scored struct {
	c      *candidate
	score  float64
	boosts map[string]float64
}

// byRRF returns the candidates best first by RRF (rrf), in a new slice;
// ties keep their order. Each score is computed once: the comparisons
// would otherwise recompute it, over a map, many times a recall.
func byRRF(cands []*candidate) []*candidate {
	type scoredCand struct {
		c *candidate
		s float64
	}
	sc := make([]scoredCand, len(cands))
	for i, c := range cands {
		sc[i] = scoredCand{c, rrf(c)}
	}
	sort.SliceStable(sc, func(i, j int) bool { return sc[i].s > sc[j].s })
	out := make([]*candidate, len(cands))
	for i := range sc {
		out[i] = sc[i].c
	}
	return out
}

// rrf is a candidate's reciprocal-rank-fusion score before boosts.
func rrf(c *candidate) float64 {
	s := 0.0
	for _, ch := range sortedKeys(c.ranks) {
		r := c.ranks[ch]
		w := 1.0
		if ch == "entity" && !c.listed {
			w = c.entityWeight
		}
		if ch == "semantic" {
			w = c.semanticWeight
		}
		s += w / float64(rrfK+r)
	}
	return s
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
	base := byRRF(cands)
	for i, c := range base {
		if i >= recencyProbe {
			break
		}
		if l.superseded(c.item.RowID) {
			return true
		}
	}
	return false
}

// fuse scores every candidate by RRF over its channel ranks times its
// boosts, best first. recent says the question asks about now (asksNow).
func fuse(p Plan, cands []*candidate, l *links, recent bool) []scored {
	out := make([]scored, 0, len(cands))
	past := p.pastWindow()
	rows := make(map[int64]float64, len(cands))
	for _, c := range cands {
		rows[c.item.RowID] = rrf(c)
	}
	asked := query.AskedSpeaker(p.Terms)
	// A question about what held during a past window ("what car was I
	// driving in early October?", "who was my broadband provider in
	// mid-October?") whose window holds none of its best matches is
	// answered by what was said before.
	heldThen := past && p.Intent == query.Past && !p.Browse && len(p.topic.stems) > 0 && !windowMatches(cands, *p.Window)
	// The best lexical hits of each daily log (boostSameDay).
	dayHits := map[string]int{}
	for _, c := range cands {
		if r, ok := c.ranks["lexical"]; ok && r <= sameDayRank && !c.item.Written.IsZero() {
			dayHits[c.item.Source.Path]++
		}
	}
	for _, c := range cands {
		s := rrf(c)
		boosts := map[string]float64{}
		it := c.item
		row := it.RowID
		if it.Kind.IsFact() && !(p.Browse && p.Window != nil && eventOnly(it, *p.Window)) {
			// (Browsing a window, the items in it by their event time
			// only stay after those written in it: see browseOrder.)
			boosts["typed_fact"] = boostTypedFact
			if it.Confidence != nil {
				boosts["confidence"] = round3(1 + boostConfidence*(*it.Confidence-0.5))
			}
		}
		if recent && !p.Now.IsZero() && (it.Kind.IsFact() || it.Written.IsZero() || (len(p.heavy.stems) > 0 && p.heavy.said(it.Content))) {
			age := 0.0
			switch {
			case !it.Written.IsZero():
				age = math.Max(0, float64(memory.Day(p.Now).Sub(it.Written)))
			case it.Event != nil:
				// A curated line that dates itself ("I sent the dogs'
				// records to the new vet (memory/2026-08-25.md)") is as
				// old as what it tells.
				age = math.Max(0, float64(memory.Day(p.Now).Sub(it.Event.End)))
			case l.sig[row] != nil && !l.sig[row].asOf.IsZero():
				// As old as the latest day it names, or the latest log
				// that says what it says (dateCurated).
				age = math.Max(0, float64(memory.Day(p.Now).Sub(l.sig[row].asOf)))
			default:
				// Of unknown age: curated pages are kept by hand, and
				// often not kept up with the logs.
				age = float64(undatedAge)
			}
			boosts["recency"] = recencyBoost(age)
		}
		newer, older := competing(l.next[row], rows, rows[row]), competing(l.prev[row], rows, rows[row])
		// For a past window, a fact with a known history that was the
		// current version during the window answers for it, wherever it
		// was written.
		trueThen := past && (len(l.next[row]) > 0 || len(l.prev[row]) > 0) && l.validIn(row, *p.Window)
		// The current version lifted is one of what the question asks
		// about: "Marta now drives a Skoda" is newer than the page's
		// "Drives a blue Fiat Panda", and no answer to "where does Marta
		// live now?".
		switch {
		case recent && newer:
			boosts["superseded"] = demoteSuperseded
		case recent && older && (len(p.heavy.stems) == 0 || p.heavy.said(it.Content)):
			boosts["current"] = boostCurrent
		case past && older && l.sig[row].when.After(p.Window.End):
			boosts["superseded"] = demoteSuperseded
		case past && trueThen && (newer || older):
			boosts["current"] = boostCurrent
		}
		switch {
		case heldThen && heldBefore(c, *p.Window):
			// Of what was said before the window, the latest held then,
			// as the latest holds now for a question about now.
			age := float64(p.Window.Start.Sub(it.Written))
			boosts["recency"] = recencyBoost(age)
		case p.Window != nil && !trueThen && !inWindow(it.Written, it.Event, *p.Window):
			boosts["outside_window"] = demoteOutside
		}
		if p.Window != nil && !p.Browse && len(p.topic.stems) > 0 && !p.topic.said(it.Content) {
			// "What failed in the last two weeks?": inside the window, the
			// topic still decides; a line of the window that says nothing
			// of it shared only the question's function words.
			boosts["off_topic"] = demoteOffTopic
		}
		if _, ok := c.ranks["ongoing"]; ok {
			boosts["ongoing"] = boostOngoing
		}
		if asked == query.UserSpeaker && it.Kind == memory.KindPassage && lineSpeaker(it.Content) == query.UserSpeaker {
			boosts["speaker"] = boostSpeaker
		}
		if p.Quantity && statesQuantity(it.Content) {
			boosts["quantity"] = boostQuantity
		}
		if len(p.rare.stems) > 0 && !p.Choice && p.rare.said(it.Content) {
			boosts["rare"] = boostRare
		}
		if p.Choice && statesChoice(it.Content) {
			boosts["choice"] = boostChoice
		}
		if others := dayHits[it.Source.Path]; others > 0 && !it.Written.IsZero() {
			if r, ok := c.ranks["lexical"]; ok && r <= sameDayRank {
				others-- // itself
			}
			if others > 0 {
				boosts["same_day"] = round3(1 + boostSameDay*math.Min(float64(others), sameDayCap)/sameDayCap)
			}
		}
		if p.Intent == query.About && c.onPage {
			boosts["entity_page"] = boostEntityPage
		} else if p.Intent == query.About && it.Written.IsZero() {
			boosts["curated"] = boostCurated
		}
		for _, name := range sortedKeys(boosts) {
			s *= boosts[name]
		}
		out = append(out, scored{c: c, score: s, boosts: boosts})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].score > out[j].score })
	return out
}

// keepNearest keeps the semantic channel's nearest item among the first
// slot results when it is near in meaning (cosine ≥ semanticFloor) and no
// boost demotes it (outside the window, superseded, off the window's
// topic). Fusion rewards items that several channels find: one that only
// the semantic channel finds, because it says the same thing in other
// words ("I like to wind down by half past nine" for "what could I do in
// the evening?"), has one vote, at a fifth of a lexical one's weight, and
// sinks below every line that shares a word or two with the question and
// sits anywhere in the semantic ranking. It is moved up to place slot,
// its score then equal to the one it displaces ("nearest" in --explain).
func keepNearest(ranked []scored, slot int) {
	if slot <= 0 || len(ranked) <= slot {
		return
	}
	i := slices.IndexFunc(ranked, func(s scored) bool { return s.c.ranks["semantic"] == 1 })
	if i < slot {
		return
	}
	s := ranked[i]
	if s.c.raw["semantic"] < semanticFloor || s.score <= 0 {
		return
	}
	for _, f := range s.boosts {
		if f < 1 {
			return
		}
	}
	s.boosts["nearest"] = round3(ranked[slot-1].score / s.score)
	s.score = ranked[slot-1].score
	copy(ranked[slot:i+1], ranked[slot-1:i])
	ranked[slot-1] = s
}

// eventOnly reports whether an item is in a window by its event time
// only: written on another day, or undated.
func eventOnly(it memory.Item, w memory.TimeRange) bool {
	return it.Written.IsZero() || !w.Contains(it.Written)
}

// recencyBoost is the lift of an item age (nanoseconds) old: 1 +
// boostRecency, halved every recencyHalfLife.
func recencyBoost(age float64) float64 {
	return round3(1 + boostRecency*math.Exp2(-age/float64(recencyHalfLife)))
}

// windowMatches reports whether one of the best lexical matches of a
// question (its windowDepth best) lies in its window.
func windowMatches(cands []*candidate, w memory.TimeRange) bool {
	for _, c := range cands {
		if r, ok := c.ranks["lexical"]; ok && r <= windowDepth && inWindow(c.item.Written, c.item.Event, w) {
			return true
		}
	}
	return false
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

// competing reports whether another version of a fact (list) is a
// candidate that matches the query about as well: its RRF score and the
// fact's (own) are within competeRatio of each other. Versions that the
// query does not reach alike are about different things, whatever the
// link says, and are left alone.
func competing(list []int64, pool map[int64]float64, own float64) bool {
	for _, r := range list {
		other, ok := pool[r]
		if ok && min(other, own) >= competeRatio*max(other, own) {
			return true
		}
	}
	return false
}

// sortedKeys lists a small map's keys in order. Scores add and multiply
// in this order, not the map's: floating-point sums and products depend on
// their order in their last bits, which reordered candidates whose scores
// are otherwise equal from one recall to the next.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, 8)
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
