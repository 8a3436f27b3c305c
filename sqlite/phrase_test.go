package sqlite

import (
	"context"
	"slices"
	"testing"
	"time"

	"memoria/memory"
)

// phraseLines are the daily logs of the phrase tests, one line each, by
// file. Postgres's tests make the same workspace (TestPhrasesAsSQLite).
var phraseLines = map[string]string{
	"memory/2025-11-01.md": "Fibre broadband reaches our street in March.",
	"memory/2025-11-02.md": "The fibre-broadband deal ends in May.",
	"memory/2025-11-03.md": "Broadband fibre is what everyone asks for.",
	"memory/2025-11-04.md": "The fibre cable sits in the cellar, by the broadband router.",
	"memory/2025-11-05.md": "The new kettle boils in a minute.",
}

// TestPhraseSearch: a term of several words is a phrase, matched where
// its words are adjacent and in order as the tokenizer cuts the text
// (punctuation between them is no gap, case and stems as for words), not
// where they are apart or the other way round; recall searches quoted
// phrases so.
func TestPhraseSearch(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for rel, line := range phraseLines {
		writeFile(t, dir, rel, "# Log\n\n"+line+"\n")
	}
	ix := openTest(t, dir, Options{})
	for _, c := range []struct {
		terms []string
		f     memory.Filter
		want  []string // the days of the files matched
	}{
		{terms: []string{"fibre broadband"}, want: []string{"11-01", "11-02"}},
		{terms: []string{"FIBRE Broadband"}, want: []string{"11-01", "11-02"}},
		{terms: []string{"fibres broadband"}, want: []string{"11-01", "11-02"}}, // Porter's stems
		{terms: []string{"broadband fibre"}, want: []string{"11-03"}},
		{terms: []string{"fibre"}, want: []string{"11-01", "11-02", "11-03", "11-04"}},
		{terms: []string{"fibre cable sits"}, want: []string{"11-04"}},
		{terms: []string{"fibre sits"}, want: nil},
		{terms: []string{"fibre NEAR broadband"}, want: nil}, // words, never syntax
		{terms: []string{"broadband fibre", "kettle"}, want: []string{"11-03", "11-05"}},
		{terms: []string{"fibre broadband"}, f: memory.Filter{Since: time.Date(2025, 11, 2, 0, 0, 0, 0, time.UTC)}, want: []string{"11-02"}},
	} {
		hits, err := ix.Search(context.Background(), c.terms, c.f, 100)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, h := range hits {
			got = append(got, h.Source.Path[len("memory/2025-"):len("memory/2025-11-01")])
		}
		slices.Sort(got)
		if !slices.Equal(got, c.want) {
			t.Errorf("Search(%q, %+v) found %v, want %v", c.terms, c.f, got, c.want)
		}
	}
}
