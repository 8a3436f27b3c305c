package sqlite

// A build's writer lays the items out as B-trees as they come, and
// gathers the smaller tables (files, entity pages and names, item–entity
// links), whose trees are written once every file is read
// (build_trees.go). Files get their ids here, as SQLite would have given
// them, in order from 1.

// itemRow is one row of items.
type itemRow struct {
	id, fileID                                                         int64
	kind                                                               string
	factID, confidence                                                 any // string or nil; float64 or nil
	start, end                                                         int64
	written, evStart, evEnd, section, entities, content, textHash, alt string
}

// fileRow is one row of files.
type fileRow struct {
	id              int64
	path, kind, day string
	size, mtime     int64
	hash            string
	lines           int64
	status          string
}

// pageRow is one row of entity_pages.
type pageRow struct {
	fileID              int64
	slug, name, aliases string
}

// nameRow is one row of entity_names.
type nameRow struct {
	key, slug string
	fileID    int64
}

// linkRow is one row of item_entities.
type linkRow struct {
	key  string
	item int64
}

// bulkRows is what a build's writer gathers.
type bulkRows struct {
	items    *itemTrees
	nextFile int64
	files    []fileRow
	pages    []pageRow
	names    []nameRow
	links    []linkRow
}

// file gathers a row of files and returns its id.
func (b *bulkRows) file(path, kind, day string, size, mtime int64, hash string, lines int, status string) int64 {
	id := b.nextFile
	b.nextFile++
	b.files = append(b.files, fileRow{id, path, kind, day, size, mtime, hash, int64(lines), status})
	return id
}
