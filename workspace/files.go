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

// CheckMarked is Check, and also refuses a folder that IsWorkspace does not
// recognise: an empty folder or a code repository named by mistake is
// reported, rather than given a .memory/ folder.
func CheckMarked(dir string) error {
	if err := Check(dir); err != nil {
		return err
	}
	if !IsWorkspace(dir) {
		return fmt.Errorf("%w: %s holds no memory.md, MEMORY.md, memory/, bank/ or .memory/ (make it one with `memoria init --workspace %s`)", ErrNotFound, dir, dir)
	}
	return nil
}

// IsWorkspace reports whether dir holds what marks a workspace: memory.md
// or MEMORY.md, or a memory/, bank/ or .memory/ folder.
func IsWorkspace(dir string) bool {
	for _, m := range []struct {
		name string
		dir  bool
	}{{"memory.md", false}, {"MEMORY.md", false}, {"memory", true}, {"bank", true}, {IndexDir, true}} {
		if st, err := os.Stat(filepath.Join(dir, m.name)); err == nil && st.IsDir() == m.dir {
			return true
		}
	}
	return false
}

// List returns the indexable files of the workspace in dir, sorted by path:
// memory.md (or MEMORY.md), OpenClaw's USER.md and DREAMS.md (or
// dreams.md) (memory.RootFiles), memory/**.md and bank/**.md. Hidden folders are
// not entered, symlinked folders are not followed, and a symlinked file is
// listed only when it resolves inside the workspace; anything else passed
// over is reported in skipped.
//
// List runs before every recall (the freshness check), so it is written for
// speed: one directory read per folder and one lstat per file, relative to
// the open folder where the system allows it (see folderOps), spread over
// the CPUs for large folders, and each folder sorted on its own (names are
// cheaper to sort than paths, and sorted folders merge in one pass).
func List(dir string) (files []File, skipped []Skipped, err error) {
	if err := Check(dir); err != nil {
		return nil, nil, err
	}
	root, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return nil, nil, fmt.Errorf("workspace %s: %w", dir, err)
	}
	top, err := openRoot(root)
	if err != nil {
		return nil, nil, fmt.Errorf("workspace %s: %w", dir, err)
	}
	defer top.close()
	l := lister{root: root, layout: &layout{top: root}}
	var core found
	for _, name := range memory.RootFiles {
		if st, err := top.lstat(name); err == nil {
			l.add(&core, name, st)
		}
	}
	l.skipped = append(l.skipped, core.skipped...)
	slices.SortFunc(core.files, func(a, b File) int { return strings.Compare(a.Rel, b.Rel) })
	dirs := []string{"bank", "memory"}
	subs := make([][]File, len(dirs))
	for i, name := range dirs {
		subs[i] = l.walk(top, name, name)
	}
	return merge(core.files, 0, dirs, subs), l.skipped, nil
}

// fileStat is what List needs of an lstat (or, for a symlink, a stat).
type fileStat struct {
	symlink bool
	regular bool
	size    int64
	modTime int64 // nanoseconds since the epoch
}

// folderOps is what the system-specific part of the listing provides for
// an open workspace folder (files_linux.go, files_other.go), with
// openRoot(path) (folder, error) to open the workspace itself.
type folderOps interface {
	// open reads the subfolder name: the names of its folders, hidden
	// ones left out, and the paths (prefix+name) of its other entries
	// named *.md, in no particular order.
	open(name, prefix string) (sub folder, dirs, files []string, err error)
	// lstat stats the entry name without following a symlink.
	lstat(name string) (fileStat, error)
	close()
}

var _ folderOps = folder{}

type lister struct {
	root    string
	layout  *layout // where memory/ and bank/ really are
	skipped []Skipped
}

// found is what (part of) a listing found.
type found struct {
	files   []File
	skipped []Skipped
}

