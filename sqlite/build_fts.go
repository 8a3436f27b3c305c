package sqlite

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"memoria/bm25"
	"memoria/btree"
	"memoria/fts5"
)

// A full build makes the full-text table's content in Go rather than have
// FTS5 tokenize every item: the items' full-text rows are computed from
// the parsed documents (ftsRows, the same rows ftsInsert and ftsWindow
// compute in SQL; a test holds them equal) and tokenized on every CPU
// into a bm25.Builder while the items are written. Its postings are then
// written in FTS5's own format (package fts5) straight into items_fts's
// shadow tables, as B-trees (build_trees.go): byte for byte the table
// FTS5 makes when it is filled by one INSERT in rowid order, but for the
// level its segment is on (ftsSegmentLevel; TestBuildFTSTable). FTS5's
// tokenizing and hash writes, in C translated to Go, were the slowest
// part of a build.

// ftsItem is what the full-text row of one item is made from, as the
// writer adds it to items.
type ftsItem struct {
	id        int64
	passage   bool // kind = 'passage'
	startLine int
	section   string
	entities  string // items.entities
	content   string
	alt       string // items.alt
}

// ftsRow is one row of items_fts.
type ftsRow struct {
	id                                  int64
	content, section, entities, context string
}

// ftsContext is how many characters of each neighbour a passage's context
// column takes (the 200 in ftsInsert).
const ftsContext = 200

// ftsRows appends to dst the full-text rows of one file's items, given in
// id order, as ftsInsert and ftsWindow make them: the window partitions
// the file's items by section (facts have none, so they share a partition
// with the passages before the first heading) and orders each partition
// by start line; ties keep id order.
func ftsRows(items []ftsItem, dst []ftsRow) []ftsRow {
	prev, next := ftsNeighbours(items)
	var b strings.Builder
	for i, it := range items {
		own, altCtx := splitAlt(it.alt)
		r := ftsRow{id: it.id, section: it.section, entities: ftsEntities(it.entities), content: it.content}
		if it.alt != "" {
			r.content = it.content + " " + own
		}
		b.Reset()
		if it.passage {
			before, after := ftsNeighbourTexts(items, prev[i], next[i])
			b.WriteString(before)
			b.WriteByte(' ')
			b.WriteString(after)
		}
		if it.alt != "" {
			b.WriteByte(' ')
			b.WriteString(altCtx)
		}
		r.context = b.String()
		dst = append(dst, r)
	}
	return dst
}

// ftsNeighbourTexts is what a passage's context column takes of its
// neighbours: the last ftsContext characters of the item before it
// (items[prev]) and the first of the item after it (items[next]); "" for
// a neighbour that is not there (-1).
func ftsNeighbourTexts(items []ftsItem, prev, next int) (before, after string) {
	if prev >= 0 {
		before = sqlTail(items[prev].content, ftsContext)
	}
	if next >= 0 {
		after = sqlHead(items[next].content, ftsContext)
	}
	return before, after
}

// ftsNeighbours returns, for each of one file's items (in id order),
// the index of the item before it and after it in its window partition,
// -1 for none: whose text its context column takes.
func ftsNeighbours(items []ftsItem) (prev, next []int) {
	// order holds the item indexes sorted by (section, start line, id):
	// each partition is then a run, in window order.
	order := make([]int, len(items))
	sorted := true
	for i := range items {
		order[i] = i
		if i > 0 && (items[i].section < items[i-1].section ||
			items[i].section == items[i-1].section && items[i].startLine < items[i-1].startLine) {
			sorted = false
		}
	}
	if !sorted {
		slices.SortStableFunc(order, func(a, b int) int {
			if c := strings.Compare(items[a].section, items[b].section); c != 0 {
				return c
			}
			return items[a].startLine - items[b].startLine
		})
	}
	prev = make([]int, len(items))
	next = make([]int, len(items))
	for k, i := range order {
		prev[i], next[i] = -1, -1
		if k > 0 && items[order[k-1]].section == items[i].section {
			prev[i] = order[k-1]
		}
		if k+1 < len(order) && items[order[k+1]].section == items[i].section {
			next[i] = order[k+1]
		}
	}
	return prev, next
}

