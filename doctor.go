package memoria

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"memoria/memory"
	"memoria/reflect"
	"memoria/workspace"
)

// Finding is one check of Doctor: what was looked at, whether it is as it
// should be, what was found and, when it is not, what to run or do.
type Finding struct {
	Check  string `json:"check"`
	OK     bool   `json:"ok"`
	Detail string `json:"detail"`
	Fix    string `json:"fix,omitempty"`
}

// Doctor checks the workspace and its derived files and says what to do
// about each problem: the index's consistency (reading all of it), its
// freshness, files the index skips, the embedding model and the vectors,
// files in the index folder that are not the index's, forgotten text back
// in the Markdown, temporary files a killed write left, and the review
// queues. It changes nothing.
func (w *Workspace) Doctor(ctx context.Context) ([]Finding, error) {
	var out []Finding
	add := func(check string, ok bool, detail, fix string) {
		if ok {
			fix = ""
		}
		out = append(out, Finding{Check: check, OK: ok, Detail: detail, Fix: fix})
	}
	if err := w.ix.Verify(ctx); err != nil {
		if !errors.Is(err, memory.ErrCorrupt) {
			return nil, err
		}
		add("index", false, err.Error(), "memoria index --rebuild (the Markdown is untouched)")
	} else {
		add("index", true, "consistent ("+w.path+")", "")
	}
	st, err := w.ix.Status(ctx)
	if err != nil {
		return nil, err
	}
	add("freshness", st.Pending == 0, fmt.Sprintf("%d files changed since indexed", st.Pending), "memoria index (any recall catches up too)")
	skipped := make([]string, 0, len(st.Skipped))
	for p, why := range st.Skipped {
		skipped = append(skipped, p+": "+why)
	}
	// The index records the files it could not read; those the listing
	// passed over (a symlink to what is not a memory file, a name with a
	// backslash that no citation can name) never reach it.
	if _, passed, err := workspace.List(w.dir); err == nil {
		for _, s := range passed {
			skipped = append(skipped, s.Rel+": "+s.Reason)
		}
	}
	slices.Sort(skipped)
	add("skipped files", len(skipped) == 0, pick(len(skipped) == 0, "none", strings.Join(skipped, "; ")),
		"fix or move each file as its reason says; it is not recalled until then")

	installed := modelInstalled() || w.opts.Embedder != nil
	add("model", installed, pick(installed, "installed", "not installed: recall is lexical"), installCommand()+", then memoria index")
	switch {
	case st.Texts == 0:
		add("vectors", true, "no text to embed", "")
	case st.VectorModel == "":
		add("vectors", false, fmt.Sprintf("none of %d texts embedded", st.Texts), "memoria index (with the model installed)")
	default:
		add("vectors", st.Embedded == st.Texts, fmt.Sprintf("%d of %d texts embedded (%s)", st.Embedded, st.Texts, st.VectorModel), "memoria index")
	}

	var orphans []string
	if entries, err := os.ReadDir(filepath.Dir(w.path)); err == nil {
		base := filepath.Base(w.path)
		for _, e := range entries {
			n := e.Name()
			// write.lock.q…: a writer waiting for the lock (flock.Queued).
			if n == ".gitignore" || n == "write.lock" || strings.HasPrefix(n, "write.lock.q") || n == base || (strings.HasPrefix(n, base) && isIndexCompanion(n[len(base):])) {
				continue
			}
			orphans = append(orphans, n)
		}
	}
	add("index folder", len(orphans) == 0, pick(len(orphans) == 0, "only the index's files", "not the index's: "+strings.Join(orphans, ", ")),
		"delete them ("+filepath.Dir(w.path)+" holds only derived files)")

	if f, ok := w.forgottenFinding(); ok {
		out = append(out, f)
	}

	var temps []string
	for _, d := range []string{".", "memory", "bank", "bank/entities"} {
		entries, _ := os.ReadDir(filepath.Join(w.dir, d))
		for _, e := range entries {
			if tempMarkdown.MatchString(e.Name()) {
				temps = append(temps, filepath.ToSlash(filepath.Join(d, e.Name())))
			}
		}
	}
	add("temporary files", len(temps) == 0, pick(len(temps) == 0, "none", "left by an interrupted write: "+strings.Join(temps, ", ")),
		"the next write to their folder removes them, or delete them")

	for _, q := range []struct{ file, what, fix string }{
		{ReviewFile, "inferred facts", "tick [x] the ones to keep, then memoria retain --accept"},
		{reflect.ProposalsPath, "core-memory proposals", "move the ones to keep into memory.md with memoria core append"},
	} {
		data, err := os.ReadFile(filepath.Join(w.dir, filepath.FromSlash(q.file)))
		if err != nil {
			continue
		}
		open := strings.Count(string(data), "- [ ] ")
		out = append(out, Finding{Check: "review", OK: true, Detail: fmt.Sprintf("%s: %d %s waiting (%s)", q.file, open, q.what, q.fix)})
	}
	return out, nil
}

// tempMarkdown matches the temporary files safewrite writes beside a
// Markdown file (".NAME.md.N.tmp").
var tempMarkdown = regexp.MustCompile(`^\..+\.md\.[0-9A-Za-z]+\.tmp$`)

// isIndexCompanion reports whether suffix, after the index file's name,
// names one of its companions: SQLite's journal files, the vectors and
// their graph.
func isIndexCompanion(suffix string) bool {
	switch suffix {
	case "-wal", "-shm", "-journal", ".vectors", ".vectors-wal", ".vectors-shm", ".vectors-journal", ".hnsw":
		return true
	}
	return false
}

func pick(ok bool, yes, no string) string {
	if ok {
		return yes
	}
	return no
}
