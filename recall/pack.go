package recall

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	"memoria/memory"
)

// DefaultLines is how many lines a passage result spans at most once
// widened with its neighbours. Passages are indexed small (precise ranking)
// and returned with the lines around them (the context an agent needs to
// read them): "small to big". Measured on the development set, see
// docs/recall.md.
const DefaultLines = 3

// pack takes the best results in order, widens passages with their
// neighbours (never into lines another result already cites), merges a
// passage into an earlier passage result it touches when the two fit in
// lines, drops duplicates (the same fact cited twice, or lines already
// covered by a better result), and stops at k results or when the token
// budget is spent.
func pack(ctx context.Context, ix Index, ranked []scored, ranker *Ranker, l *links, k, lines, budget int, explain bool) ([]Result, error) {
	pk := packer{ranker: ranker, links: l, lines: lines, explain: explain, seenFacts: map[string]int{},
		near: nearby{ix: ix, lines: lines, got: map[int64][]memory.Item{}}}
	pk.relativeScores(ranked)
	for i, s := range ranked {
		// Once k results are packed, the rest of the ranking may still
		// grow them (a passage that touches one, another copy of a fact)
		// but adds none: the first n results are then the same for every
		// k ≥ n, which stopping at k broke (a later passage merged into
		// the first result with --k 40 and not with --k 1).
		if pk.absorb(s.c.item) || len(pk.out) >= k {
			continue
		}
		it := s.c.item
		if it.Kind == memory.KindPassage && it.Source.Lines() < lines {
			around, err := pk.near.of(ctx, ranked[i:], k-len(pk.out))
			if err != nil {
				return nil, err
			}
			it = widen(it, lines, around, pk.byRow, pk.cited)
		}
		r := pk.result(s, it)
		cost := EstimateTokens(r)
		if budget > 0 && pk.spent+cost > budget {
			continue // does not fit; a smaller, lower-ranked result may
		}
		if it.FactID != "" {
			pk.seenFacts[it.FactID] = len(pk.out)
		}
		pk.spent += cost
		pk.out = append(pk.out, r)
	}
	return pk.out, nil
}

// packer holds the results packed so far and what packing them needs.
type packer struct {
	ranker    *Ranker
	links     *links
	lines     int
	explain   bool
	near      nearby
	out       []Result
	seenFacts map[string]int // fact ID → its result in out
	spent     int            // tokens
	// byRow holds each ranked row's score relative to the best,
	// e^(score − best) in (0, 1]: a passage the ranking did not hold (0)
	// is below every one it held, whose scores may be negative.
	byRow map[int64]float64
}

func (pk *packer) relativeScores(ranked []scored) {
	pk.byRow = make(map[int64]float64, len(ranked))
	for _, s := range ranked {
		pk.byRow[s.c.item.RowID] = math.Exp(s.score - ranked[0].score)
	}
}

// cited reports whether a packed result cites lines of s.
func (pk *packer) cited(s memory.Source) bool {
	return slices.ContainsFunc(pk.out, func(r Result) bool { return r.src.Overlaps(s) })
}

// absorb reports whether an item adds no result of its own: a fact
// already packed (its other copy is cited beside it), lines already
// cited, or a passage that touches a packed passage (which it grows).
func (pk *packer) absorb(it memory.Item) bool {
	if i, ok := pk.seenFacts[it.FactID]; ok && it.FactID != "" {
		// The same fact written elsewhere (a curated copy, or the log it
		// was copied from): one result, citing both.
		if src := it.Source.String(); src != pk.out[i].Source && !slices.Contains(pk.out[i].Also, src) {
			pk.out[i].Also = append(pk.out[i].Also, src)
		}
		return true
	}
	if pk.cited(it.Source) {
		return true
	}
	if it.Kind != memory.KindPassage {
		return false
	}
	i := touching(pk.out, it.Source, pk.lines)
	if i < 0 || pk.out[i].Status != it.Status {
		return false
	}
	// One result for touching lines: grow the earlier one, unless the
	// passage would open it with the tail of a sentence (an indented line
	// continuing a list item).
	if !(it.Source.Start < pk.out[i].src.Start && continuesItem(it.Content)) {
		pk.out[i] = merge(pk.out[i], it)
	}
	return true
}

