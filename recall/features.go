package recall

import (
	"math"
	"time"

	"memoria/memory"
	"memoria/query"
)

// The ranking is one linear model over general features of a candidate:
// how each channel ranked it, what the engines scored it, and what the
// question asks of it (a time, the present, an amount, a choice) against
// what the candidate is (a typed fact, dated, superseded, stating a
// number). The weights are not set by hand: `go run ./recall/fit` fits
// them on the development sets (ranker_gen.go), and `-cv` judges the fit
// by leaving each set out in turn (docs/recall.md, "Ranking").
//
// Each feature is 0 when it does not apply, so a weight only ever speaks
// for the candidates that have the feature, and --explain lists the
// features a result has with what each added to its score.

// Feature names, in the order of a Ranker's weights. A name changes when
// its meaning does: a fitted Ranker whose names differ is refused.
var featureNames = func() []string {
	var names []string
	for _, ch := range rankedChannels {
		names = append(names, ch+".found", ch+".top", ch+".rank")
	}
	return append(names, otherFeatures...)
}()

// rankedChannels are the channels whose ranks are features: for each,
// whether it found the candidate (.found), 1/rank (.top: the first few
// places), and 1 − ln(rank)/ln(1+poolDepth) (.rank: the whole list).
var rankedChannels = []string{
	"lexical", "phrase", "semantic", "entity", "temporal", "window", "ongoing", "opinion", "update", "recent",
}

var otherFeatures = []string{
	"fused",            // 1 + ln of its reciprocal-rank fusion over all channels, 1 + ln Σ 60/(60+rank)
	"lexical.bm25",     // its bm25 over the best lexical hit's (0…1)
	"semantic.cosine",  // its cosine to the question (semantic channel)
	"semantic.suggest", // found by the semantic channel, for a request for suggestions or for what the assistant said
	"semantic.nearest", // the semantic channel's first, near in meaning (cosine ≥ Ranker.Near)
	"entity.listed",    // listed for "tell me about X" (the entity's page and facts)
	"entity.page",      // on the page of the entity asked about, for "tell me about X"
	"entity.weak",      // found by the entity channel on the question's weak words only
	"typed_fact",       // a typed fact (W, B, O, S)
	"confidence",       // a typed fact's confidence − 0.5
	"curated",          // undated (bank/, memory.md, USER.md; not a machine's summary or an import), for "tell me about X" / "who is X"
	"recency",          // asks about now: 2^(−age/30 days)
	"recency.slow",     // asks about now: 2^(−age/180 days)
	"superseded",       // another version replaced it (for now, or after the asked window)
	"current",          // the version that holds for the asked time, where another exists
	"current.topic",    // the current version: the share of the topic's words the version it replaces says
	"held_before",      // asks about a past window its best matches miss: said before it, 2^(−distance/30 days)
	"outside_window",   // the question names a time and it lies outside
	"off_topic",        // a window with a topic, and it says none of the topic's words
	"speaker",          // a chat line the person asking said, for a first-person question about themselves
	"quantity",         // states an amount, for a question that asks for one
	"rare",             // says the question's rare word (a code, a name only a few lines have)
	"choice",           // records a choice or reason, for a question that asks what was chosen or why
	"same_day",         // other lines of its day's log among the best lexical hits (0…1)
	"topic.share",      // share of the question's topic words it says
	"told_later",       // not about a past window: a later line of the pool says as much of the topic
	"latest_on_topic",  // not about a past window: says the topic, and no later line of the pool says as much
}

// NumFeatures is the length of a Candidate's Features.
func NumFeatures() int { return len(featureNames) }

// FeatureNames lists the features in the order of Candidate.Features and
// of Ranker.Weights.
func FeatureNames() []string { return append([]string(nil), featureNames...) }

// featureIndex maps a feature's name to its place.
var featureIndex = func() map[string]int {
	m := make(map[string]int, len(featureNames))
	for i, n := range featureNames {
		m[n] = i
	}
	return m
}()

