package workspace

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"memoria/memory"
)

// ErrNotFound is wrapped when the workspace folder does not exist.
var ErrNotFound = errors.New("workspace not found")

// File is one indexable Markdown file of a workspace.
type File struct {
	Rel     string // workspace-relative, slash-separated
	Kind    memory.FileKind
	Size    int64
	ModTime int64 // nanoseconds since the epoch
	Symlink bool  // a symlink to a file elsewhere in the workspace
}

// Skipped is a file that was passed over, with the reason.
type Skipped struct {
	Rel    string
	Reason string
}

// Check returns a clear error when dir is not a usable workspace folder.
func Check(dir string) error {
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%w: %s does not exist (create it with `memoria init --workspace %s`)", ErrNotFound, dir, dir)
	case err != nil:
		return fmt.Errorf("workspace %s: %w", dir, err)
	case !st.IsDir():
		return fmt.Errorf("%w: %s is not a folder", ErrNotFound, dir)
	}
	return nil
}

// List returns the indexable files of the workspace in dir, sorted by path:
// memory.md (or MEMORY.md), memory/**.md and bank/**.md. Hidden folders are
// not entered, symlinked folders are not followed, and a symlinked file is
// listed only when it resolves inside the workspace; anything else passed
// over is reported in skipped.
//
// List runs before every recall (the freshness check), so it is written for
// speed: one directory read per folder and one lstat per file, spread over
// the CPUs for large folders.
func List(dir string) (files []File, skipped []Skipped, err error) {
	if err := Check(dir); err != nil {
		return nil, nil, err
	}
	root, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return nil, nil, fmt.Errorf("workspace %s: %w", dir, err)
	}
	l := lister{root: root}
	for _, name := range []string{"memory.md", "MEMORY.md"} {
		if info, err := os.Lstat(filepath.Join(root, name)); err == nil {
			l.add(name, info)
		}
	}
	for _, top := range []string{"bank", "memory"} {
		if err := l.walk(top); err != nil {
			return nil, nil, fmt.Errorf("workspace %s: %w", dir, err)
		}
	}
	slices.SortFunc(l.files, func(a, b File) int { return strings.Compare(a.Rel, b.Rel) })
	return l.files, l.skipped, nil
}

type lister struct {
	root    string
	mu      sync.Mutex
	files   []File
	skipped []Skipped
}

func (l *lister) skip(rel, reason string) {
	l.mu.Lock()
	l.skipped = append(l.skipped, Skipped{rel, reason})
	l.mu.Unlock()
}

// walk lists one folder (workspace-relative, slash-separated) and its
// subfolders.
func (l *lister) walk(rel string) error {
	abs := filepath.Join(l.root, filepath.FromSlash(rel))
	entries, err := os.ReadDir(abs)
	switch {
	case errors.Is(err, fs.ErrNotExist) && !strings.Contains(rel, "/"):
		return nil // no memory/ or bank/ folder yet
	case err != nil:
		l.skip(rel, errText(err))
		return nil
	}
	var names []string
	for _, e := range entries {
		name := e.Name()
		switch {
		case e.IsDir():
			if !strings.HasPrefix(name, ".") {
				if err := l.walk(rel + "/" + name); err != nil {
					return err
				}
			}
		case hasMarkdownSuffix(name):
			names = append(names, name)
		}
	}
	stat := func(names []string) {
		for _, name := range names {
			p := rel + "/" + name
			info, err := os.Lstat(filepath.Join(abs, name))
			if err != nil {
				l.skip(p, errText(err))
				continue
			}
			l.add(p, info)
		}
	}
	// One lstat per file is most of the freshness check: share a large
	// folder (years of daily logs) between the CPUs.
	if workers := min(runtime.GOMAXPROCS(0), len(names)/256); workers > 1 {
		var wg sync.WaitGroup
		chunk := (len(names) + workers - 1) / workers
		for i := 0; i < len(names); i += chunk {
			part := names[i:min(i+chunk, len(names))]
			wg.Add(1)
			go func() { defer wg.Done(); stat(part) }()
		}
		wg.Wait()
	} else {
		stat(names)
	}
	return nil
}

func hasMarkdownSuffix(name string) bool {
	return len(name) > 3 && strings.EqualFold(name[len(name)-3:], ".md")
}

func errText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// add records one file found by a listing (info from lstat).
func (l *lister) add(rel string, info fs.FileInfo) {
	kind, _, ok := memory.ClassifyPath(rel)
	if !ok {
		return
	}
	symlink := info.Mode()&fs.ModeSymlink != 0
	if symlink {
		target, err := filepath.EvalSymlinks(filepath.Join(l.root, filepath.FromSlash(rel)))
		if err != nil {
			l.skip(rel, "broken symlink")
			return
		}
		if !Within(l.root, target) {
			l.skip(rel, "symlink points outside the workspace")
			return
		}
		if info, err = os.Stat(target); err != nil {
			l.skip(rel, errText(err))
			return
		}
	}
	if !info.Mode().IsRegular() {
		l.skip(rel, "not a regular file")
		return
	}
	f := File{Rel: rel, Kind: kind, Size: info.Size(), ModTime: info.ModTime().UnixNano(), Symlink: symlink}
	l.mu.Lock()
	l.files = append(l.files, f)
	l.mu.Unlock()
}

// Within reports whether path p lies inside (or is) folder root. Both must
// be cleaned absolute paths with symlinks already resolved.
func Within(root, p string) bool {
	rel, err := filepath.Rel(root, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// Path joins a workspace-relative slash path to the workspace folder,
// refusing any path that would leave it (absolute paths, "..", symlinks
// resolving outside). The file need not exist.
func Path(dir, rel string) (string, error) {
	if rel == "" || filepath.IsAbs(rel) || strings.HasPrefix(rel, "/") || strings.Contains(rel, "\\") {
		return "", fmt.Errorf("path %q: must be relative to the workspace", rel)
	}
	clean := filepath.Clean(filepath.FromSlash(rel))
	if clean == ".." || strings.HasPrefix(clean, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("path %q: leaves the workspace", rel)
	}
	root, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return "", fmt.Errorf("workspace %s: %w", dir, err)
	}
	p := filepath.Join(root, clean)
	// The file may not exist yet: check the nearest existing ancestor, so a
	// symlinked folder leading out is refused too.
	for q := p; Within(root, q); q = filepath.Dir(q) {
		resolved, err := filepath.EvalSymlinks(q)
		if err != nil {
			continue
		}
		if !Within(root, resolved) {
			return "", fmt.Errorf("path %q: resolves outside the workspace", rel)
		}
		break
	}
	return p, nil
}