// walk lists the folder name of parent (rel: its workspace-relative,
// slash-separated path) and its subfolders, and returns their files sorted
// by Rel. It reports skipped files in the order a sorted walk finds them:
// each folder's subfolders (by name), then its own files (by name).
func (l *lister) walk(parent folder, name, rel string) []File {
	// Below the top, only real folders are walked (a symlinked subfolder
	// is not listed as a folder); memory/ and bank/ themselves are opened
	// by name, which follows a symlink: one that leads out of the
	// workspace is refused, as Path refuses it.
	if !strings.Contains(rel, "/") {
		if st, err := parent.lstat(name); err == nil && st.symlink {
			// As Reader reads it (layout): a folder inside the
			// workspace, not the workspace itself nor .memory/.
			if _, ok := folderTarget(l.root, name); !ok {
				l.skipped = append(l.skipped, Skipped{rel, "a symlink to a folder outside the workspace, to the workspace itself, or into " + IndexDir + "/"})
				return nil
			}
		}
	}
	f, dirs, paths, err := parent.open(name, rel+"/")
	switch {
	case errors.Is(err, fs.ErrNotExist) && !strings.Contains(rel, "/"):
		return nil // no memory/ or bank/ folder yet
	case err != nil:
		l.skipped = append(l.skipped, Skipped{rel, errText(err)})
		return nil
	}
	defer f.close()
	slices.Sort(dirs)
	subs := make([][]File, len(dirs))
	for i, d := range dirs {
		subs[i] = l.walk(f, d, rel+"/"+d)
	}
	return merge(l.statAll(f, len(rel)+1, paths), len(rel)+1, dirs, subs)
}

// statChunk is the least number of files worth a goroutine of their own.
const statChunk = 256

// statAll stats the files of folder f (paths, with the folder's path and a
// slash in their first off bytes) and returns them sorted.
func (l *lister) statAll(f folder, off int, paths []string) []File {
	// One lstat per file is most of the freshness check: share a large
	// folder (years of daily logs) between the CPUs, each sorting and
	// statting its part.
	workers := min(runtime.GOMAXPROCS(0), len(paths)/statChunk)
	if workers <= 1 {
		sortPaths(paths, off)
		out := found{files: make([]File, 0, len(paths))}
		l.stat(&out, f, off, paths)
		l.skipped = append(l.skipped, out.skipped...)
		return out.files
	}
	parts := make([]found, workers)
	chunk := (len(paths) + workers - 1) / workers
	var wg sync.WaitGroup
	for i := range parts {
		part := paths[min(i*chunk, len(paths)):min((i+1)*chunk, len(paths))]
		wg.Go(func() {
			sortPaths(part, off)
			parts[i].files = make([]File, 0, len(part))
			l.stat(&parts[i], f, off, part)
		})
	}
	wg.Wait()
	from := len(l.skipped)
	files := make([][]File, len(parts))
	for i, p := range parts {
		files[i] = p.files
		l.skipped = append(l.skipped, p.skipped...)
	}
	slices.SortFunc(l.skipped[from:], func(a, b Skipped) int { return strings.Compare(a.Rel, b.Rel) })
	// Merge the sorted parts pairwise.
	for len(files) > 1 {
		next := files[:0]
		for i := 0; i < len(files); i += 2 {
			if i+1 == len(files) {
				next = append(next, files[i])
				break
			}
			next = append(next, mergeTwo(files[i], files[i+1]))
		}
		files = next
	}
	return files[0]
}

// sortPaths sorts paths that agree in their first off bytes, as
// slices.Sort does but sooner for the thousands of names of a folder of
// daily logs, which share most of their bytes: a most-significant-byte
// radix sort, with slices.Sort for small groups.
func sortPaths(paths []string, off int) {
	if len(paths) < radixMin {
		slices.Sort(paths)
		return
	}
	radixSort(paths, make([]string, len(paths)), off)
}

// radixMin is the least number of paths worth a radix pass.
const radixMin = 32

// radixSort sorts a, whose strings agree in their first depth bytes, using
// buf (as long as a) to distribute them.
func radixSort(a, buf []string, depth int) {
	for len(a) >= radixMin {
		// Group 0 holds the strings that end at depth (all equal), group
		// 1+c those whose byte at depth is c.
		var count [257]int
		for _, s := range a {
			count[radixGroup(s, depth)]++
		}
		if g := radixGroup(a[0], depth); count[g] == len(a) {
			if g == 0 {
				return
			}
			depth++ // all share this byte too
			continue
		}
		var next [257]int // where the group's next string goes
		sum := 0
		for g, n := range count {
			next[g] = sum
			sum += n
		}
		for _, s := range a {
			g := radixGroup(s, depth)
			buf[next[g]] = s
			next[g]++
		}
		copy(a, buf[:len(a)])
		// Each group now ends where next says; sort within them.
		for g, start := 1, next[0]; g < len(next); g++ {
			if end := next[g]; end-start > 1 {
				radixSort(a[start:end], buf[start:end], depth+1)
			}
			start = next[g]
		}
		return
	}
	slices.Sort(a)
}

