package sqlite

import (
	"errors"
	"slices"
	"strings"
)

// The manifest (what the index saw of each file) and the files the
// in-memory postings hold are both kept sorted by path, as the listing is:
// a one-shot recall compares the three with one pass each (joinPaths).
// Maps of thousands of paths, built and probed once per process, were a
// tenth of its CPU time.

// manifest is what the index saw of each file, sorted by path.
type manifest struct {
	paths []string
	files []storedFile
}

func (m *manifest) len() int { return len(m.paths) }

func (m *manifest) get(p string) (storedFile, bool) {
	i, ok := slices.BinarySearch(m.paths, p)
	if !ok {
		return storedFile{}, false
	}
	return m.files[i], true
}

// edit returns the manifest as a map, for a sync to change.
func (m *manifest) edit() map[string]storedFile {
	out := make(map[string]storedFile, len(m.paths))
	for i, p := range m.paths {
		out[p] = m.files[i]
	}
	return out
}

// fileList is what the postings hold of each file, sorted by path.
type fileList struct {
	paths []string
	files []lexFile
}

func (l *fileList) len() int { return len(l.paths) }

func (l *fileList) get(p string) (lexFile, bool) {
	i, ok := slices.BinarySearch(l.paths, p)
	if !ok {
		return lexFile{}, false
	}
	return l.files[i], true
}

func (l *fileList) set(p string, f lexFile) {
	i, ok := slices.BinarySearch(l.paths, p)
	if ok {
		l.files[i] = f
		return
	}
	l.paths = slices.Insert(l.paths, i, p)
	l.files = slices.Insert(l.files, i, f)
}

func (l *fileList) remove(p string) {
	if i, ok := slices.BinarySearch(l.paths, p); ok {
		l.paths = slices.Delete(l.paths, i, i+1)
		l.files = slices.Delete(l.files, i, i+1)
	}
}

// fileListOf sorts the files of m into a fileList.
func fileListOf(m map[string]lexFile) fileList {
	var l fileList
	l.paths = make([]string, 0, len(m))
	for p := range m {
		l.paths = append(l.paths, p)
	}
	slices.Sort(l.paths)
	l.files = make([]lexFile, len(l.paths))
	for i, p := range l.paths {
		l.files[i] = m[p]
	}
	return l
}

// sortByPath sorts paths and, in step, the values of each path (one per
// path), unless they are sorted already; it fails on a path listed twice.
func sortByPath[T any](paths []string, values []T) error {
	sorted := true
	for i := 1; i < len(paths); i++ {
		if c := strings.Compare(paths[i-1], paths[i]); c >= 0 {
			if c == 0 {
				return errors.New("a path listed twice")
			}
			sorted = false
		}
	}
	if sorted {
		return nil
	}
	order := make([]int, len(paths))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return strings.Compare(paths[a], paths[b]) })
	ps, vs := slices.Clone(paths), slices.Clone(values)
	for i, k := range order {
		paths[i], values[i] = ps[k], vs[k]
	}
	return sortByPath(paths, values) // now only checks for twice-listed paths
}

// joinPaths walks the sorted lists a and b in step and calls fn once for
// each path in either, in order, with its index in a and in b (-1 where it
// is missing).
func joinPaths(a, b []string, fn func(i, j int)) {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch c := strings.Compare(a[i], b[j]); {
		case c < 0:
			fn(i, -1)
			i++
		case c > 0:
			fn(-1, j)
			j++
		default:
			fn(i, j)
			i++
			j++
		}
	}
	for ; i < len(a); i++ {
		fn(i, -1)
	}
	for ; j < len(b); j++ {
		fn(-1, j)
	}
}
