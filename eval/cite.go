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

// CheckSet checks a set of queries written for one category about one
// workspace, as the sets' own tests do: ids are unique; each query is
// about workspace ws, of the category, with a question, an answer and a
// question date; a scored query has gold lines, and an abstention has
// none and is not scored; every citation points at existing lines with
// text (CheckCitations). It counts the scored queries and the abstentions,
// and returns one error per fault.
func CheckSet(qs []Query, ws, category string) (scored, abstentions int, errs []error) {
	abs, err := filepath.Abs(ws)
	if err != nil {
		return 0, 0, []error{err}
	}
	seen := map[string]bool{}
	for _, q := range qs {
		fault := func(format string, a ...any) {
			errs = append(errs, fmt.Errorf("%s: "+format, append([]any{q.ID}, a...)...))
		}
		if seen[q.ID] {
			fault("duplicate id")
		}
		seen[q.ID] = true
		if got, _ := filepath.Abs(q.Workspace); got != abs {
			fault("workspace %s, want %s", got, abs)
		}
		if q.Category != category {
			fault("type %q, want %s", q.Category, category)
		}
		if strings.TrimSpace(q.Question) == "" || strings.TrimSpace(q.Answer) == "" || q.Now.IsZero() {
			fault("needs a question, an answer and a question_date")
		}
		switch {
		case q.Abstention && (q.Scored || len(q.Gold) > 0):
			fault("an abstention is not scored and has no gold")
		case !q.Abstention && (!q.Scored || len(q.Gold) == 0):
			fault("a scored query needs gold lines")
		}
		if q.Abstention {
			abstentions++
		} else {
			scored++
		}
	}
	return scored, abstentions, append(errs, CheckCitations(qs)...)
}

// CheckSetDir checks the set in dir, as the sets under bench/ keep them:
// dir/queries.jsonl about the workspace dir/workspace, all of the
// category (CheckSet), with the given numbers of scored queries and
// abstentions. It returns the queries, for checks of the category's own
// fields, and one error per fault.
func CheckSetDir(dir, category string, wantScored, wantAbstentions int) ([]Query, []error) {
	qs, err := LoadQueries(filepath.Join(dir, "queries.jsonl"))
	if err != nil {
		return nil, []error{err}
	}
	scored, abstentions, errs := CheckSet(qs, filepath.Join(dir, "workspace"), category)
	if scored != wantScored || abstentions != wantAbstentions {
		errs = append(errs, fmt.Errorf("%s: %d scored and %d abstentions, want %d and %d", dir, scored, abstentions, wantScored, wantAbstentions))
	}
	return qs, errs
}
