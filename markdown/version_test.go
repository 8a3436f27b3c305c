package markdown

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// versionGolden records, for each workspace of the repository's corpus,
// what Parse read from it under which Version: "version N" and then one
// line per workspace, "dir contents-hash parse-hash".
const versionGolden = "testdata/version.golden"

// TestVersionCoversParsing fails when Parse reads the repository's
// workspaces (examples/, and those of bench/'s evaluation sets)
// otherwise than it did when Version was last set, while Version is the
// same: an index built before the change would keep the old reading,
// since Version is what tells it to rebuild. Twice a change of datephrase
// changed event times and left Version as it was. A workspace whose
// files changed is not compared; -update records every workspace again,
// and refuses while a reading changed under the same Version.
func TestVersionCoversParsing(t *testing.T) {
	got := corpusReadings(t)
	version, want := readVersionGolden(t)
	var changed []string
	for dir, w := range want {
		g, ok := got[dir]
		if ok && g.contents == w.contents && g.parse != w.parse {
			changed = append(changed, dir)
		}
	}
	slices.Sort(changed)
	switch {
	case len(changed) > 0 && version == Version:
		t.Errorf("Parse reads these workspaces otherwise than under Version %d, their files unchanged: %s; bump markdown.Version, so that indexes rebuild, then run go test ./markdown -run TestVersionCoversParsing -update", Version, strings.Join(changed, ", "))
	case *update:
		writeVersionGolden(t, got)
	case version != Version:
		t.Errorf("%s records Version %d, the code says %d: run go test ./markdown -run TestVersionCoversParsing -update", versionGolden, version, Version)
	}
}

// reading is what Parse read from one workspace's files, and the files.
type reading struct{ contents, parse string }

// corpusReadings parses every Markdown file of every workspace of the
// corpus: ../examples/workspace, and each folder under ../bench that has
// a memory/ folder.
func corpusReadings(t *testing.T) map[string]reading {
	t.Helper()
	dirs := []string{filepath.Join("..", "examples", "workspace")}
	err := filepath.WalkDir(filepath.Join("..", "bench"), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "memory" {
			dirs = append(dirs, filepath.Dir(p))
			return filepath.SkipDir
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]reading{}
	for _, dir := range dirs {
		contents, parse := sha256.New(), sha256.New()
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") {
				return err
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(dir, p)
			rel = filepath.ToSlash(rel)
			fmt.Fprintf(contents, "%s %d\n", rel, len(data))
			contents.Write(data)
			doc, err := Parse(rel, data)
			if err != nil {
				return err
			}
			b, err := json.Marshal(doc)
			if err != nil {
				return err
			}
			fmt.Fprintf(parse, "%s %d\n", rel, len(b))
			parse.Write(b)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.ToSlash(strings.TrimPrefix(dir, ".."+string(filepath.Separator)))
		out[name] = reading{short(contents.Sum(nil)), short(parse.Sum(nil))}
	}
	return out
}

func short(sum []byte) string { return hex.EncodeToString(sum)[:16] }

func readVersionGolden(t *testing.T) (int, map[string]reading) {
	t.Helper()
	f, err := os.Open(versionGolden)
	if os.IsNotExist(err) && *update {
		return Version, nil // the first recording
	}
	if err != nil {
		t.Fatalf("%v (run go test ./markdown -run TestVersionCoversParsing -update)", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	version := -1
	out := map[string]reading{}
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		switch {
		case len(f) == 2 && f[0] == "version":
			if version, err = strconv.Atoi(f[1]); err != nil {
				t.Fatalf("%s: %q", versionGolden, sc.Text())
			}
		case len(f) == 3:
			out[f[0]] = reading{f[1], f[2]}
		default:
			t.Fatalf("%s: %q", versionGolden, sc.Text())
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return version, out
}

func writeVersionGolden(t *testing.T, got map[string]reading) {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "version %d\n", Version)
	dirs := make([]string, 0, len(got))
	for d := range got {
		dirs = append(dirs, d)
	}
	slices.Sort(dirs)
	for _, d := range dirs {
		fmt.Fprintf(&b, "%s %s %s\n", d, got[d].contents, got[d].parse)
	}
	if err := os.WriteFile(versionGolden, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}
