package memoria_test

import (
	"errors"
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

// TestFunctionShape checks that no function of recall/, query/, reflect/,
// datephrase/ or the sentence analysis (change/) is longer than
// maxFuncLines lines or has a cyclomatic complexity over
// maxFuncComplexity (as gocyclo counts it). Test files are not held to it.
func TestFunctionShape(t *testing.T) {
	t.Parallel()
	for _, dir := range []string{"recall", "query", "reflect", "datephrase", "change"} {
		fset := token.NewFileSet()
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || strings.HasSuffix(path, "_gen.go") {
				return err
			}
			f, err := parser.ParseFile(fset, path, nil, 0)
			if err != nil {
				return err
			}
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
			return nil
		})
		if err != nil && !(dir == "change" && errors.Is(err, fs.ErrNotExist)) {
			t.Fatal(err)
		}
	}
}
