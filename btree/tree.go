package btree

import (
	"encoding/binary"
	"errors"
	"fmt"

	"memoria/fts5"
)

// The page types, the first byte of a B-tree page.
const (
	indexInterior = 0x02
	tableInterior = 0x05
	indexLeaf     = 0x0a
	tableLeaf     = 0x0d
)

// Tree writes one B-tree, a table (rows by rowid) or an index (keys),
// its rows given in order. Leaves are filled and written as they come;
// the levels above are made by Finish.
type Tree struct {
	x       *File
	root    uint32
	index   bool
	usable  int
	maxLoc  int // the most payload a cell keeps on its page
	minLoc  int
	leaf    cells
	held    []byte // the first leaf, kept back: if no second one comes, it is the root
	holding bool
	// One per child of the level above the leaves: the page and, for a
	// table, the varint of its largest rowid; for an index, the divider
	// key cell that follows it (none after the last one).
	children []uint32
	seps     [][]byte
	any      bool   // a table has a row: last is set
	last     int64  // the last rowid, for a table
	payload  []byte // the record being added, encoded
	cell     []byte
	page     []byte // the page being laid out
}

// cells are the cells of a page being filled.
type cells struct {
	buf  []byte
	ends []int
}

func (c *cells) add(cell []byte) {
	c.buf = append(c.buf, cell...)
	c.ends = append(c.ends, len(c.buf))
}

func (c *cells) reset() { c.buf, c.ends = c.buf[:0], c.ends[:0] }

// Table starts the table B-tree whose root is page root, which must be an
// empty table's.
func (x *File) Table(root uint32) (*Tree, error) { return x.tree(root, false) }

// Index starts the index B-tree whose root is page root, which must be an
// empty index's or WITHOUT ROWID table's.
func (x *File) Index(root uint32) (*Tree, error) { return x.tree(root, true) }

func (x *File) tree(root uint32, index bool) (*Tree, error) {
	flag := byte(tableLeaf)
	if index {
		flag = indexLeaf
	}
	if err := x.readRoot(root, flag); err != nil {
		return nil, fmt.Errorf("btree %s: %w", x.path, err)
	}
	u := x.pageSize
	t := &Tree{x: x, root: root, index: index, usable: u, page: make([]byte, u)}
	// Local payload limits (fileformat2 §1.6 "Cell Payload Overflow Pages").
	t.minLoc = (u-12)*32/255 - 23
	if index {
		t.maxLoc = (u-12)*64/255 - 23
	} else {
		t.maxLoc = u - 35
	}
	return t, nil
}

// AddRow adds a table row: its rowid, above the previous row's, and its
// record.
func (t *Tree) AddRow(rowid int64, r *Record) error {
	if t.index {
		return errors.New("btree: AddRow on an index")
	}
	if t.any && rowid <= t.last {
		return fmt.Errorf("btree: rowid %d after %d", rowid, t.last)
	}
	t.payload = r.AppendTo(t.payload[:0])
	t.cell = fts5.AppendVarint(t.cell[:0], uint64(len(t.payload)))
	t.cell = fts5.AppendVarint(t.cell, uint64(rowid))
	t.cell = t.appendPayload(t.cell, t.payload)
	if !t.leaf.fits(8, len(t.cell), t.usable) {
		t.endLeaf(fts5.AppendVarint(nil, uint64(t.last)))
	}
	t.leaf.add(t.cell)
	t.last, t.any = rowid, true
	return nil
}

// AddKey adds an index key, a record whose last value is the row's rowid
// (or, in a WITHOUT ROWID table, the row itself), after the previous key
// in the index's order.
func (t *Tree) AddKey(r *Record) error {
	if !t.index {
		return errors.New("btree: AddKey on a table")
	}
	t.payload = r.AppendTo(t.payload[:0])
	t.cell = fts5.AppendVarint(t.cell[:0], uint64(len(t.payload)))
	t.cell = t.appendPayload(t.cell, t.payload)
	for len(t.cell) < 4 {
		t.cell = append(t.cell, 0) // SQLite counts a cell as 4 bytes at least
	}
	if !t.leaf.fits(8, len(t.cell), t.usable) {
		// The leaf's last key goes up as the divider between it and the
		// next leaf, which starts with this key: no leaf is ever empty.
		n := len(t.leaf.ends)
		start := 0
		if n > 1 {
			start = t.leaf.ends[n-2]
		}
		sep := append([]byte(nil), t.leaf.buf[start:]...)
		if sep[0] < 4 {
			sep = sep[:1+sep[0]] // without the padding, if any
		}
		t.leaf.buf, t.leaf.ends = t.leaf.buf[:start], t.leaf.ends[:n-1]
		t.endLeaf(sep)
	}
	t.leaf.add(t.cell)
	return nil
}

