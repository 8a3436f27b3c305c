package eval

import (
	"math"
	"time"

	"memoria/memory"
)

// Cutoffs used by the scores.
const (
	// K5 and K10 are the recall cutoffs.
	K5  = 5
	K10 = 10
	// NDCGCutoff is the depth of NDCG.
	NDCGCutoff = 10
	// LinesCutoff is how many top results Lines@10 counts.
	LinesCutoff = 10
)

// Hits reports whether a cited range overlaps a gold range: same path and
// at least one shared line. A citation without lines (Start <= 0) cites its
// whole file, so it overlaps every range of that file.
func Hits(result, gold memory.Source) bool {
	if result.Path != gold.Path {
		return false
	}
	if result.Start <= 0 || gold.Start <= 0 {
		return true
	}
	return result.Overlaps(gold)
}

// hitsAny reports whether result overlaps any of gold.
func hitsAny(result memory.Source, gold []memory.Source) bool {
	for _, g := range gold {
		if Hits(result, g) {
			return true
		}
	}
	return false
}

// HitRanks returns the 1-based ranks of the results that overlap a gold
// range, in order. Duplicate results each count.
func HitRanks(results, gold []memory.Source) []int {
	var ranks []int
	for i, r := range results {
		if hitsAny(r, gold) {
			ranks = append(ranks, i+1)
		}
	}
	return ranks
}

// FirstHit is the 1-based rank of the first result that overlaps a gold
// range, or 0 if none does.
func FirstHit(results, gold []memory.Source) int {
	for i, r := range results {
		if hitsAny(r, gold) {
			return i + 1
		}
	}
	return 0
}

// RecallAt reports whether at least one of the top k results hits gold.
func RecallAt(results, gold []memory.Source, k int) bool {
	r := FirstHit(results, gold)
	return r > 0 && r <= k
}

// ReciprocalRank is 1/rank of the first hit, or 0 if no result hits.
func ReciprocalRank(results, gold []memory.Source) float64 {
	r := FirstHit(results, gold)
	if r == 0 {
		return 0
	}
	return 1 / float64(r)
}

// NDCG is NDCG@k with binary gains. Exact duplicates in gold are dropped
// first. Walking the top k results in order, a result gains 1 when it
// overlaps at least one gold range not yet credited to an earlier result; it
// then credits every gold range it overlaps (so one broad result covering
// several gold ranges earns a single gain, and a repeated result earns
// none). DCG = sum gain_i / log2(i+1); IDCG is the DCG of min(len(gold), k)
// gains at the top ranks. NDCG is 0 without gold.
func NDCG(results, gold []memory.Source, k int) float64 {
	gold = dedupe(gold)
	ideal := min(len(gold), k)
	if ideal == 0 {
		return 0
	}
	credited := make([]bool, len(gold))
	var dcg float64
	for i, r := range results[:min(len(results), k)] {
		gain := false
		for j, g := range gold {
			if Hits(r, g) && !credited[j] {
				credited[j] = true
				gain = true
			}
		}
		if gain {
			dcg += 1 / math.Log2(float64(i+2))
		}
	}
	var idcg float64
	for i := range ideal {
		idcg += 1 / math.Log2(float64(i+2))
	}
	return dcg / idcg
}

// LinesAt is the total number of lines cited by the top k results (the sum
// of Source.Lines, duplicates included). A citation without lines counts 0
// here; Run counts such whole-file citations at their file's length.
func LinesAt(results []memory.Source, k int) int {
	n := 0
	for _, r := range results[:min(len(results), k)] {
		n += r.Lines()
	}
	return n
}

