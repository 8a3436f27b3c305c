package recall

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"memoria/memory"
	"memoria/query"
	"memoria/sqlite"
)

func index(t *testing.T, files map[string]string) *sqlite.Index {
	t.Helper()
	dir := t.TempDir()
	for rel, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ix, err := sqlite.Open(context.Background(), dir, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	return ix
}

func run(t *testing.T, ix *sqlite.Index, p Plan) []Result {
	t.Helper()
	res, err := Run(context.Background(), ix, p)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func sources(rs []Result) string {
	var s []string
	for _, r := range rs {
		s = append(s, r.Source)
	}
	return strings.Join(s, " ")
}

const chat = `# 2025-11-27

## Session 1

- **User**: I adopted a greyhound called Comet last spring.
- **Assistant**: Congratulations on Comet!
- **User**: Which harness fits a greyhound?
- **Assistant**: A martingale collar is the usual choice.
- **User**: Thanks.

## Session 2

- **User**: What is the capital of Peru?
- **Assistant**: Lima.
- **User**: And of Chile?
- **Assistant**: Santiago.
- **User**: Good to know.
`

func TestWidenTowardsMatchingNeighbour(t *testing.T) {
	ix := index(t, map[string]string{"memory/2025-11-27.md": chat})
	res := run(t, ix, Plan{Query: query.Query{Words: []string{"greyhound", "harness"}}, K: 1})
	if len(res) != 1 {
		t.Fatalf("%d results", len(res))
	}
	r := res[0]
	// The best line is L7 (both words). It grows one line at a time towards
	// the neighbour that ranked higher: L6, and then L5 or L8 (which the
	// question's words reach through its context column), whichever the
	// ranking put first. Content is exactly the cited lines.
	lines := strings.Split(chat, "\n")
	switch r.Source {
	case "memory/2025-11-27.md#L6-L8":
		if want := strings.Join(lines[5:8], "\n"); r.Content != want {
			t.Errorf("content %q, want %q", r.Content, want)
		}
	case "memory/2025-11-27.md#L5-L7":
		if want := strings.Join(lines[4:7], "\n"); r.Content != want {
			t.Errorf("content %q, want %q", r.Content, want)
		}
	default:
		t.Errorf("source %s, want #L6-L8 or #L5-L7", r.Source)
	}
	if r.Kind != memory.KindPassage || r.Timestamp != "2025-11-27" || !strings.HasPrefix(r.ID, "p_") {
		t.Errorf("result %+v", r)
	}
	// Lines 1 means no widening.
	if res := run(t, ix, Plan{Query: query.Query{Words: []string{"harness"}}, K: 1, Lines: 1}); res[0].Source != "memory/2025-11-27.md#L7" {
		t.Errorf("Lines 1: %s", res[0].Source)
	}
}

func TestDuplicatesAndOverlapsDropped(t *testing.T) {
	ix := index(t, map[string]string{
		"memory/2025-11-01.md": "# 2025-11-01\n\n## Retain\n- W @Peter: Lives in Vienna.\n",
		"memory/2025-11-02.md": "# 2025-11-02\n\n## Retain\n- W @Peter: lives in   VIENNA.\n",
		"memory/2025-11-03.md": "# 2025-11-03\n\nVienna line one.\nVienna line two.\nVienna line three.\n",
	})
	res := run(t, ix, Plan{Query: query.Query{Words: []string{"vienna"}}, K: 10})
	facts := 0
	for _, r := range res {
		if r.Kind == memory.KindWorld {
			facts++
		}
	}
	if facts != 1 {
		t.Errorf("the same fact in two logs gave %d results: %s", facts, sources(res))
	}
	for i := range res {
		for j := range i {
			if res[i].Cite().Overlaps(res[j].Cite()) {
				t.Errorf("results %s and %s overlap", res[i].Source, res[j].Source)
			}
		}
	}
}

func TestBudgetAndK(t *testing.T) {
	var b strings.Builder
	b.WriteString("# 2025-11-27\n\n")
	for i := range 40 {
		b.WriteString("- walked the dog along the river, stop number " + strings.Repeat("x", i) + "\n\n")
	}
	ix := index(t, map[string]string{"memory/2025-11-27.md": b.String()})
	if res := run(t, ix, Plan{Query: query.Query{Words: []string{"dog"}}, K: 7}); len(res) != 7 {
		t.Errorf("K 7 gave %d", len(res))
	}
	res := run(t, ix, Plan{Query: query.Query{Words: []string{"dog"}}, K: 40, Budget: 150})
	spent := 0
	for _, r := range res {
		spent += EstimateTokens(r)
	}
	if len(res) == 0 || spent > 150 {
		t.Errorf("budget 150: %d results costing %d tokens", len(res), spent)
	}
}

func TestTemporalChannelLiftsTheWindow(t *testing.T) {
	ix := index(t, map[string]string{
		"memory/2025-10-01.md": "# 2025-10-01\n\nThe boiler made a noise and the boiler was loud, boiler again.\n",
		"memory/2025-11-20.md": "# 2025-11-20\n\nA boiler engineer came.\n",
	})
	day := func(s string) time.Time { d, _ := time.Parse("2006-01-02", s); return d }
	res := run(t, ix, Plan{Query: query.Query{Words: []string{"boiler"}, Window: &memory.TimeRange{Start: day("2025-11-17"), End: day("2025-11-23")}}, K: 2, Explain: true})
	if !strings.HasPrefix(res[0].Source, "memory/2025-11-20.md") {
		t.Errorf("the window should lift 11-20: %s", sources(res))
	}
	if res[0].Explain == nil || res[0].Explain.Channels["temporal"] != 1 {
		t.Errorf("explain %+v", res[0].Explain)
	}
	// A hard filter excludes instead.
	res = run(t, ix, Plan{Query: query.Query{Words: []string{"boiler"}}, K: 5, Filter: memory.Filter{Since: day("2025-11-01")}})
	if len(res) != 1 {
		t.Errorf("filter: %s", sources(res))
	}
}

func TestNoTermsListsNewestFirst(t *testing.T) {
	ix := index(t, map[string]string{
		"memory/2025-11-01.md": "# 2025-11-01\n\nOld news.\n",
		"memory/2025-11-20.md": "# 2025-11-20\n\nNewer news.\n",
		"memory.md":            "# Core\n\n- Undated.\n",
	})
	day := func(s string) time.Time { d, _ := time.Parse("2006-01-02", s); return d }
	res := run(t, ix, Plan{Query: query.Query{Window: &memory.TimeRange{Start: day("2025-10-01"), End: day("2025-11-30")}}, K: 10})
	if got := sources(res); got != "memory/2025-11-20.md#L3 memory/2025-11-01.md#L3" {
		t.Errorf("got %s", got)
	}
}

func TestTypedFactBoost(t *testing.T) {
	ix := index(t, map[string]string{
		"memory/2025-11-01.md": "# 2025-11-01\n\nThe espresso machine.\n\n## Retain\n- W: The espresso machine.\n",
	})
	res := run(t, ix, Plan{Query: query.Query{Words: []string{"espresso", "machine"}}, K: 2, Explain: true})
	if len(res) != 2 || res[0].Kind != memory.KindWorld || res[0].Explain.Features["typed_fact"] == 0 {
		t.Errorf("a typed fact should outrank the same words as a passage: %+v", res)
	}
}

func TestTextTokens(t *testing.T) {
	tests := []struct {
		text string
		want int
	}{
		{"", 0},
		{"abcd", 1},
		{"Prefers concise replies on WhatsApp.", 9},
		{"北京欢迎你", 5},
		{"café", 2},
	}
	for _, tt := range tests {
		if got := TextTokens(tt.text); got != tt.want {
			t.Errorf("TextTokens(%q) = %d, want %d", tt.text, got, tt.want)
		}
	}
}

func TestResultCut(t *testing.T) {
	for _, tc := range []struct {
		content   string
		max       int
		want      string
		truncated int
	}{
		{"short", 10, "short", 0},
		{"exactly10!", 10, "exactly10!", 0},
		{"abcdefghijk", 10, "abcdefghij", 1},
		{"abcdefghié", 10, "abcdefghi", 2}, // é is 2 bytes: not split
		{"abcdefgh€x", 10, "abcdefgh", 4},  // € is 3 bytes
		{"€€€€", 5, "€", 9},                // a boundary at 3
	} {
		r := Result{Content: tc.content, Source: "memory/2025-01-01.md#L3"}
		r.cut(tc.max)
		if r.Content != tc.want || r.Truncated != tc.truncated {
			t.Errorf("cut(%q, %d) = %q, %d; want %q, %d", tc.content, tc.max, r.Content, r.Truncated, tc.want, tc.truncated)
		}
		if note := r.TruncationNote(); (note != "") != (tc.truncated > 0) || tc.truncated > 0 && !strings.Contains(note, "memoria get memory/2025-01-01.md#L3") {
			t.Errorf("cut(%q, %d): note %q", tc.content, tc.max, note)
		}
	}
}

// TestOnlyCommonWordsSearchAContentWord: in a workspace so small that
// every word of a question is on most rows (a row's neighbours are in its
// context), a question that has a function word still finds the line.
func TestOnlyCommonWordsSearchAContentWord(t *testing.T) {
	ix := index(t, map[string]string{
		"memory/2026-03-01.md": "# 2026-03-01\n\n- I rode the red bicycle to the market.\n- Bought apples and pears.\n",
	})
	for _, q := range [][]string{{"the", "red", "bicycle"}, {"where", "did", "i", "ride", "the", "bicycle"}, {"red", "bicycle"}} {
		res := run(t, ix, Plan{Query: query.Query{Words: q}, K: 5})
		if len(res) == 0 || !strings.Contains(res[0].Content, "red bicycle") {
			t.Errorf("%v: %s", q, sources(res))
		}
	}
}

// TestFunctionWordsScoreTheNewest: a question of function words only
// asks the index to score the newest functionWordRows of its matches; one
// with a word of content, all it may (memory.MaxScoredRows).
func TestFunctionWordsScoreTheNewest(t *testing.T) {
	ix := scoredBy{Index: index(t, map[string]string{"memory/2026-01-05.md": "# 2026-01-05\n\nWhat we did: we planted the beans.\n"})}
	for terms, want := range map[string]int{"what did we do": functionWordRows, "what did we plant": memory.MaxScoredRows} {
		ix.scored = nil
		if _, err := Run(context.Background(), &ix, Plan{Query: query.Query{Words: strings.Fields(terms)}, K: 3}); err != nil {
			t.Fatal(err)
		}
		if len(ix.scored) == 0 || ix.scored[0] != want {
			t.Errorf("%q: the lexical search scored %v, want %d first", terms, ix.scored, want)
		}
	}
}

// scoredBy is an index that records how many rows each search may score.
type scoredBy struct {
	*sqlite.Index
	scored []int
}

func (s *scoredBy) Search(ctx context.Context, terms []string, f memory.Filter, limit int) ([]memory.Hit, error) {
	s.scored = append(s.scored, f.ScoredRows())
	return s.Index.Search(ctx, terms, f, limit)
}

// TestWordsMatchingNothingStillGetTheWindow: a question whose words no
// line says but that names a time is answered by the window's lines (the
// window channel), never by silence.
func TestWordsMatchingNothingStillGetTheWindow(t *testing.T) {
	t.Parallel()
	ix := index(t, map[string]string{
		"memory/2025-11-19.md": "# 2025-11-19\n\n和客户开会，讨论了新的报价。\n",
		"memory/2025-11-02.md": "# 2025-11-02\n\nA quiet Sunday.\n",
	})
	win := memory.TimeRange{Start: day("2025-11-19"), End: day("2025-11-19")}
	res := run(t, ix, Plan{Query: query.Query{Words: []string{"会議", "何"}, Window: &win, Now: day("2025-11-20")}, K: 5, Explain: true})
	if len(res) == 0 || !strings.HasPrefix(res[0].Source, "memory/2025-11-19.md") {
		t.Fatalf("want the window's line: %s", sources(res))
	}
	if _, ok := res[0].Explain.Channels["window"]; !ok {
		t.Errorf("channels %v, want the window channel", res[0].Explain.Channels)
	}
	// Without a time, nothing answers words that match nothing.
	if res := run(t, ix, Plan{Query: query.Query{Words: []string{"会議", "何"}, Now: day("2025-11-20")}, K: 5}); len(res) != 0 {
		t.Errorf("no window: %s", sources(res))
	}
}
