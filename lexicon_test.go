package memoria_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"memoria/lang"
)

// The lexicon (package lang) holds every word list once (issue 43): the
// packages that parse and rank read it and define none of their own.
// Identifier tables (the ranker's feature and channel names, an enum's
// names, Markdown headings) are not natural language; nor are maps from
// the keys of lang's tables to a grammar's values, whose words are lang's
// (TestKeysOfLang checks that they are its keys exactly); they are named
// here with why. TestOneLexicon fails on an entry that names no list.
var notWordLists = map[string]string{
	"recall.rankedChannels": "the channels' names",
	"recall.otherFeatures":  "the ranker's feature names",
	"query.intentNames":     "Intent.String's names of the intents: identifiers, not words a text is read by",
	"datephrase.unitOf":     "lang.TimeUnits' keys, each to the grammar's unit (TestKeysOfLang)",
	"datephrase.relationOf": "lang.TimeRelations' keys, each to the grammar's relation (TestKeysOfLang)",
	"datephrase.dateWordOf": "lang.DateWords' keys, each to the grammar's word (TestKeysOfLang)",
	"datephrase.holidayOf":  "lang.Holidays' keys, each to the grammar's holiday (TestKeysOfLang)",
	"change.changeAnchors": "pieces of changeGrammar, a quick look before that regexp: the fixed words of its " +
		"constructions (\"replaced \", \"took over\", \"now:\") and the words of lang's tables it is built of",
}

// wordPattern is a natural-language word or phrase in lower case.
var wordPattern = regexp.MustCompile(`^[\p{Ll}][\p{Ll}'’ -]*\*?$`)

// alternation finds a regexp alternation of three or more words.
var alternation = regexp.MustCompile(`\p{L}{2,}\|\p{L}{2,}\|\p{L}{2,}`)

// TestOneLexicon fails when a package that parses or ranks defines a list
// of words: a composite literal with four or more lower-case words among
// its strings, a string of words split into a list, or a regexp that
// alternates three or more words.
func TestOneLexicon(t *testing.T) {
	t.Parallel()
	exempted := map[string]bool{}
	eachSource(t, func(fset *token.FileSet, f *ast.File) {
		for _, d := range declarations(f) {
			ast.Inspect(d.node, func(n ast.Node) bool {
				if why := wordList(n); why != "" {
					if _, ok := notWordLists[d.name]; ok {
						exempted[d.name] = true
						return false
					}
					t.Errorf("%s: %s in %s: word lists live in package lang", fset.Position(n.Pos()), why, d.name)
					return false
				}
				return true
			})
		}
	})
	for name := range notWordLists {
		if !exempted[name] {
			t.Errorf("notWordLists: %s names no list: drop it", name)
		}
	}
}

type declaration struct {
	name string // package.name
	node ast.Node
}

// declarations are a file's functions and each of its var, const and type
// specs.
func declarations(f *ast.File) []declaration {
	var out []declaration
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			name := d.Name.Name
			if d.Recv != nil && len(d.Recv.List) > 0 {
				t := d.Recv.List[0].Type
				if s, ok := t.(*ast.StarExpr); ok {
					t = s.X
				}
				if id, ok := t.(*ast.Ident); ok {
					name = id.Name + "." + name
				}
			}
			out = append(out, declaration{f.Name.Name + "." + name, d})
		case *ast.GenDecl:
			for _, s := range d.Specs {
				name := ""
				switch s := s.(type) {
				case *ast.ValueSpec:
					name = s.Names[0].Name
				case *ast.TypeSpec:
					name = s.Name.Name
				}
				out = append(out, declaration{f.Name.Name + "." + name, s})
			}
		}
	}
	return out
}

// wordList says why n is a word list, or "".
func wordList(n ast.Node) string {
	switch n := n.(type) {
	case *ast.CompositeLit:
		words := 0
		ast.Inspect(n, func(m ast.Node) bool {
			if s, ok := stringLit(m); ok && wordPattern.MatchString(s) {
				words++
			}
			return true
		})
		if words >= 4 {
			return strconv.Itoa(words) + " words in a literal"
		}
	case *ast.CallExpr:
		sel, ok := n.Fun.(*ast.SelectorExpr)
		if !ok || len(n.Args) == 0 {
			return ""
		}
		s, ok := stringLit(n.Args[0])
		if !ok {
			return ""
		}
		switch sel.Sel.Name {
		case "Fields", "Split":
			if len(strings.Fields(s)) >= 4 {
				return "a string of words split into a list"
			}
		case "MustCompile", "Compile":
			if alternation.MatchString(s) {
				return "a regexp alternating words"
			}
		}
	}
	return ""
}

func stringLit(n ast.Node) (string, bool) {
	b, ok := n.(*ast.BasicLit)
	if !ok || b.Kind != token.STRING {
		return "", false
	}
	s, err := strconv.Unquote(b.Value)
	return s, err == nil
}

// TestKeysOfLang: the maps of datephrase that notWordLists takes for maps
// from lang's keys to the grammar's values have lang's keys exactly, no
// word of their own.
func TestKeysOfLang(t *testing.T) {
	t.Parallel()
	want := map[string]map[string][]string{
		"unitOf": lang.TimeUnits, "relationOf": lang.TimeRelations, "dateWordOf": lang.DateWords, "holidayOf": lang.Holidays,
	}
	f, err := parser.ParseFile(token.NewFileSet(), "datephrase/keywords.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range declarations(f) {
		table, ok := want[strings.TrimPrefix(d.name, "datephrase.")]
		if !ok {
			continue
		}
		var keys []string
		ast.Inspect(d.node, func(n ast.Node) bool {
			if kv, ok := n.(*ast.KeyValueExpr); ok {
				if k, ok := stringLit(kv.Key); ok {
					keys = append(keys, k)
				}
			}
			return true
		})
		if got, want := slices.Sorted(slices.Values(keys)), slices.Sorted(maps.Keys(table)); !slices.Equal(got, want) {
			t.Errorf("%s has keys %q, lang's table %q", d.name, got, want)
		}
		delete(want, strings.TrimPrefix(d.name, "datephrase."))
	}
	for name := range want {
		t.Errorf("datephrase.%s not found", name)
	}
}

// TestWordList: wordList flags a list of words however it is written,
// and no list of other strings.
func TestWordList(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		expr    string
		flagged bool
	}{
		{`[]string{"moved", "switched", "no longer", "swapp*"}`, true},
		{`map[string]int{"minute": 1, "hour": 2, "day": 3, "week": 4}`, true},
		{`strings.Fields("might could would should")`, true},
		{`regexp.MustCompile("(?i)\\b(?:in|since|until)\\s+")`, true},
		{`[]string{"moved", "switched", "no longer"}`, false}, // three: a phrase's parts, not yet a list
		{`[]string{"notes.md", "memory.md", "bank/", "queries.jsonl"}`, false},
		{`[]string{"Search", "About", "Opinion", "Decision"}`, false},
		{`regexp.MustCompile("^(?:19|20|21)\\d\\d$")`, false},
		{`strings.Split("a,b", ",")`, false},
	} {
		e, err := parser.ParseExpr(c.expr)
		if err != nil {
			t.Fatal(err)
		}
		flagged := false
		ast.Inspect(e, func(n ast.Node) bool {
			flagged = flagged || wordList(n) != ""
			return !flagged
		})
		if flagged != c.flagged {
			t.Errorf("wordList(%s) flagged %v, want %v", c.expr, flagged, c.flagged)
		}
	}
}
