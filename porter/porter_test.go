package porter

import (
	"database/sql"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"

	_ "modernc.org/sqlite"
)

// sqliteTokens returns, for every text, the terms FTS5 stores for it with
// the tokenizer this package mirrors, in token order.
func sqliteTokens(t testing.TB, texts []string) [][]string {
	t.Helper()
	db, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	for _, q := range []string{
		`CREATE VIRTUAL TABLE f USING fts5(t, tokenize='porter unicode61 remove_diacritics 2')`,
		`CREATE VIRTUAL TABLE v USING fts5vocab(f, instance)`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	ins, err := tx.Prepare(`INSERT INTO f(rowid, t) VALUES(?, ?)`)
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range texts {
		if _, err := ins.Exec(int64(i), s); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	type inst struct {
		off  int
		term string
	}
	byDoc := make([][]inst, len(texts))
	rows, err := db.Query(`SELECT doc, offset, term FROM v`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var doc int64
		var in inst
		if err := rows.Scan(&doc, &in.off, &in.term); err != nil {
			t.Fatal(err)
		}
		byDoc[doc] = append(byDoc[doc], in)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	out := make([][]string, len(texts))
	for i, ins := range byDoc {
		sort.Slice(ins, func(a, b int) bool { return ins[a].off < ins[b].off })
		for _, in := range ins {
			out[i] = append(out[i], in.term)
		}
	}
	return out
}

// batch is how many texts compare stores per FTS5 row: inserting rows is
// what costs, and joining texts with a space never merges or splits tokens.
const batch = 64

// compare requires Tokens to agree with FTS5 on every text and returns the
// number of texts and terms compared. Texts are checked in batches; a batch
// that differs is re-checked text by text to name the culprits.
func compare(t *testing.T, texts []string) (nTexts, nTerms int) {
	t.Helper()
	var joined []string
	for i := 0; i < len(texts); i += batch {
		joined = append(joined, strings.Join(texts[i:min(i+batch, len(texts))], " "))
	}
	want := sqliteTokens(t, joined)
	var suspects []string
	for i := range joined {
		var got []string
		for _, text := range texts[i*batch : min((i+1)*batch, len(texts))] {
			got = append(got, Tokens(text)...)
		}
		if !slices.Equal(got, want[i]) {
			suspects = append(suspects, texts[i*batch:min((i+1)*batch, len(texts))]...)
		}
		nTerms += len(want[i])
	}
	if len(suspects) == 0 {
		return len(texts), nTerms
	}
	bad := 0
	for i, w := range sqliteTokens(t, suspects) {
		if got := Tokens(suspects[i]); !slices.Equal(got, w) {
			if bad++; bad <= 30 {
				t.Errorf("Tokens(%q) = %q, FTS5 has %q", suspects[i], got, w)
			}
		}
	}
	t.Errorf("%d of %d texts differ", bad, len(texts))
	return len(texts), nTerms
}

// goDocWords returns the distinct whitespace-separated words of the comment
// lines in GOROOT/src, as written (punctuation and case included).
func goDocWords(t *testing.T) []string {
	t.Helper()
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Skipf("go env GOROOT: %v", err)
	}
	root := filepath.Join(strings.TrimSpace(string(out)), "src")
	if _, err := os.Stat(root); err != nil {
		t.Skipf("no Go source tree: %v", err)
	}
	seen := map[string]bool{}
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			if name := d.Name(); name == "testdata" || name == "vendor" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return nil
		}
		for line := range strings.Lines(string(data)) {
			line = strings.TrimSpace(line)
			if !strings.HasPrefix(line, "//") {
				continue
			}
			for _, w := range strings.Fields(line[2:]) {
				seen[w] = true
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	words := make([]string, 0, len(seen))
	for w := range seen {
		words = append(words, w)
	}
	sort.Strings(words)
	return words
}

// irregular covers the Porter rules one by one, the length limits, and the
// tokenizer's treatment of digits, case and diacritics.
var irregular = []string{
	"caresses", "ponies", "ties", "caress", "cats", "ies", "sss", "ss", "s", "xes", "aes",
	"feed", "agreed", "disabled", "matting", "mating", "meeting", "milling", "messing",
	"meetings", "plastered", "bled", "motoring", "sing", "conflated", "troubled", "sized",
	"hopping", "tanned", "falling", "hissing", "fizzed", "failing", "filing", "aed", "eed",
	"ing", "ying", "eing", "yed", "happy", "sky", "say", "by", "toy", "cry", "yyy", "syzygy",
	"relational", "conditional", "rational", "valenci", "hesitanci", "digitizer",
	"conformabli", "radicalli", "differentli", "vileli", "analogousli", "vietnamization",
	"predication", "operator", "feudalism", "decisiveness", "hopefulness", "callousness",
	"formaliti", "sensitiviti", "sensibiliti", "triplicate", "formative", "formalize",
	"electriciti", "electrical", "hopeful", "goodness", "revival", "allowance", "inference",
	"airliner", "gyroscopic", "adjustable", "defensible", "irritant", "replacement",
	"adjustment", "dependent", "adoption", "homologou", "communism", "activate",
	"angulariti", "homologous", "effective", "bowdlerize", "probate", "rate", "cease",
	"controll", "roll", "generalizations", "oscillators", "abc123", "123abc", "a1b2c3",
	"x86_64", "utf8", "3rd", "1st", "2nd", "ünicode", "café", "cafés", "naïve", "naïveté",
	"Über", "über", "Ärger", "façade", "piñata", "jalapeño", "résumé", "Ångström", "smørrebrød",
	"straße", "œuvre", "Æsir", "ﬁnancial", "Ｆｕｌｌｗｉｄｔｈ", "ΑΘΗΝΑ", "Москва", "日本語",
	"e\u0301tudes", "\u0301etudes", "cafe\u0301s", "ǅemal", "İstanbul", "ıi", "ϐeta",
	"µs", "x²", "½cup", "٣٤٥", "a\u200bb", "emoji😀word", "ωings", "жing", "testςs",
	"HTTPServers", "JSONEncoding", "IPv6", "don't", "e-mail", "foo.bar", "snake_case",
	"a", "ab", "abs", "abcs", "eds", "ings", "sses", "ssess", "ational", "tional",
	strings.Repeat("a", 63) + "s", strings.Repeat("a", 64) + "s", strings.Repeat("b", 62) + "ing",
	strings.Repeat("relational", 7), strings.Repeat("é", 40) + "s",
	"\x80abcs", "ab\xc3", "\xed\xa0\x80runs", "\xc0\xafruns", "\xf8\x88\x80\x80\x80x",
	"runs\xef\xbf\xbe", "\xc3\xa9\xa9ing",
}

// synthetic crosses stems with every suffix the rules know about.
func synthetic() []string {
	stems := []string{
		"r", "tr", "hop", "fil", "cat", "gener", "relat", "conflat", "troubl", "siz",
		"condit", "val", "digit", "sens", "formal", "electr", "hope", "adopt", "rat",
		"bow", "box", "happ", "sky", "cry", "agre", "fe", "bl", "sing", "y", "ay", "oy",
		"sy", "try", "tyr", "by", "eb", "ob", "mov", "controll", "tann", "fizz", "hiss",
		"fall", "wax", "snow", "play", "abc1", "x", "ee", "io",
	}
	var sufs []string
	for _, rs := range [][]rule{step2Rules, step3Rules, step4Rules} {
		for _, r := range rs {
			sufs = append(sufs, r.suffix, r.suffix+"s", r.suffix+"ed", r.suffix+"ing")
		}
	}
	sufs = append(sufs, "", "s", "es", "ies", "sses", "ss", "ed", "ing", "eed", "eeds",
		"y", "ly", "ily", "e", "es", "ll", "lls", "ated", "bled", "izing", "ating",
		"ations", "fulness", "ingly", "ers", "ies", "ied", "ying")
	var words []string
	for _, s := range stems {
		for _, suf := range sufs {
			words = append(words, s+suf)
		}
	}
	return words
}

func TestStemBasics(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"caresses", "caress"}, {"ponies", "poni"}, {"feed", "feed"}, {"agreed", "agre"},
		{"hopping", "hop"}, {"filing", "file"}, {"happy", "happi"}, {"relational", "relat"},
		{"generalizations", "gener"}, {"ab", "ab"}, {"日本語", "日本語"},
	} {
		if got := Stem(c.in); got != c.want {
			t.Errorf("Stem(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestMatchesFTS5 compares Tokens with FTS5 itself on every word of the Go
// standard library's comments plus the irregular and synthetic cases.
func TestMatchesFTS5(t *testing.T) {
	var texts []string
	if !testing.Short() {
		texts = goDocWords(t)
		t.Logf("%d distinct words from GOROOT/src comments", len(texts))
	}
	texts = append(texts, irregular...)
	texts = append(texts, synthetic()...)
	// A few multi-word texts exercise token boundaries.
	texts = append(texts, strings.Join(irregular, " "), "The quick-brown fox's  jumping\tover\nthe lazy dogs' résumés.")
	n, terms := compare(t, texts)
	t.Logf("compared %d texts (%d terms) with FTS5", n, terms)
}

// TestCodePoints checks every BMP code point, alone and inside a token,
// against FTS5, so tables.go is known to match the linked SQLite.
func TestCodePoints(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	var texts []string
	for c := rune(0x80); c <= 0xFFFF; c++ {
		if !utf8.ValidRune(c) {
			continue
		}
		s := string(c)
		texts = append(texts, s+"z", "ab"+s+"cs")
	}
	n, terms := compare(t, texts)
	t.Logf("compared %d texts (%d terms) with FTS5", n, terms)
}

func BenchmarkStem(b *testing.B) {
	words := []string{"relational", "hopping", "generalizations", "cats", "happy", "electricity", "the", "controller"}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		Stem(words[i%len(words)])
	}
}

func BenchmarkTokens(b *testing.B) {
	words := append([]string(nil), irregular...)
	words = append(words, synthetic()...)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		Tokens(words[i%len(words)])
	}
}

// TestRandomWords compares FTS5 with Tokens on pseudo-random words built to
// hit many rule conditions: short consonant/vowel patterns (including y)
// followed by the suffixes the rules know about, in mixed case.
func TestRandomWords(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	sufs := []string{"", "s", "es", "ies", "sses", "ed", "ing", "eed", "y", "e", "ll", "ly", "ness"}
	for _, rs := range [][]rule{step2Rules, step3Rules, step4Rules} {
		for _, ru := range rs {
			sufs = append(sufs, ru.suffix)
		}
	}
	const letters = "aeiouyybcdlmnrsttwxzz"
	texts := make([]string, 0, 30000)
	for range cap(texts) {
		var sb strings.Builder
		for range 1 + r.IntN(7) {
			c := letters[r.IntN(len(letters))]
			if r.IntN(20) == 0 {
				c -= 'a' - 'A'
			}
			sb.WriteByte(c)
		}
		sb.WriteString(sufs[r.IntN(len(sufs))])
		if r.IntN(3) == 0 {
			sb.WriteString(sufs[r.IntN(len(sufs))])
		}
		texts = append(texts, sb.String())
	}
	n, terms := compare(t, texts)
	t.Logf("compared %d texts (%d terms) with FTS5", n, terms)
}