// ftsTokenizer adds the full-text rows of a file's items to a part of
// the build's bm25.Builder, as their text, ftsRows, would be tokenized,
// but with each item's line tokenized once: a neighbour's line that its
// context column takes whole (most are under ftsContext characters) is
// tokenized with the line itself, and only lines cut short are tokenized
// again. The terms of "a b" are those of a followed by those of b
// (a space always ends a token), so the result is the same.
type ftsTokenizer struct {
	own     []uint32 // the items' content terms, back to back
	ends    []int    // item i's are own[ends[i-1]:ends[i]]
	cols    [4][]uint32
	section string // last section tokenized, and its terms
	secTerm []uint32
}

func (z *ftsTokenizer) add(part *bm25.BuilderPart, items []ftsItem) {
	prev, next := ftsNeighbours(items)
	z.own, z.ends = z.own[:0], z.ends[:0]
	for _, it := range items {
		z.own = part.Tokenize(z.own, it.content)
		z.ends = append(z.ends, len(z.own))
	}
	z.section, z.secTerm = "", z.secTerm[:0]
	for i, it := range items {
		own, altCtx := splitAlt(it.alt)
		content := append(z.cols[0][:0], z.line(i)...)
		if it.alt != "" {
			content = part.Tokenize(content, own)
		}
		if it.section != z.section {
			z.section, z.secTerm = it.section, part.Tokenize(z.secTerm[:0], it.section)
		}
		entities := part.Tokenize(z.cols[2][:0], ftsEntities(it.entities))
		context := z.cols[3][:0]
		if it.passage {
			before, after := ftsNeighbourTexts(items, prev[i], next[i])
			context = z.neighbour(part, context, items, prev[i], before)
			context = z.neighbour(part, context, items, next[i], after)
		}
		if it.alt != "" {
			context = part.Tokenize(context, altCtx)
		}
		part.AddTerms(it.id, content, z.secTerm, entities, context)
		z.cols[0], z.cols[2], z.cols[3] = content, entities, context
	}
}

// line is the terms of items[i]'s own line.
func (z *ftsTokenizer) line(i int) []uint32 {
	start := 0
	if i > 0 {
		start = z.ends[i-1]
	}
	return z.own[start:z.ends[i]]
}

// neighbour appends the terms of text, what a context column takes of
// items[j] (none when j < 0): the line's own terms when it is the whole
// line, else text's.
func (z *ftsTokenizer) neighbour(part *bm25.BuilderPart, dst []uint32, items []ftsItem, j int, text string) []uint32 {
	switch {
	case j < 0:
		return dst
	case len(text) == len(items[j].content):
		return append(dst, z.line(j)...)
	}
	return part.Tokenize(dst, text)
}

// ftsEntities is replace(replace(entities, '-', ' '), '_', ' ').
func ftsEntities(s string) string {
	if strings.IndexByte(s, '-') < 0 && strings.IndexByte(s, '_') < 0 {
		return s
	}
	b := []byte(s)
	for i, c := range b {
		if c == '-' || c == '_' {
			b[i] = ' '
		}
	}
	return string(b)
}

// splitAlt splits a non-empty items.alt value as ftsInsert does with
// instr(alt, char(1)): the item's own tokens before U+0001, its
// neighbours' after. Without the separator, SQLite's substr gives an
// empty own part and the whole value as the neighbours'.
func splitAlt(alt string) (own, context string) {
	i := strings.IndexByte(alt, 1)
	if i < 0 {
		return "", sqlHead(alt, len(alt))
	}
	if strings.IndexByte(alt[:i], 0) >= 0 {
		// substr stops skipping characters at the NUL.
		return sqlHead(alt, len(alt)), ""
	}
	return alt[:i], sqlHead(alt[i+1:], len(alt))
}

// sqlSkip returns the index after the character of s starting at i, as
// SQLite's SQLITE_SKIP_UTF8 counts characters (substr counts in these).
func sqlSkip(s string, i int) int {
	c := s[i]
	i++
	if c >= 0xc0 {
		for i < len(s) && s[i]&0xc0 == 0x80 {
			i++
		}
	}
	return i
}

// sqlHead is SQLite's substr(s, 1, n) for text: the first n characters,
// stopping at a NUL byte as SQLite's character loops do.
func sqlHead(s string, n int) string {
	i := 0
	for ; n > 0 && i < len(s) && s[i] != 0; n-- {
		i = sqlSkip(s, i)
	}
	return s[:i]
}

