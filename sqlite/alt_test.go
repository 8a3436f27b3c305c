package sqlite

import (
	"context"
	"strings"
	"testing"

	"memoria/lang"
	"memoria/memory"
)

// TestScripts indexes text in several scripts and searches it the way
// recall does (each word, plus its AltTerms), in both directions for
// diacritics and case.
func TestScripts(t *testing.T) {
	dir := t.TempDir()
	lines := []string{
		"上午九点到了北京首都机场，王伟开车来接我。",
		"朝十時に田中さんと渋谷のオフィスで打ち合わせをした。",
		"Deployed Memoria v0.4 to the staging server; 部署过程很顺利。",
		"서울에서 회의가 있었다.",
		"Утром встретился с Петром в кофейне.",
		"Пётр рассказал про новую систему.",
		"Οδυσσέας ήρθε στην Αθήνα.",
		"Zoë hat sich ein Fahrrad gewünscht.",
		"Treffen in der Mullerstrasse mit Jorg.",
		"Il caffè era troppo forte.",
		"The café near the station opens at seven.",
		"Der Laden liegt an der Schönhauser Straße.",
	}
	writeFile(t, dir, "memory/2025-11-27.md", "# 2025-11-27\n\n"+strings.Join(lines, "\n\n")+"\n")
	ix := openTest(t, dir, Options{})
	ctx := context.Background()
	tests := []struct {
		query string
		want  string // a substring of the one line expected first
	}{
		{"北京", "北京首都机场"},
		{"机场", "北京首都机场"},
		{"王伟开车", "北京首都机场"},
		{"渋谷で打ち合わせ", "田中さん"},
		{"田中", "田中さん"},
		{"Memoria", "Deployed Memoria"},
		{"部署", "Deployed Memoria"},
		{"서울", "서울에서"},
		{"петром", "Утром"},
		{"ПЕТРОМ", "Утром"},
		{"петр", "Пётр"},     // ё written as е
		{"Пётр", "Пётр"},     // and as ё
		{"кофейня", "Утром"}, // another case of the same word (Snowball)
		{"ΟΔΥΣΣΕΑΣ", "Οδυσσέας"},
		{"οδυσσεας", "Οδυσσέας"},
		{"Zoe", "Zoë"},
		{"zoë", "Zoë"},
		{"Müllerstraße", "Mullerstrasse"},
		{"Jörg", "Mullerstrasse"},
		{"caffe", "caffè"},
		{"cafe", "café"},
		{"Strasse", "Schönhauser"},
		{"Schonhauser", "Schönhauser"},
	}
	for _, tt := range tests {
		var terms []string
		for _, w := range strings.Fields(tt.query) {
			terms = append(terms, w)
			terms = append(terms, lang.AltTerms(w)...)
		}
		hits, err := ix.Search(ctx, terms, memory.Filter{}, 3)
		if err != nil {
			t.Fatal(err)
		}
		if len(hits) == 0 || !strings.Contains(hits[0].Content, tt.want) {
			var got []string
			for _, h := range hits {
				got = append(got, h.Content)
			}
			t.Errorf("%q: got %q, want the line with %q first", tt.query, got, tt.want)
		}
		// Planning must not drop the words of other scripts.
		stats, _, err := ix.TermStats(ctx, terms)
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, s := range stats {
			found = found || s.Rows > 0
		}
		if !found {
			t.Errorf("%q: TermStats finds no item for %q", tt.query, terms)
		}
	}
}
