package markdown

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

// testdataFiles returns the testdata/*.md inputs keyed by their file name.
func testdataFiles(t testing.TB) []string {
	t.Helper()
	names, err := filepath.Glob(filepath.Join("testdata", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	if len(names) == 0 {
		t.Fatal("no testdata/*.md files")
	}
	return names
}

// workspacePath maps a testdata file name to the workspace path it stands
// for: "__" separates directories, so bank__entities__Peter.md is
// bank/entities/Peter.md.
func workspacePath(name string) string {
	return strings.ReplaceAll(filepath.Base(name), "__", "/")
}

func TestGolden(t *testing.T) {
	for _, name := range testdataFiles(t) {
		t.Run(filepath.Base(name), func(t *testing.T) {
			data, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			doc, err := Parse(workspacePath(name), data)
			if err != nil {
				t.Fatal(err)
			}
			checkInvariants(t, data, doc)
			got, err := json.MarshalIndent(doc, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			golden := strings.TrimSuffix(name, ".md") + ".golden"
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./markdown -update)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("output differs from %s (run go test ./markdown -update and review the diff):\n%s", golden, got)
			}
		})
	}
}

func readFile(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