// appendPayload appends the payload's part kept on the page and, when it
// does not all fit, writes the rest to overflow pages and appends the
// first one's number.
func (t *Tree) appendPayload(cell, payload []byte) []byte {
	local := len(payload)
	if local > t.maxLoc {
		local = t.minLoc + (len(payload)-t.minLoc)%(t.usable-4)
		if local > t.maxLoc {
			local = t.minLoc
		}
	}
	cell = append(cell, payload[:local]...)
	rest := payload[local:]
	if len(rest) == 0 {
		return cell
	}
	return binary.BigEndian.AppendUint32(cell, t.x.appendOverflow(rest))
}

func (c *cells) fits(hdr, n, usable int) bool {
	return hdr+2*(len(c.ends)+1)+len(c.buf)+n <= usable
}

// endLeaf writes the full leaf; sep is what the level above keeps of it.
func (t *Tree) endLeaf(sep []byte) {
	flag := byte(tableLeaf)
	if t.index {
		flag = indexLeaf
	}
	page := t.layout(flag, &t.leaf, 0)
	t.leaf.reset()
	t.seps = append(t.seps, sep)
	if len(t.seps) == 1 {
		t.held, t.holding = append(t.held[:0], page...), true
		return
	}
	if t.holding {
		t.children = append(t.children, t.x.appendPage(t.held))
		t.holding = false
	}
	t.children = append(t.children, t.x.appendPage(page))
}

// layout lays out a page of cells in t.page: header, cell pointers, and
// the cells from the end of the page down.
func (t *Tree) layout(flag byte, c *cells, right uint32) []byte {
	p := t.page
	clear(p)
	hdr := 8
	if right != 0 {
		hdr = 12
		binary.BigEndian.PutUint32(p[8:], right)
	}
	p[0] = flag
	binary.BigEndian.PutUint16(p[3:], uint16(len(c.ends)))
	pos, start := t.usable, 0
	for i, end := range c.ends {
		pos -= end - start
		copy(p[pos:], c.buf[start:end])
		binary.BigEndian.PutUint16(p[hdr+2*i:], uint16(pos))
		start = end
	}
	binary.BigEndian.PutUint16(p[5:], uint16(pos)) // 65536 is written 0
	return p
}

// Finish writes the last leaf and the levels above, the top one over the
// root page.
func (t *Tree) Finish() error {
	flag := byte(tableLeaf)
	if t.index {
		flag = indexLeaf
	}
	if len(t.seps) == 0 {
		t.x.writeRoot(t.root, t.layout(flag, &t.leaf, 0))
		return t.done()
	}
	if t.holding {
		t.children = append(t.children, t.x.appendPage(t.held))
		t.holding = false
	}
	t.children = append(t.children, t.x.appendPage(t.layout(flag, &t.leaf, 0)))
	if !t.index {
		t.seps = append(t.seps, fts5.AppendVarint(nil, uint64(t.last)))
	}
	for {
		children, seps, ok := t.level(t.children, t.seps)
		if ok {
			return t.done()
		}
		t.children, t.seps = children, seps
	}
}

// done reports the file's first write error: pages are written as they
// are made, and a failed write fails the trees written after it.
func (t *Tree) done() error {
	if err := t.x.failed(); err != nil {
		return fmt.Errorf("btree %s: %w", t.x.path, err)
	}
	return nil
}

// level writes the interior level above children (at least two) and
// returns its pages and their separators, or ok when it is one page, the
// root. A page over children a..b holds a cell for each of a..b-1, the
// child and its separator, and b as its right-most child; separator b goes
// up with the page (a table's largest rowid; an index's divider key, which
// the last page has none of).
func (t *Tree) level(children []uint32, seps [][]byte) (pages []uint32, up [][]byte, ok bool) {
	last := len(children) - 1
	capacity := t.usable - 12
	var ranges [][2]int
	for a := 0; a <= last; {
		b, size := a, 0
		for b < last && size+6+len(seps[b]) <= capacity {
			size += 6 + len(seps[b])
			b++
		}
		ranges = append(ranges, [2]int{a, b})
		a = b + 1
	}
	// A last page with no cell (its right child only) takes the previous
	// page's last child instead; every page holds at least three cells.
	if n := len(ranges); n > 1 && ranges[n-1][0] == ranges[n-1][1] {
		ranges[n-2][1]--
		ranges[n-1][0] = ranges[n-2][1] + 1
	}
	flag := byte(tableInterior)
	if t.index {
		flag = indexInterior
	}
	var c cells
	for _, r := range ranges {
		c.reset()
		for i := r[0]; i < r[1]; i++ {
			t.cell = binary.BigEndian.AppendUint32(t.cell[:0], children[i])
			c.add(append(t.cell, seps[i]...))
		}
		page := t.layout(flag, &c, children[r[1]])
		if len(ranges) == 1 {
			t.x.writeRoot(t.root, page)
			return nil, nil, true
		}
		pages = append(pages, t.x.appendPage(page))
		if r[1] < len(seps) {
			up = append(up, seps[r[1]])
		}
	}
	return pages, up, false
}
