package recall

import (
	"testing"
	"time"

	"memoria/memory"
	"memoria/query"
)

// TestSameDayFeature: a line of a daily log whose other lines are among
// the best lexical hits has the same_day feature, by how many; curated
// lines and lines of a day with no other hit have none.
func TestSameDayFeature(t *testing.T) {
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
	cands := append([]*candidate{alone, decided, page, pageToo}, quotes...)
	f := featuresOf(Plan{Query: query.Query{Words: []string{"chimney", "flashing"}}}, cands, noLinks(), false)
	for i, c := range cands {
		_, ok := f[i]["same_day"]
		if ok != (c.item.Source.Path == "memory/2026-03-02.md") {
			t.Errorf("%s: same_day %v", c.item.Source, f[i]["same_day"])
		}
	}
	if got, want := f[1]["same_day"], 2.0/sameDayCap; got != want {
		t.Errorf("same_day of a line with two more hits that day: %v, want %v", got, want)
	}
}
