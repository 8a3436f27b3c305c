package recall

import (
	"testing"
	"time"

	"memoria/change"
	"memoria/memory"
)

// TestChangeSupersedes: two world facts of one entity that share an
// attribute word, the newer saying a change ("now", "moved", "switched",
// and the same in other languages), are one attribute: the newer
// supersedes the older (issue 43, item 6). Without a word of change, or
// sharing only a value or a name, they are not linked.
func TestChangeSupersedes(t *testing.T) {
	t.Parallel()
	day := func(d int) time.Time { return time.Date(2026, 3, d, 0, 0, 0, 0, time.UTC) }
	tests := []struct {
		name       string
		ent        string
		old, new   string
		superseded bool
	}{
		{"the issue's example", "Maya", "Backend lead on Project Atlas; based in Hamburg.", "Now based in Berlin; moved from Hamburg last week.", true},
		{"hosting switched", "Infra", "We host on Hetzner: two dedicated boxes in Falkenstein.", "Switched hosting to AWS (eu-central-1) after the Falkenstein outage.", true},
		{"an attribute word no cue lists", "Ola", "Commutes by bus to the depot.", "Commutes by bike now, since the new cycle lane.", true},
		{"German", "Jonas", "Arbeitet im Büro in Köln.", "Arbeitet jetzt im Homeoffice in Bonn.", true},
		{"Italian", "Giulia", "Insegna matematica al liceo Volta.", "Ora insegna fisica al liceo Galvani.", true},
		{"Russian", "Пётр", "Работает в банке в Москве.", "Теперь работает в школе в Казани.", true},
		{"no word of change", "Ola", "Commutes by bus to the depot.", "Commutes by bike on sunny days.", false},
		{"only a value in common", "Maya", "Visited Hamburg for the Atlas conference.", "Now based in Berlin; moved from Hamburg last week.", false},
		{"the older says the change", "Ola", "Commutes by bike now, since the new cycle lane.", "Commutes to the depot, forty minutes.", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			items := []memory.Item{
				{RowID: 1, Kind: memory.KindWorld, Content: tt.old, Entities: []string{tt.ent}, Written: day(2), FactID: "f1", Source: memory.Source{Path: "memory/2026-03-02.md", Start: 4, End: 4}},
				{RowID: 2, Kind: memory.KindWorld, Content: tt.new, Entities: []string{tt.ent}, Written: day(9), FactID: "f2", Source: memory.Source{Path: "memory/2026-03-09.md", Start: 4, End: 4}},
			}
			rs := Versions(items)
			got := len(rs[0].SupersededBy) == 1 && len(rs[1].Supersedes) == 1
			if got != tt.superseded {
				t.Errorf("superseded %v, want %v: %+v / %+v", got, tt.superseded, rs[0].SupersededBy, rs[1].Supersedes)
			}
			if len(rs[1].SupersededBy) > 0 {
				t.Errorf("the newer fact is superseded: %+v", rs[1].SupersededBy)
			}
		})
	}
}

// Values and ShareValue are change's, for the tests of recall that read
// them (quality_test.go).
var (
	Values     = change.Values
	ShareValue = change.ShareValue
)