// The features' places in a vector, looked up once: a recall computes
// them for every candidate of its pool.
var (
	featChoice          = featureIndex["choice"]
	featConfidence      = featureIndex["confidence"]
	featCurated         = featureIndex["curated"]
	featCurrent         = featureIndex["current"]
	featCurrentTopic    = featureIndex["current.topic"]
	featEntityListed    = featureIndex["entity.listed"]
	featEntityPage      = featureIndex["entity.page"]
	featEntityWeak      = featureIndex["entity.weak"]
	featFused           = featureIndex["fused"]
	featHeldBefore      = featureIndex["held_before"]
	featLatestOnTopic   = featureIndex["latest_on_topic"]
	featLexicalBm25     = featureIndex["lexical.bm25"]
	featOffTopic        = featureIndex["off_topic"]
	featOutsideWindow   = featureIndex["outside_window"]
	featQuantity        = featureIndex["quantity"]
	featRare            = featureIndex["rare"]
	featRecency         = featureIndex["recency"]
	featRecencySlow     = featureIndex["recency.slow"]
	featSameDay         = featureIndex["same_day"]
	featSemanticCosine  = featureIndex["semantic.cosine"]
	featSemanticNearest = featureIndex["semantic.nearest"]
	featSemanticSuggest = featureIndex["semantic.suggest"]
	featSpeaker         = featureIndex["speaker"]
	featSuperseded      = featureIndex["superseded"]
	featToldLater       = featureIndex["told_later"]
	featTopicShare      = featureIndex["topic.share"]
	featTypedFact       = featureIndex["typed_fact"]
)

// channelFeatures is the place of each ranked channel's first feature
// (.found; .top and .rank follow).
var channelFeatures = func() map[string]int {
	m := map[string]int{}
	for _, ch := range rankedChannels {
		m[ch] = featureIndex[ch+".found"]
	}
	return m
}()

// Shapes of the features (fixed transforms, not weights: the fit weighs
// what they produce).
const (
	recencyHalfLife     = 30 * 24 * nsPerHour
	slowRecencyHalfLife = 180 * 24 * nsPerHour
	// undatedAge is the age a curated line that dates nothing and that no
	// log restates has for the recency features: it is kept by hand, and
	// often not kept up with the logs.
	undatedAge = 3 * recencyHalfLife
	// sameDayRank and sameDayCap: the lexical channel's best sameDayRank
	// hits count for same_day, up to sameDayCap lines of a day.
	sameDayRank = 30
	sameDayCap  = 4
	// windowDepth is how many of the best lexical matches windowMatches
	// and heldBefore look at.
	windowDepth = 10
	// rrfK is reciprocal-rank fusion's constant (Cormack et al. 2009; 60
	// is the customary value): rank r votes 60/(60+r).
	rrfK = 60
)

// nsPerHour is an hour in nanoseconds, as a float.
const nsPerHour = 3600e9

// featureContext is what the features of every candidate of one recall
// share.
type featureContext struct {
	p        Plan
	links    *links
	recent   bool // the question asks about now (asksNow)
	past     bool // it asks about a past window
	heldThen bool // a past window whose best matches say nothing: what was said before holds
	asked    query.Speaker
	dayHits  map[string]int // per log, its lines among the best lexical hits
	lexTop   float64
	pool     map[int64]*candidate
	// onTopic is how many of the topic's words each candidate says
	// (counted once: several features read it), and latest, for each
	// such count, the latest day a candidate that says at least as many
	// was written (told_later, latest_on_topic; not for a past window).
	onTopic map[*candidate]int
	latest  []time.Time
}

func newFeatureContext(p Plan, cands []*candidate, l *links, recent bool, lexTop float64) *featureContext {
	fc := &featureContext{p: p, links: l, recent: recent, past: p.pastWindow(), asked: query.AskedSpeaker(p.Words), lexTop: lexTop,
		pool: make(map[int64]*candidate, len(cands))}
	for _, c := range cands {
		fc.pool[c.item.RowID] = c
	}
	fc.heldThen = fc.past && p.Intent == query.Past && !p.Browse && len(p.topic.stems) > 0 && !windowMatches(cands, *p.Window)
	if len(p.topic.stems) > 0 {
		fc.onTopic = make(map[*candidate]int, len(cands))
		fc.latest = make([]time.Time, len(p.topic.stems)+1)
		for _, c := range cands {
			n := p.topic.countIn(c.text())
			fc.onTopic[c] = n
			for k := 1; k <= n && !fc.past; k++ {
				if c.item.Written.After(fc.latest[k]) {
					fc.latest[k] = c.item.Written
				}
			}
		}
	}
	fc.dayHits = map[string]int{}
	for _, c := range cands {
		if r, ok := c.ranks["lexical"]; ok && r <= sameDayRank && !c.item.Written.IsZero() {
			fc.dayHits[c.item.Source.Path]++
		}
	}
	return fc
}

