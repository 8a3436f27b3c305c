package recall

import (
	"testing"
	"time"

	"memoria/memory"
	"memoria/query"
)

// TestRecencyOfPassages: for a question about now, a passage of a log that
// says the question's topic has the recency features, by its age, as a
// typed fact has; a passage that does not say the topic has none, nor does
// any passage for a question that is not about now.
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
	p := Plan{Query: query.Query{Now: now, Words: []string{"which", "gym", "am", "i", "going", "to"}}, heavy: topicOf([]string{"gym"})}
	for _, recent := range []bool{true, false} {
		f := featuresOf(p, []*candidate{older, newer, other}, noLinks(), recent)
		if recent && !(f[0]["recency"] > 0 && f[0]["recency"] < f[1]["recency"]) {
			t.Errorf("about now: recency of the older turn %v, of the newer %v; want 0 < older < newer", f[0]["recency"], f[1]["recency"])
		}
		if !recent && (f[0]["recency"] != 0 || f[1]["recency"] != 0) {
			t.Errorf("not about now: recency %v, %v", f[0]["recency"], f[1]["recency"])
		}
		if v := f[2]["recency"]; v != 0 {
			t.Errorf("about now %v: a passage off the topic has recency %v", recent, v)
		}
	}
}

// TestRecencyOfDatedCuratedLines: for a question about now, a curated
// line (no day written) is as old as what it tells when it dates it (an
// event: "I sent the dogs' records to the new vet (memory/2026-08-25.md)"),
// and otherwise of unknown age, about three months (undatedAge). A log
// line of October that gives the vet is the most recent. Both curated
// lines used to count as written today.
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
	p := Plan{Query: query.Query{Now: now, Words: []string{"dogs", "vet", "now"}}, heavy: topicOf([]string{"vet"})}
	f := featuresOf(p, []*candidate{experience, undated, log}, noLinks(), true)
	if !(f[1]["recency"] < f[0]["recency"] && f[0]["recency"] < f[2]["recency"]) {
		t.Errorf("recency: undated curated %v, dated curated %v, log of October %v; want them in that order", f[1]["recency"], f[0]["recency"], f[2]["recency"])
	}
}
