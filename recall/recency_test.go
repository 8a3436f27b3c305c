package recall

import (
	"testing"
	"time"

	"memoria/memory"
)

// TestRecencyOfPassages: for a question about now, a passage of a log that
// says the question's topic is lifted by its age, as a typed fact is, so
// that of two turns that name the gym, the later one ranks first though
// words alone ranked it second. A passage that does not say the topic gets
// no lift, nor does any passage for a question that is not about now.
func TestRecencyOfPassages(t *testing.T) {
	now := time.Date(2026, 5, 21, 9, 0, 0, 0, time.UTC)
	passage := func(row int64, written, text string, rank int) *candidate {
		return &candidate{
			item:  memory.Item{RowID: row, Kind: memory.KindPassage, Content: text, Written: day(written), Source: memory.Source{Path: "memory/" + written + ".md", Start: 5, End: 5}},
			ranks: map[string]int{"lexical": rank},
		}
	}
	older := passage(1, "2026-01-10", "- 08:00 **User**: I do two sessions a week at the FlexPoint gym on Harbour Street.", 1)
	newer := passage(2, "2026-05-02", "- 19:00 **User**: The climbing gym on Dock Road has a new bouldering wall.", 2)
	other := passage(3, "2026-05-20", "- 07:30 **User**: Can you suggest a warm-up before my run?", 3)
	l := &links{sig: map[int64]*factSig{}, next: map[int64][]int64{}, prev: map[int64][]int64{}}
	p := Plan{Now: now, Terms: []string{"which", "gym", "am", "i", "going", "to"}, heavy: topicOf([]string{"gym"})}
	for _, tc := range []struct {
		recent bool
		first  int64
	}{{true, 2}, {false, 1}} {
		got := fuse(p, []*candidate{older, newer, other}, l, tc.recent)
		if got[0].c.item.RowID != tc.first {
			t.Errorf("about now %v: %q first, want row %d", tc.recent, got[0].c.item.Content, tc.first)
		}
		for _, s := range got {
			if s.c.item.RowID == 3 && s.boosts["recency"] != 0 {
				t.Errorf("about now %v: a passage off the topic lifted ×%v", tc.recent, s.boosts["recency"])
			}
		}
	}
}