// sqlTail is SQLite's substr(s, -n) for text: the last n characters of
// the part before any NUL byte.
func sqlTail(s string, n int) string {
	if k := strings.IndexByte(s, 0); k >= 0 {
		s = s[:k]
	}
	// Count characters from the start only when the text could be longer
	// than n characters; most neighbours are shorter.
	if len(s) <= n {
		return s
	}
	chars := 0
	for i := 0; i < len(s); chars++ {
		i = sqlSkip(s, i)
	}
	skip := chars - n
	i := 0
	for ; skip > 0; skip-- {
		i = sqlSkip(s, i)
	}
	return s[i:]
}

// ftsBuilder tokenizes the items of a build as the writer queues them:
// runs of whole files go, each as a part of one bm25.Builder, to a pool
// of goroutines. The items share their text with the parsed documents, so
// the queue costs little.
type ftsBuilder struct {
	builder *bm25.Builder
	jobs    chan ftsJob
	workers sync.WaitGroup
	pending ftsFiles // not yet queued
	ended   bool
	keep    bool          // the postings are kept as a segment too (seg)
	seg     []byte        // for the in-memory ranking (build_lex.go)
	segErr  error         // why seg was not made
	segDone chan struct{} // closed once seg is made, or will not be
	aborted atomic.Bool   // the build failed: skip the rest of the work
	done    chan struct{} // closed when out is made
	out     ftsContent
}

// ftsJob is one part's files.
type ftsJob struct {
	part  *bm25.BuilderPart
	files ftsFiles
}

// ftsFiles are the items of whole files: file k's are
// items[ends[k-1]:ends[k]].
type ftsFiles struct {
	items []ftsItem
	ends  []int
}

// ftsPartItems is how many items a part takes: parts are joined term by
// term at the end, so fewer, larger parts cost less there.
const ftsPartItems = 8192

// ftsSegmentLevel is the level of the full-text index's structure the
// build's one segment goes on. FTS5 leaves a flushed segment on level 0,
// where the small segments of the incremental updates that follow join it:
// on ten years, the 14th update merged them all, rewriting the whole
// 12 MB index (426 ms, where an update takes 20 ms). Higher up, FTS5's
// automerge (4 segments a level) merges the small segments among
// themselves, and reaches this one only after some 4^4 updates; a rebuild
// starts afresh.
const ftsSegmentLevel = 4

// ftsConfig is how the table is configured before its content is
// written: as it was when FTS5 filled it (one hash flush, no merging
// during the fill, automerge back on for the incremental updates). Each
// setting bumps the configuration cookie in the structure record.
const ftsConfig = `INSERT INTO items_fts(items_fts, rank) VALUES('automerge', 0);
INSERT INTO items_fts(items_fts, rank) VALUES('hashsize', 268435456);
INSERT INTO items_fts(items_fts, rank) VALUES('automerge', 4);`

// startFTS starts the goroutines that tokenize the items; keep asks for
// the postings as a bm25 segment too.
func startFTS(keep bool) *ftsBuilder {
	b := &ftsBuilder{builder: newLexicalBuilder(), keep: keep, jobs: make(chan ftsJob, 16), done: make(chan struct{}), segDone: make(chan struct{})}
	for range max(1, runtime.GOMAXPROCS(0)) {
		b.workers.Go(func() {
			var z ftsTokenizer
			for j := range b.jobs {
				if b.aborted.Load() {
					continue
				}
				start := 0
				for _, end := range j.files.ends {
					z.add(j.part, j.files.items[start:end])
					start = end
				}
			}
		})
	}
	return b
}

// add queues the items of one file.
func (b *ftsBuilder) add(items []ftsItem) {
	if b.pending.items == nil {
		// Sized for a part, so that it seldom grows.
		b.pending = ftsFiles{items: make([]ftsItem, 0, ftsPartItems+ftsPartItems/8), ends: make([]int, 0, 256)}
	}
	b.pending.items = append(b.pending.items, items...)
	b.pending.ends = append(b.pending.ends, len(b.pending.items))
	if len(b.pending.items) >= ftsPartItems {
		b.queue()
	}
}

func (b *ftsBuilder) queue() {
	if len(b.pending.items) > 0 {
		b.jobs <- ftsJob{b.builder.Part(), b.pending}
	}
	b.pending = ftsFiles{}
}

