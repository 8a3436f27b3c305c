package sqlite

import (
	"errors"
	"slices"
	"strings"
)

// The manifest (what the index saw of each file) is kept sorted by path,
// as the listing is: a one-shot recall compares the two in one pass
// (joinPaths). Maps of thousands of paths, built and probed once per
// process, showed as a tenth of its CPU profile.

// byPath holds one value per path, sorted by path.
type byPath[T any] struct {
	paths []string
	vals  []T
}

// manifest is what the index saw of each file.
type manifest = byPath[storedFile]

func (l *byPath[T]) len() int { return len(l.paths) }

func (l *byPath[T]) get(p string) (T, bool) {
	i, ok := slices.BinarySearch(l.paths, p)
	if !ok {
		var zero T
		return zero, false
	}
	return l.vals[i], true
}

func (l *byPath[T]) set(p string, v T) {
	i, ok := slices.BinarySearch(l.paths, p)
	if ok {
		l.vals[i] = v
		return
	}
	l.paths = slices.Insert(l.paths, i, p)
	l.vals = slices.Insert(l.vals, i, v)
}

func (l *byPath[T]) remove(p string) {
	if i, ok := slices.BinarySearch(l.paths, p); ok {
		l.paths = slices.Delete(l.paths, i, i+1)
		l.vals = slices.Delete(l.vals, i, i+1)
	}
}

// edit returns the values as a map, for a sync to change.
func (l *byPath[T]) edit() map[string]T {
	out := make(map[string]T, len(l.paths))
	for i, p := range l.paths {
		out[p] = l.vals[i]
	}
	return out
}

// byPathOf sorts the values of m by path.
func byPathOf[T any](m map[string]T) byPath[T] {
	var l byPath[T]
	l.paths = make([]string, 0, len(m))
	for p := range m {
		l.paths = append(l.paths, p)
	}
	slices.Sort(l.paths)
	l.vals = make([]T, len(l.paths))
	for i, p := range l.paths {
		l.vals[i] = m[p]
	}
	return l
}

// sortByPath sorts paths and, in step, the values of each path (one per
// path), unless they are sorted already; it fails on a path listed twice.
func sortByPath[T any](paths []string, values []T) error {
	if !slices.IsSorted(paths) {
		order := make([]int, len(paths))
		for i := range order {
			order[i] = i
		}
		slices.SortFunc(order, func(a, b int) int { return strings.Compare(paths[a], paths[b]) })
		ps, vs := slices.Clone(paths), slices.Clone(values)
		for i, k := range order {
			paths[i], values[i] = ps[k], vs[k]
		}
	}
	for i := 1; i < len(paths); i++ {
		if paths[i-1] == paths[i] {
			return errors.New("a path listed twice")
		}
	}
	return nil
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