// result makes the result of a ranked candidate, its item widened to it.
func (pk *packer) result(s scored, it memory.Item) Result {
	r := toResult(it)
	r.cut(MaxContentBytes)
	row := s.c.item.RowID
	r.Score = round3(pk.byRow[row])
	r.Evidence = Evidence{Lexical: s.c.raw["lexical"], Semantic: s.c.raw["semantic"]}
	if pk.explain {
		r.Explain = &Explain{Channels: s.c.ranks, Fused: round3(s.score)}
		if s.x != nil {
			r.Explain.Features = pk.ranker.contributions(s.x)
		}
	}
	pk.links.linkResult(&r, row)
	return r
}

// touching returns the index of a passage result that s overlaps or
// adjoins, whose lines together with s stay within lines, or -1.
func touching(out []Result, s memory.Source, lines int) int {
	for i, r := range out {
		if r.Kind == memory.KindPassage && r.src.Touches(s) && max(r.src.End, s.End)-min(r.src.Start, s.Start)+1 <= lines {
			return i
		}
	}
	return -1
}

// merge grows passage result r with the touching passage it; the content
// stays exactly the cited lines.
func merge(r Result, it memory.Item) Result {
	switch {
	case it.Source.End < r.src.Start:
		r.Content = it.Content + "\n" + r.Content
		r.src.Start = it.Source.Start
	case it.Source.Start > r.src.End:
		r.Content = r.Content + "\n" + it.Content
		r.src.End = it.Source.End
	}
	r.Entities = mergeEntities(r.Entities, it.Entities)
	r.Source = r.src.String()
	r.ID = PassageID(r.src.Path, r.Content)
	return r
}

func linkTo(it memory.Item) Link {
	return Link{ID: it.FactID, Source: it.Source.String(), Timestamp: writtenDay(it)}
}

func writtenDay(it memory.Item) string {
	if it.Written.IsZero() {
		return ""
	}
	return it.Written.Format("2006-01-02")
}

// nearby fetches the passages around the results pack widens: for the
// one to widen now, and, where the index answers for several at once (one
// round trip to PostgreSQL for all: docs/recall.md), for the next
// passages of the ranking that may be widened too, as many as results
// remain to pack.
type nearby struct {
	ix    Index
	lines int
	got   map[int64][]memory.Item // by the row id of the passage they are around; fetched, even if none
}

// of returns the passages within nb.lines lines of rest[0] (every passage
// its widening could reach: all those lines, not those less its own, for
// the line before the farthest one it may take decides whether to take
// it), asking for them with those of the next want passages of rest not
// asked for yet.
func (nb *nearby) of(ctx context.Context, rest []scored, want int) ([]memory.Item, error) {
	first := rest[0].c.item
	if got, ok := nb.got[first.RowID]; ok {
		return got, nil
	}
	batch := []memory.Item{first}
	for _, s := range rest[1:] {
		if len(batch) >= want {
			break
		}
		it := s.c.item
		if _, ok := nb.got[it.RowID]; !ok && it.Kind == memory.KindPassage && it.Source.Lines() < nb.lines {
			batch = append(batch, it)
		}
	}
	found, err := nb.ix.Nearby(ctx, batch, nb.lines)
	if err != nil {
		return nil, fmt.Errorf("recall: context: %w", err)
	}
	for _, it := range batch[1:] {
		if around, ok := found[it.RowID]; ok {
			nb.got[it.RowID] = around
		}
	}
	nb.got[first.RowID] = found[first.RowID]
	return nb.got[first.RowID], nil
}