// end queues what is pending and, once the items are all tokenized,
// makes the table's content on a goroutine, into the B-trees of x
// (build_trees.go): roots are the file's root pages, start the rows of
// items_fts_data its configuration wrote. With x nil (the build failed)
// it makes nothing.
func (b *ftsBuilder) end(x *btree.File, roots map[string]uint32, start []fts5Row) {
	if b.ended {
		return
	}
	b.queue()
	b.ended = true
	close(b.jobs)
	go func() {
		defer close(b.done)
		b.workers.Wait()
		if x == nil || b.aborted.Load() {
			b.out.err = errors.New("full-text: build aborted")
			b.segErr = b.out.err
			close(b.segDone)
			return
		}
		// The segment first: making the full-text content drains the
		// builder's postings as it goes, so they are never held twice.
		if b.keep {
			b.seg, b.segErr = segment(b.builder)
			b.out.err = b.segErr
		}
		close(b.segDone)
		if b.out.err == nil {
			b.out.err = b.out.make(b.builder, x, roots, start)
		}
		b.builder = nil
	}()
}

// wait waits for the content to be made and written.
func (b *ftsBuilder) wait() error {
	<-b.done
	return b.out.err
}

// abort ends the tokenizing after an error elsewhere and waits for it.
func (b *ftsBuilder) abort() {
	b.aborted.Store(true)
	b.end(nil, nil, nil)
	<-b.done
}

// ftsContent is the content of items_fts's shadow tables. %_data's
// leaves and %_docsize's rows go into their B-trees as they are made,
// %_idx's once the segment is; the structure record is kept for SQL
// (writeStructure).
type ftsContent struct {
	data      *btree.Tree
	rec       btree.Record
	dlidx     fts5Rows // doclist-index pages: their rowids follow every leaf's
	idx       fts5Rows // %_idx: id is pgno, block the term, written after the leaves
	structure []byte   // the structure record
	err       error    // the first error writing a tree
}

// fts5Row is a row of a shadow table.
type fts5Row struct {
	id    int64
	block []byte
}

// fts5Rows are rows of a shadow table.
type fts5Rows []fts5Row

// Data adds a leaf to %_data's tree, or keeps a doclist-index page for
// after the last leaf.
func (c *ftsContent) Data(rowid int64, block []byte) {
	if fts5.IsDlidxRowid(rowid) {
		c.dlidx = append(c.dlidx, fts5Row{rowid, block})
		return
	}
	c.addData(rowid, block)
}

func (c *ftsContent) Idx(term []byte, pgno int64) { c.idx = append(c.idx, fts5Row{pgno, term}) }

// addData adds a row to %_data's tree; rowids ascend.
func (c *ftsContent) addData(rowid int64, block []byte) {
	c.rec.Reset()
	c.rec.Null()
	c.rec.Blob(block)
	if err := c.data.AddRow(rowid, &c.rec); err != nil && c.err == nil {
		c.err = fmt.Errorf("items_fts_data: %w", err)
	}
}

