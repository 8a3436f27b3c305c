package memoria_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fzipp/gocyclo"
)

// Function limits of the packages that parse and rank (issue 43): a
// function that grows past them is split by meaning, not tuned further.
const (
	maxFuncLines      = 80
	maxFuncComplexity = 25
)

// rankingPackages are the packages that parse and rank: they are held to
// the function limits and read every word list from the lexicon.
var rankingPackages = []string{"recall", "query", "reflect", "datephrase", "change"}

// eachSource parses every hand-written Go file of rankingPackages (not
// tests, not generated files) and calls fn with it.
func eachSource(t *testing.T, fn func(fset *token.FileSet, f *ast.File)) {
	t.Helper()
	fset := token.NewFileSet()
	for _, dir := range rankingPackages {
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || strings.HasSuffix(path, "_gen.go") {
				return err
			}
			f, err := parser.ParseFile(fset, path, nil, 0)
			if err != nil {
				return err
			}
			fn(fset, f)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// TestFunctionShape checks that no function of rankingPackages is longer
// than maxFuncLines lines or has a cyclomatic complexity over
// maxFuncComplexity (as gocyclo counts it). Test files are not held to it.
func TestFunctionShape(t *testing.T) {
	t.Parallel()
	eachSource(t, func(fset *token.FileSet, f *ast.File) {
		for _, s := range gocyclo.AnalyzeASTFile(f, fset, nil) {
			if s.Complexity > maxFuncComplexity {
				t.Errorf("%s: %s has cyclomatic complexity %d (at most %d)", s.Pos, s.FuncName, s.Complexity, maxFuncComplexity)
			}
		}
		for _, d := range f.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok {
				first, last := fset.Position(fn.Pos()).Line, fset.Position(fn.End()).Line
				if n := last - first + 1; n > maxFuncLines {
					t.Errorf("%s: %s is %d lines long (at most %d)", fset.Position(fn.Pos()), fn.Name.Name, n, maxFuncLines)
				}
			}
		}
	})
}
