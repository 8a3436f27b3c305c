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

// TestRecencyOfDatedCuratedLines: for a question about now, a curated
// line (no day written) is as old as what it tells when it dates it (an
// event: "I sent the dogs' records to the new vet (memory/2026-08-25.md)"),
// and otherwise of unknown age, about three months (undatedAge). A log
// line of October that gives the vet gets the larger lift. Both curated
// lines used to get the lift of a line written today.
func TestRecencyOfDatedCuratedLines(t *testing.T) {
	now := time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)
	told := day("2026-08-25")
	experience := &candidate{
		item:  memory.Item{RowID: 1, Kind: memory.KindExperience, Content: "I sent the dogs' records across to the new vet.", Event: &memory.TimeRange{Start: told, End: told}, Source: memory.Source{Path: "bank/experience.md", Start: 3, End: 3}},
		ranks: map[string]int{"lexical": 1},
	}
	undated := &candidate{
		item:  memory.Item{RowID: 2, Kind: memory.KindWorld, Content: "The dogs' vet is on the main road.", Source: memory.Source{Path: "bank/world.md", Start: 3, End: 3}},
		ranks: map[string]int{"lexical": 3},
	}
	log := &candidate{
		item:  memory.Item{RowID: 3, Kind: memory.KindPassage, Content: "The dogs are with Clutha Vets now; Dr Reid is their vet.", Written: day("2026-10-05"), Source: memory.Source{Path: "memory/2026-10-05.md", Start: 3, End: 3}},
		ranks: map[string]int{"lexical": 2},
	}
	l := &links{sig: map[int64]*factSig{}, next: map[int64][]int64{}, prev: map[int64][]int64{}}
	p := Plan{Now: now, Terms: []string{"dogs", "vet", "now"}, heavy: topicOf([]string{"vet"})}
	got := fuse(p, []*candidate{experience, undated, log}, l, true)
	boost := map[int64]float64{}
	for _, s := range got {
		boost[s.c.item.RowID] = s.boosts["recency"]
	}
	if !(boost[2] < boost[1] && boost[1] < boost[3]) {
		t.Errorf("recency lifts: undated curated %v, dated curated %v, log of October %v; want them in that order", boost[2], boost[1], boost[3])
	}
}