// widen grows a passage, one neighbour at a time, with the passage right
// before or after it (from near, the passages within max lines of it)
// while it stays within max lines and does not reach lines another result
// cites; the content stays exactly the cited lines. It grows towards the
// neighbour that itself ranked higher for the query (score holds the
// fused scores by row), so the context it adds is the part most likely to
// matter; between equals, it grows backwards first (the question before
// an answer).
func widen(it memory.Item, max int, near []memory.Item, score map[int64]float64, cited func(memory.Source) bool) memory.Item {
	for it.Source.Lines() < max {
		// The passages right before and right after: ending on the line
		// before its first, or starting on the line after its last (a
		// blank line, a heading or the file's edge may leave either out).
		// A USER.md entry grows only with lines of its own status: an
		// active directive never reads as part of a superseded one.
		var prev, next *memory.Item
		for i := range near {
			switch {
			case near[i].Status != it.Status:
			case near[i].Source.End == it.Source.Start-1:
				prev = &near[i]
			case near[i].Source.Start == it.Source.End+1:
				next = &near[i]
			}
		}
		if prev != nil && (it.Source.Lines()+prev.Source.Lines() > max || cited(prev.Source)) {
			prev = nil
		}
		if prev != nil {
			// A line that itself continues a sentence ("    kibble a day
			// in two meals.") is worth taking only with the line it
			// continues: without room for both, it would open the result
			// mid-sentence.
			for i := range near {
				if pp := &near[i]; pp.Source.End == prev.Source.Start-1 && startsMidSentence(pp.Content, prev.Content) &&
					it.Source.Lines()+prev.Source.Lines()+pp.Source.Lines() > max {
					prev = nil
					break
				}
			}
		}
		if next != nil && (it.Source.Lines()+next.Source.Lines() > max || cited(next.Source)) {
			next = nil
		}
		switch {
		case prev != nil && (next == nil || score[prev.RowID] >= score[next.RowID] || startsMidSentence(prev.Content, it.Content)):
			it.Source.Start = prev.Source.Start
			it.Content = prev.Content + "\n" + it.Content
			it.Entities = mergeEntities(prev.Entities, it.Entities)
		case next != nil:
			it.Source.End = next.Source.End
			it.Content = it.Content + "\n" + next.Content
			it.Entities = mergeEntities(it.Entities, next.Entities)
		default:
			return it
		}
	}
	return it
}

// startsMidSentence reports whether text starts in the middle of a
// sentence that before began: before's last line ends without a
// sentence's last mark (. ! ? : ; or one of them before a closing quote or
// bracket) and text's first line does not start a block of its own (a list
// item, a heading, a table row, a quote). Such a passage reads as nonsense
// on its own ("full movement, no pain…"), so widening takes the text
// before it first.
func startsMidSentence(before, text string) bool {
	first, _, _ := strings.Cut(text, "\n")
	first = strings.TrimLeft(first, " \t")
	if first == "" || strings.ContainsRune("-*+#|>", rune(first[0])) || startsNumbered(first) {
		return false
	}
	last := before[strings.LastIndexByte(before, '\n')+1:]
	last = strings.TrimRight(last, " \t\"')»”’]*_`")
	if last == "" || strings.HasPrefix(strings.TrimLeft(last, " "), "#") {
		return false
	}
	end, _ := utf8.DecodeLastRuneInString(last)
	return !strings.ContainsRune(".!?:;。！？…", end)
}

// continuesItem reports whether text starts with an indented line that is
// not a list item of its own: the tail of the list item above it.
func continuesItem(text string) bool {
	first, _, _ := strings.Cut(text, "\n")
	t := strings.TrimLeft(first, " \t")
	return len(t) < len(first) && t != "" && !strings.ContainsRune("-*+", rune(t[0])) && !startsNumbered(t)
}

// startsNumbered reports whether a line starts a numbered list item ("1. ",
// "12) ").
func startsNumbered(line string) bool {
	i := 0
	for i < len(line) && line[i] >= '0' && line[i] <= '9' {
		i++
	}
	return i > 0 && i+1 < len(line) && (line[i] == '.' || line[i] == ')') && line[i+1] == ' '
}

func mergeEntities(a, b []string) []string { return addNew(append([]string(nil), a...), b...) }

func round3(f float64) float64 { return float64(int(f*1000+0.5)) / 1000 }

func toResult(it memory.Item) Result {
	r := Result{
		ID:         it.FactID,
		Kind:       it.Kind,
		Entities:   it.Entities,
		Content:    it.Content,
		Confidence: it.Confidence,
		Source:     it.Source.String(),
		src:        it.Source,
	}
	if r.Entities == nil {
		r.Entities = []string{}
	}
	if r.ID == "" {
		r.ID = PassageID(it.Source.Path, it.Content)
	}
	r.Timestamp = writtenDay(it)
	kind, _, _ := memory.ClassifyPath(it.Source.Path)
	switch {
	case kind == memory.FileUser:
		// A USER.md entry's event is the day its mark says it was observed.
		if it.Event != nil {
			r.Observed = it.Event.Start.Format("2006-01-02")
		}
		r.Status = it.Status
		return r
	case kind == memory.FileImport:
		r.ImportedFrom = cmp.Or(memory.ImportSource(it.Source.Path), "unknown")
	case kind == memory.FileDreams:
		r.MachineSummary = true
	}
	if it.Event != nil {
		r.EventTime = &EventTime{Start: it.Event.Start.Format("2006-01-02"), End: it.Event.End.Format("2006-01-02")}
	}
	return r
}