// dedupe drops exact duplicates, keeping first occurrences in order.
func dedupe(srcs []memory.Source) []memory.Source {
	seen := make(map[memory.Source]bool, len(srcs))
	out := make([]memory.Source, 0, len(srcs))
	for _, s := range srcs {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// Scores are one query's metrics.
type Scores struct {
	// HitRanks are the 1-based ranks of all results that hit gold.
	HitRanks []int `json:"hit_ranks,omitempty"`
	// FirstHit is the rank of the first hit, 0 if none.
	FirstHit int `json:"first_hit"`
	// R5 and R10 report a hit in the top 5 and top 10.
	R5  bool `json:"r5"`
	R10 bool `json:"r10"`
	// RR is the reciprocal rank of the first hit.
	RR float64 `json:"rr"`
	// NDCG10 is NDCG@10 with binary gains (see NDCG).
	NDCG10 float64 `json:"ndcg10"`
	// Lines10 is how many lines the top 10 results cite.
	Lines10 int `json:"lines10"`
	// InWindow is the in-window share of the top 10 (see InWindowShare);
	// nil unless the query has a window.
	InWindow *float64 `json:"in_window,omitempty"`
	// CurrentFirst tells whether the valid fact outranks the superseded
	// one (see CurrentFirst); nil unless the query has superseded lines.
	CurrentFirst *bool `json:"current_first,omitempty"`
}

// Score computes all metrics of one ranked result list against gold.
func Score(results, gold []memory.Source) Scores {
	first := FirstHit(results, gold)
	s := Scores{
		HitRanks: HitRanks(results, gold),
		FirstHit: first,
		R5:       first > 0 && first <= K5,
		R10:      first > 0 && first <= K10,
		NDCG10:   NDCG(results, gold, NDCGCutoff),
		Lines10:  LinesAt(results, LinesCutoff),
	}
	if first > 0 {
		s.RR = 1 / float64(first)
	}
	return s
}

// WindowCutoff is how many top results the in-window share looks at, and
// UpdateCutoff how deep the update ordering looks.
const (
	WindowCutoff = 10
	UpdateCutoff = 10
)

// SourceDay is the day a citation is dated by: the date of a daily log
// memory/YYYY-MM-DD.md. It reports false for every other file (core memory,
// bank pages), which carry no day of their own.
func SourceDay(s memory.Source) (time.Time, bool) {
	kind, day, ok := memory.ClassifyPath(s.Path)
	if !ok || kind != memory.FileLog {
		return time.Time{}, false
	}
	return day, true
}

// InWindowShare is the share of the top k results whose cited day (see
// SourceDay) falls inside window, both ends included. Every one of the top
// k results counts in the denominator: a result without a day (core
// memory, bank pages) counts as outside. No results score 0.
func InWindowShare(results []memory.Source, window memory.TimeRange, k int) float64 {
	top := results[:min(len(results), k)]
	if len(top) == 0 {
		return 0
	}
	in := 0
	for _, r := range top {
		if day, ok := SourceDay(r); ok && window.Contains(day) {
			in++
		}
	}
	return float64(in) / float64(len(top))
}

// CurrentFirst reports whether, among the top k results, the first one that
// hits gold (the version of a fact valid at the asked time) ranks strictly
// above the first one that hits superseded (the competing versions). If no
// result hits superseded, a gold hit is enough; without a gold hit it is
// false. A single result hitting both ranks neither above the other: false.
func CurrentFirst(results, gold, superseded []memory.Source, k int) bool {
	top := results[:min(len(results), k)]
	g := FirstHit(top, gold)
	s := FirstHit(top, superseded)
	return g > 0 && (s == 0 || g < s)
}

// ScoreQuery is Score plus the metrics that depend on the query's optional
// fields: InWindow when q has a Window, CurrentFirst when q has Superseded
// lines.
func ScoreQuery(results []memory.Source, q Query) Scores {
	s := Score(results, q.Gold)
	if q.Window != nil {
		share := InWindowShare(results, *q.Window, WindowCutoff)
		s.InWindow = &share
	}
	if len(q.Superseded) > 0 {
		ok := CurrentFirst(results, q.Gold, q.Superseded, UpdateCutoff)
		s.CurrentFirst = &ok
	}
	return s
}
