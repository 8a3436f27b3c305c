package eval

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"memoria/memory"
)

// CheckCitations checks the gold and superseded citations of queries
// against their workspaces, as a set's own tests do: each must name a
// memory file of the workspace that exists, with a line range inside the
// file, every line of which has text. It returns one error per bad
// citation, naming the query.
func CheckCitations(qs []Query) []error {
	files := map[string][]string{} // by path; nil: not readable
	lines := func(path string) []string {
		if ls, ok := files[path]; ok {
			return ls
		}
		data, err := os.ReadFile(path)
		if err == nil {
			files[path] = strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
		} else {
			files[path] = nil
		}
		return files[path]
	}
	var errs []error
	for _, q := range qs {
		for _, list := range []struct {
			name string
			refs []memory.Source
		}{{"gold", q.Gold}, {"superseded", q.Superseded}} {
			for _, s := range list.refs {
				if msg := checkCitation(lines(filepath.Join(q.Workspace, filepath.FromSlash(s.Path))), s); msg != "" {
					errs = append(errs, fmt.Errorf("%s: %s %s: %s", q.ID, list.name, s, msg))
				}
			}
		}
	}
	return errs
}

// checkCitation says what is wrong with citation s of a file whose lines
// are ls (nil: it could not be read), or "" if nothing is.
func checkCitation(ls []string, s memory.Source) string {
	if _, _, ok := memory.ClassifyPath(s.Path); !ok {
		return "not a workspace memory file"
	}
	if ls == nil {
		return "file does not exist"
	}
	end := max(s.End, s.Start)
	switch {
	case s.Start < 1:
		return "no line range"
	case end > len(ls):
		return "past the end of the file"
	}
	for n := s.Start; n <= end; n++ {
		if strings.TrimSpace(ls[n-1]) == "" {
			return fmt.Sprintf("line %d is blank", n)
		}
	}
	return ""
}