// features computes a candidate's feature vector.
func (fc *featureContext) features(c *candidate) []float64 {
	x := make([]float64, len(featureNames))
	fc.channelFeatures(x, c)
	fc.kindFeatures(x, c)
	trueThen := fc.trueThen(c.item.RowID)
	fc.versionFeatures(x, c, trueThen)
	fc.windowFeatures(x, c, trueThen)
	fc.topicFeatures(x, c)
	fc.askedFeatures(x, c)
	return x
}

// channelFeatures are what the channels say of a candidate: each channel's
// vote and rank, their fusion, and the engines' own scores.
func (fc *featureContext) channelFeatures(x []float64, c *candidate) {
	for _, v := range c.votes() {
		i, r, w := channelFeatures[v.channel], float64(v.rank), v.weight
		x[i], x[i+1], x[i+2] = w, w/r, w*math.Max(0, 1-math.Log(r)/math.Log(1+poolDepth))
	}
	if fused := rrf(c); fused > 0 {
		// About 1 for one vote at the top of one channel; an item no channel
		// ranks (none) has no vote.
		x[featFused] = 1 + math.Log(fused)
	}
	if fc.lexTop > 0 {
		if s, ok := c.raw["lexical"]; ok {
			x[featLexicalBm25] = math.Min(1, s/fc.lexTop)
		}
	}
	if r, ok := c.ranks["semantic"]; ok {
		x[featSemanticCosine] = c.raw["semantic"]
		if fc.p.Intent == query.Suggest || fc.asked == query.AssistantSpeaker {
			x[featSemanticSuggest] = 1 / float64(r)
		}
		if r == 1 && c.raw["semantic"] >= fc.p.nearCosine() {
			x[featSemanticNearest] = 1
		}
	}
	if c.listed {
		x[featEntityListed] = 1
	}
	if _, ok := c.ranks["entity"]; ok && !c.listed && c.entityWeight == 0 {
		x[featEntityWeak] = 1
	}
}

// kindFeatures are what the candidate is, against what the question asks
// of it: a page line or curated line for "tell me about X", a typed fact
// and its confidence, and how recent it is for a question about now.
func (fc *featureContext) kindFeatures(x []float64, c *candidate) {
	p, it := fc.p, c.item
	if p.Intent == query.About && c.onPage {
		x[featEntityPage] = 1
	} else if p.Intent == query.About && it.Written.IsZero() && !lowerTrust(it) {
		x[featCurated] = 1
	}
	if it.Kind.IsFact() && !(p.Browse && p.Window != nil && eventOnly(it, *p.Window)) {
		x[featTypedFact] = 1
		if it.Confidence != nil {
			x[featConfidence] = *it.Confidence - 0.5
		}
	}
	if fc.recent && !p.Now.IsZero() && (it.Kind.IsFact() || it.Written.IsZero() || (len(p.heavy.stems) > 0 && p.heavy.saidIn(c.text()))) {
		age := fc.age(c)
		x[featRecency] = math.Exp2(-age / recencyHalfLife)
		x[featRecencySlow] = math.Exp2(-age / slowRecencyHalfLife)
	}
}

// trueThen reports whether the fact in row, one with a known history,
// was the current version during a past window the question asks about:
// it then answers for the window, wherever it was written.
func (fc *featureContext) trueThen(row int64) bool {
	l := fc.links
	return fc.past && (len(l.next[row]) > 0 || len(l.prev[row]) > 0) && l.validIn(row, *fc.p.Window)
}

// versionFeatures place a candidate among the versions of its fact:
// superseded or current, now or in the past window asked about.
func (fc *featureContext) versionFeatures(x []float64, c *candidate, trueThen bool) {
	p, l := fc.p, fc.links
	row := c.item.RowID
	newer, older := inPool(l.next[row], fc.pool), inPool(l.prev[row], fc.pool)
	replaced := 0.0 // the topic share of the versions it replaces, asked once
	if fc.recent && !newer && older {
		replaced = fc.replacesTopic(row)
	}
	switch {
	case fc.recent && newer:
		x[featSuperseded] = 1
	case fc.recent && older && (len(p.heavy.stems) == 0 || p.heavy.saidIn(c.text()) || replaced > 0):
		// The current version of what the question asks about: "Marta
		// now drives a Skoda" is no answer to "where does Marta live now?".
		// It answers as well as the version it replaces matched ("She
		// has moved to Linz" for the page's "Lives in Graz").
		x[featCurrent] = 1
		x[featCurrentTopic] = replaced
	case fc.past && older && l.sig[row].when.After(p.Window.End):
		x[featSuperseded] = 1
	case fc.past && trueThen && (newer || older):
		x[featCurrent] = 1
	}
}

