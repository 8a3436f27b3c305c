package workspace

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

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
func List(dir string) (files []File, skipped []Skipped, err error) {
	if err := Check(dir); err != nil {
		return nil, nil, err
	}
	root, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return nil, nil, fmt.Errorf("workspace %s: %w", dir, err)
	}
	add := func(rel string, d fs.DirEntry) {
		kind, _, ok := memory.ClassifyPath(rel)
		if !ok {
			return
		}
		info, err := d.Info()
		if err != nil {
			skipped = append(skipped, Skipped{rel, err.Error()})
			return
		}
		if info.Mode()&fs.ModeSymlink != 0 {
			target, err := filepath.EvalSymlinks(filepath.Join(root, filepath.FromSlash(rel)))
			if err != nil {
				skipped = append(skipped, Skipped{rel, "broken symlink"})
				return
			}
			if !Within(root, target) {
				skipped = append(skipped, Skipped{rel, "symlink points outside the workspace"})
				return
			}
			if info, err = os.Stat(target); err != nil {
				skipped = append(skipped, Skipped{rel, err.Error()})
				return
			}
		}
		if !info.Mode().IsRegular() {
			skipped = append(skipped, Skipped{rel, "not a regular file"})
			return
		}
		files = append(files, File{Rel: rel, Kind: kind, Size: info.Size(), ModTime: info.ModTime().UnixNano()})
	}
	for _, name := range []string{"memory.md", "MEMORY.md"} {
		if info, err := os.Lstat(filepath.Join(root, name)); err == nil {
			add(name, fs.FileInfoToDirEntry(info))
		}
	}
	for _, top := range []string{"memory", "bank"} {
		base := filepath.Join(root, top)
		err := filepath.WalkDir(base, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				if errors.Is(err, fs.ErrNotExist) && p == base {
					return fs.SkipDir
				}
				rel, _ := filepath.Rel(root, p)
				skipped = append(skipped, Skipped{filepath.ToSlash(rel), err.Error()})
				if d != nil && d.IsDir() {
					return fs.SkipDir
				}
				return nil
			}
			if d.IsDir() {
				if p != base && strings.HasPrefix(d.Name(), ".") {
					return fs.SkipDir
				}
				return nil
			}
			rel, err := filepath.Rel(root, p)
			if err != nil {
				return nil
			}
			add(filepath.ToSlash(rel), d)
			return nil
		})
		if err != nil {
			return nil, nil, fmt.Errorf("workspace %s: %w", dir, err)
		}
	}
	sort.Slice(files, func(i, j int) bool { return files[i].Rel < files[j].Rel })
	return files, skipped, nil
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