// make writes the builder's documents and postings in FTS5's format,
// into the B-trees of %_docsize and %_data. The structure record, whose
// rowid comes before the leaves' but which is known only after them, is
// kept for writeStructure.
func (c *ftsContent) make(b *bm25.Builder, x *btree.File, roots map[string]uint32, start []fts5Row) error {
	i := slices.IndexFunc(start, func(r fts5Row) bool { return r.id == fts5.StructureRowid })
	if i < 0 {
		return errors.New("no structure record")
	}
	cookie, v2, err := fts5.EmptyStructure(start[i].block)
	if err != nil {
		return err
	}
	c.structure = start[i].block
	docsize, err := tree(x, roots, "items_fts_docsize", false)
	if err != nil {
		return err
	}
	if c.data, err = tree(x, roots, "items_fts_data", false); err != nil {
		return err
	}
	// The origin of every row is 1, the first segment's.
	totals := make([]int64, len(lexWeights))
	var rows int64
	var sz []byte
	err = b.EachDocument(func(id int64, cols []int32) {
		sz = fts5.Docsize(sz[:0], cols)
		c.rec.Reset()
		c.rec.Null()
		c.rec.Blob(sz)
		c.rec.Int(1)
		if err := docsize.AddRow(id, &c.rec); err != nil && c.err == nil {
			c.err = fmt.Errorf("items_fts_docsize: %w", err)
		}
		rows++
		for i, n := range cols {
			totals[i] += int64(n)
		}
	})
	if err != nil {
		return err
	}
	if err := docsize.Finish(); err != nil {
		return fmt.Errorf("items_fts_docsize: %w", err)
	}
	// The configuration's rows but the structure record, the averages
	// replaced by the documents'; then the leaves as they are made.
	if rows > 0 && !slices.ContainsFunc(start, func(r fts5Row) bool { return r.id == fts5.AveragesRowid }) {
		return errors.New("no averages record")
	}
	for _, r := range start {
		switch {
		case r.id == fts5.StructureRowid:
		case r.id == fts5.AveragesRowid && rows > 0:
			c.addData(r.id, fts5.Averages(rows, totals))
		default:
			c.addData(r.id, r.block)
		}
	}
	terms, err := b.Terms()
	if err != nil {
		return err
	}
	// The doclists are made on every CPU, a run of terms each, and laid
	// out in pages in term order as the runs complete.
	type run struct {
		terms []string
		lists []byte
		ends  []int
		done  chan struct{}
	}
	workers := max(1, runtime.GOMAXPROCS(0))
	runs := make([]*run, 0, 4*workers)
	size := max(1, (len(terms)+cap(runs)-1)/cap(runs))
	for lo := 0; lo < len(terms); lo += size {
		runs = append(runs, &run{terms: terms[lo:min(lo+size, len(terms))], done: make(chan struct{})})
	}
	slots := make(chan struct{}, workers)
	go func() {
		for _, r := range runs {
			slots <- struct{}{}
			go func() {
				defer func() { <-slots }()
				defer close(r.done)
				var dl fts5.DoclistBuilder
				r.ends = make([]int, 0, len(r.terms))
				for _, t := range r.terms {
					for id, occ := range b.Drain(t) {
						dl.AddDocument(id, occ)
					}
					r.ends = append(r.ends, dl.EndDoclist())
				}
				r.lists = dl.Bytes()
			}()
		}
	}()
	w := fts5.NewSegmentWriter(1, fts5.DefaultPageSize, c)
	var key []byte
	for _, r := range runs {
		<-r.done
		off := 0
		for i, t := range r.terms {
			key = append(append(key[:0], fts5.MainPrefix), t...)
			w.Add(key, r.lists[off:r.ends[i]])
			off = r.ends[i]
		}
		r.lists = nil
	}
	if leaves := w.Finish(); leaves > 0 {
		seg := fts5.Segment{ID: 1, FirstPage: 1, LastPage: leaves, Rows: rows}
		c.structure = fts5.Structure(cookie, v2, ftsSegmentLevel, seg)
	}
	slices.SortFunc(c.dlidx, func(a, b fts5Row) int { return cmp.Compare(a.id, b.id) })
	for _, r := range c.dlidx {
		c.addData(r.id, r.block)
	}
	c.dlidx = nil
	if c.err != nil {
		return c.err
	}
	if err := c.data.Finish(); err != nil {
		return fmt.Errorf("items_fts_data: %w", err)
	}
	return c.writeIdx(x, roots)
}

// writeIdx writes the %_idx rows (segid, term, pgno), a WITHOUT ROWID
// table keyed by segment and term: the terms come in page order, which
// is term order, and are blobs, ordered as bytes.
func (c *ftsContent) writeIdx(x *btree.File, roots map[string]uint32) error {
	t, err := tree(x, roots, "items_fts_idx", true)
	if err != nil {
		return err
	}
	for _, r := range c.idx {
		c.rec.Reset()
		c.rec.Int(1) // the segment
		c.rec.Blob(r.block)
		c.rec.Int(r.id)
		if err := t.AddKey(&c.rec); err != nil {
			return fmt.Errorf("items_fts_idx: %w", err)
		}
	}
	c.idx = nil
	if err := t.Finish(); err != nil {
		return fmt.Errorf("items_fts_idx: %w", err)
	}
	return nil
}

// writeStructure inserts the structure record, once the content is made:
// its rowid comes before the leaves', but it is known only after them.
func (b *ftsBuilder) writeStructure(ctx context.Context, tx *sql.Tx) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO items_fts_data(id, block) VALUES(?, ?)`, fts5.StructureRowid, b.out.structure)
	return err
}

// ftsTable is the full-text table's definition in schema.
var ftsTable = func() string {
	i := strings.Index(schema, "CREATE VIRTUAL TABLE items_fts ")
	if i < 0 {
		panic("sqlite: no items_fts in the schema")
	}
	return schema[i : i+strings.IndexByte(schema[i:], ';')]
}()