// radixGroup is the group of s at depth for radixSort.
func radixGroup(s string, depth int) int {
	if depth < len(s) {
		return 1 + int(s[depth])
	}
	return 0
}

// mergeTwo merges two lists of files sorted by Rel.
func mergeTwo(a, b []File) []File {
	out := make([]File, 0, len(a)+len(b))
	for len(a) > 0 && len(b) > 0 {
		if a[0].Rel < b[0].Rel {
			out, a = append(out, a[0]), a[1:]
		} else {
			out, b = append(out, b[0]), b[1:]
		}
	}
	return append(append(out, a...), b...)
}

// merge returns a folder's own files (sorted; the folder's path and a slash
// in their first off bytes) and those of its subfolders dirs (their files
// in subs, sorted) in one list sorted by Rel. A subfolder's files go where
// its name and a slash sort among the names of the folder's own files (no
// name has a slash); note that "a-b/" sorts before "a/".
func merge(own []File, off int, dirs []string, subs [][]File) []File {
	n := len(own)
	for _, s := range subs {
		n += len(s)
	}
	if n == len(own) {
		return own
	}
	type sub struct {
		key   string
		files []File
	}
	folders := make([]sub, len(dirs))
	for i, d := range dirs {
		folders[i] = sub{d + "/", subs[i]}
	}
	slices.SortFunc(folders, func(a, b sub) int { return strings.Compare(a.key, b.key) })
	out := make([]File, 0, n)
	i := 0
	for _, sf := range folders {
		for i < len(own) && own[i].Rel[off:] < sf.key {
			out = append(out, own[i])
			i++
		}
		out = append(out, sf.files...)
	}
	return append(out, own[i:]...)
}

// stat adds the files of folder f (paths, with the folder's path and a
// slash in their first off bytes) to out.
func (l *lister) stat(out *found, f folder, off int, paths []string) {
	for _, p := range paths {
		st, err := f.lstat(p[off:])
		if err != nil {
			out.skipped = append(out.skipped, Skipped{p, errText(err)})
			continue
		}
		l.add(out, p, st)
	}
}

// hasMarkdownSuffix reports whether name is longer than ".md" and ends in
// it, in any case.
func hasMarkdownSuffix[T string | []byte](name T) bool {
	n := len(name)
	return n > 3 && name[n-3] == '.' && name[n-2]|0x20 == 'm' && name[n-1]|0x20 == 'd'
}

func errText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// add records one file found by a listing (st from lstat) in out.
func (l *lister) add(out *found, rel string, st fileStat) {
	kind, _, ok := memory.ClassifyPath(rel)
	if !ok {
		return
	}
	if strings.Contains(rel, `\`) {
		// Its citation could not be read back: get (and a citation on
		// Windows) takes a backslash for a folder separator.
		out.skipped = append(out.skipped, Skipped{rel, `a backslash in the name, which a citation cannot name (rename it without \)`})
		return
	}
	if st.symlink {
		target, err := filepath.EvalSymlinks(filepath.Join(l.root, filepath.FromSlash(rel)))
		if err != nil {
			out.skipped = append(out.skipped, Skipped{rel, "broken symlink"})
			return
		}
		if !Within(l.root, target) {
			out.skipped = append(out.skipped, Skipped{rel, "symlink points outside the workspace"})
			return
		}
		info, err := os.Stat(target)
		if err != nil {
			out.skipped = append(out.skipped, Skipped{rel, errText(err)})
			return
		}
		st.regular, st.size, st.modTime = info.Mode().IsRegular(), info.Size(), info.ModTime().UnixNano()
		// The target must itself be a memory file (as Reader decides):
		// a symlink to .memory/index.sqlite or a review file would put
		// them in the index, and get would serve them.
		t, _ := filepath.Rel(l.root, target)
		if _, ok := l.layout.memoryRel(filepath.ToSlash(t)); st.regular && !ok {
			out.skipped = append(out.skipped, Skipped{rel, "symlink to " + filepath.ToSlash(t) + ", which is not a memory file"})
			return
		}
	}
	if !st.regular {
		out.skipped = append(out.skipped, Skipped{rel, "not a regular file"})
		return
	}
	out.files = append(out.files, File{Rel: rel, Kind: kind, Size: st.size, ModTime: st.modTime, Symlink: st.symlink})
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