// windowFeatures place a candidate against the question's window: told
// before it (for what was held then), or outside it.
func (fc *featureContext) windowFeatures(x []float64, c *candidate, trueThen bool) {
	p, it := fc.p, c.item
	switch {
	case fc.heldThen && heldBefore(c, *p.Window):
		x[featHeldBefore] = math.Exp2(-float64(p.Window.Start.Sub(it.Written)) / recencyHalfLife)
	case p.Window != nil && !trueThen && !inWindow(it.Written, it.Event, *p.Window):
		x[featOutsideWindow] = 1
	}
}

// topicFeatures weigh how much of the question's topic a candidate says,
// and whether a later line told the same.
func (fc *featureContext) topicFeatures(x []float64, c *candidate) {
	p, it, tw := fc.p, c.item, c.text()
	if p.Window != nil && !p.Browse && len(p.topic.stems) > 0 && !p.topic.saidIn(tw) {
		x[featOffTopic] = 1
	}
	if n := len(p.topic.stems); n > 0 {
		x[featTopicShare] = float64(fc.onTopic[c]) / float64(n)
	}
	if n := fc.onTopic[c]; n > 0 && !fc.past && !it.Written.IsZero() {
		if fc.latest[n].After(it.Written) {
			x[featToldLater] = 1
		} else {
			x[featLatestOnTopic] = 1
		}
	}
	if len(p.rare.stems) > 0 && !p.Choice && p.rare.saidIn(tw) {
		x[featRare] = 1
	}
	if others := fc.dayHits[it.Source.Path]; others > 0 && !it.Written.IsZero() {
		if r, ok := c.ranks["lexical"]; ok && r <= sameDayRank {
			others-- // itself
		}
		x[featSameDay] = math.Min(float64(others), sameDayCap) / sameDayCap
	}
}

// askedFeatures match what the question asks for (the user's own words,
// an amount, a choice) with what the candidate says.
func (fc *featureContext) askedFeatures(x []float64, c *candidate) {
	p, it := fc.p, c.item
	if fc.asked == query.UserSpeaker && it.Kind == memory.KindPassage && lineSpeaker(it.Content) == query.UserSpeaker {
		x[featSpeaker] = 1
	}
	if p.Quantity && statesQuantity(it.Content) {
		x[featQuantity] = 1
	}
	if p.Choice && statesChoice(it.Content) {
		x[featChoice] = 1
	}
}

// replacesTopic is the largest share of the topic's words that a version
// the fact in row replaces says, among the candidates.
func (fc *featureContext) replacesTopic(row int64) float64 {
	n := len(fc.p.topic.stems)
	if n == 0 {
		return 0
	}
	best := 0.0
	for _, o := range fc.links.prev[row] {
		if c, ok := fc.pool[o]; ok {
			best = math.Max(best, float64(fc.onTopic[c])/float64(n))
		}
	}
	return best
}

// age is how old a candidate is on the question's day, in nanoseconds:
// from the day written; for a curated line, from the end of the event it
// tells, else the latest day it names or the latest log that says what
// it says (dateCurated), else undatedAge.
func (fc *featureContext) age(c *candidate) float64 {
	it, now := c.item, memory.Day(fc.p.Now)
	sig := fc.links.sig[it.RowID]
	switch {
	case !it.Written.IsZero():
		return math.Max(0, float64(now.Sub(it.Written)))
	case it.Event != nil:
		return math.Max(0, float64(now.Sub(it.Event.End)))
	case sig != nil && !sig.asOf.IsZero():
		return math.Max(0, float64(now.Sub(sig.asOf)))
	}
	return undatedAge
}

// lowerTrust reports whether an item is of a file that is not the
// workspace's own record (memory.FileKind.LowerTrust): OpenClaw's
// dreaming summaries and the memory it imported from other assistants.
// They are found and cited, never taken for curated memory.
func lowerTrust(it memory.Item) bool {
	kind, _, _ := memory.ClassifyPath(it.Source.Path)
	return kind.LowerTrust()
}
