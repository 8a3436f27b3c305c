package recall

import (
	"testing"
	"time"

	"memoria/memory"
)

// TestSameDayLift: a line of a daily log whose other lines are among the
// best lexical hits ranks above a line that matched a little better alone
// on another day; curated lines and lines of a day with no other hit keep
// the order of the words.
func TestSameDayLift(t *testing.T) {
	day := func(d string) time.Time { t, _ := time.Parse(time.DateOnly, d); return t }
	line := func(row int64, path, written string, rank int) *candidate {
		it := memory.Item{RowID: row, Kind: memory.KindPassage, Source: memory.Source{Path: path, Start: int(row), End: int(row)}, Content: "chimney flashing"}
		if written != "" {
			it.Written = day(written)
		}
		return &candidate{item: it, ranks: map[string]int{"lexical": rank}}
	}
	alone := line(1, "memory/2026-02-10.md", "2026-02-10", 1)
	decided := line(2, "memory/2026-03-02.md", "2026-03-02", 2)
	quotes := []*candidate{line(3, "memory/2026-03-02.md", "2026-03-02", 6), line(4, "memory/2026-03-02.md", "2026-03-02", 9)}
	page := line(5, "bank/world.md", "", 3)
	pageToo := line(6, "bank/world.md", "", 4)
	l := &links{sig: map[int64]*factSig{}, next: map[int64][]int64{}, prev: map[int64][]int64{}}
	got := fuse(Plan{Terms: []string{"chimney", "flashing"}}, append([]*candidate{alone, decided, page, pageToo}, quotes...), l, false)
	if got[0].c != decided {
		t.Errorf("first %s, want the line of the day with two more hits", got[0].c.item.Source)
	}
	for _, s := range got {
		if _, ok := s.boosts["same_day"]; ok != (s.c.item.Source.Path == "memory/2026-03-02.md") {
			t.Errorf("%s: same_day boost %v", s.c.item.Source, s.boosts["same_day"])
		}
	}
	// Without the other hits of its day, the words decide.
	got = fuse(Plan{Terms: []string{"chimney", "flashing"}}, []*candidate{alone, decided}, l, false)
	if got[0].c != alone {
		t.Errorf("first %s, want the better match", got[0].c.item.Source)
	}
}
