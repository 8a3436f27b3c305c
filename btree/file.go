package btree

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
)

// File is a SQLite database file that no connection has open, whose trees
// are being written. The new pages are appended after the file's last
// one, in the order they are made; each tree's top page is written over
// its root page, where the schema says it is. Trees may be written on
// different goroutines at once, each Tree on one.
type File struct {
	f        *os.File
	path     string
	pageSize int
	old      uint32 // the pages the file had when opened

	mu       sync.Mutex
	pages    uint32 // the pages it has now, the appended ones included
	w        *bufio.Writer
	overflow []byte // an overflow page being made
	hdr      [100]byte
	err      error // the first write error: every later call returns it
}

// Open opens the database file at path to write trees into it. The file
// must be a SQLite database with a rollback journal (not WAL: pages there
// may still be in the -wal file), no free pages (a tree's pages must be
// the only ones past the end) and no reserved bytes per page.
func Open(path string) (*File, error) {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return nil, err
	}
	x := &File{f: f, path: path}
	if err := x.readHeader(); err != nil {
		f.Close()
		return nil, fmt.Errorf("btree %s: %w", path, err)
	}
	if _, err := f.Seek(int64(x.pages)*int64(x.pageSize), io.SeekStart); err != nil {
		f.Close()
		return nil, fmt.Errorf("btree %s: %w", path, err)
	}
	x.w = bufio.NewWriterSize(f, 1<<20)
	return x, nil
}

func (x *File) readHeader() error {
	if _, err := io.ReadFull(x.f, x.hdr[:]); err != nil {
		return fmt.Errorf("header: %w", err)
	}
	h := x.hdr[:]
	if !bytes.Equal(h[:16], []byte("SQLite format 3\x00")) {
		return errors.New("not a SQLite database")
	}
	x.pageSize = int(binary.BigEndian.Uint16(h[16:]))
	if x.pageSize == 1 {
		x.pageSize = 65536
	}
	switch {
	case x.pageSize < 512 || x.pageSize&(x.pageSize-1) != 0:
		return fmt.Errorf("page size %d", x.pageSize)
	case h[18] != 1 || h[19] != 1:
		return errors.New("in WAL mode")
	case h[20] != 0:
		return errors.New("pages have reserved bytes")
	case binary.BigEndian.Uint32(h[24:]) != binary.BigEndian.Uint32(h[92:]):
		return errors.New("the header's page count is out of date")
	case binary.BigEndian.Uint32(h[32:]) != 0 || binary.BigEndian.Uint32(h[36:]) != 0:
		return errors.New("the file has free pages")
	case binary.BigEndian.Uint32(h[52:]) != 0:
		return errors.New("auto-vacuum is on")
	}
	x.pages = binary.BigEndian.Uint32(h[28:])
	x.old = x.pages
	st, err := x.f.Stat()
	if err != nil {
		return err
	}
	if st.Size() != int64(x.pages)*int64(x.pageSize) {
		return fmt.Errorf("%d bytes for %d pages of %d", st.Size(), x.pages, x.pageSize)
	}
	return nil
}

// PageSize is the file's page size in bytes.
func (x *File) PageSize() int { return x.pageSize }

// appendPage writes p as the file's next page and returns its number.
func (x *File) appendPage(p []byte) uint32 {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.appendLocked(p)
}

func (x *File) appendLocked(p []byte) uint32 {
	x.pages++
	if x.err == nil {
		_, x.err = x.w.Write(p)
	}
	return x.pages
}

// appendOverflow writes rest, the part of a payload its cell does not
// keep, to a chain of overflow pages, and returns the first one's number.
// Each page holds the next one's number (0 on the last), then its part.
func (x *File) appendOverflow(rest []byte) uint32 {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.overflow == nil {
		x.overflow = make([]byte, x.pageSize)
	}
	first := x.pages + 1
	for len(rest) > 0 {
		n := min(len(rest), x.pageSize-4)
		clear(x.overflow)
		if n < len(rest) {
			binary.BigEndian.PutUint32(x.overflow, x.pages+2)
		}
		copy(x.overflow[4:], rest[:n])
		x.appendLocked(x.overflow)
		rest = rest[n:]
	}
	return first
}

// failed returns the first write error, if any.
func (x *File) failed() error {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.err
}

// readRoot reads root page n, which must be a leaf of the given kind
// (flag): a tree written over a root that had children would leave them
// unused.
func (x *File) readRoot(n uint32, flag byte) error {
	if n < 2 || n > x.old {
		return fmt.Errorf("root page %d: not one of the file's pages 2-%d", n, x.old)
	}
	var b [1]byte
	if _, err := x.f.ReadAt(b[:], int64(n-1)*int64(x.pageSize)); err != nil {
		return fmt.Errorf("root page %d: %w", n, err)
	}
	if b[0] != flag {
		return fmt.Errorf("root page %d: a page of type %#x, not an empty tree's leaf (%#x)", n, b[0], flag)
	}
	return nil
}

// writeRoot writes p over root page n.
func (x *File) writeRoot(n uint32, p []byte) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.err == nil {
		_, x.err = x.f.WriteAt(p, int64(n-1)*int64(x.pageSize))
	}
}

// Close writes the appended pages and the header's new page count, and
// closes the file. It does not sync: the file is a build's, renamed into
// place once SQLite has committed to it.
func (x *File) Close() error {
	x.mu.Lock()
	defer x.mu.Unlock()
	err := x.err
	if err == nil {
		err = x.w.Flush()
	}
	if err == nil && x.pages != x.old {
		h := x.hdr[:]
		// A new change counter, and the page count valid for it.
		change := binary.BigEndian.Uint32(h[24:]) + 1
		binary.BigEndian.PutUint32(h[24:], change)
		binary.BigEndian.PutUint32(h[92:], change)
		binary.BigEndian.PutUint32(h[28:], x.pages)
		_, err = x.f.WriteAt(h, 0)
	}
	if cerr := x.f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("btree %s: %w", x.path, err)
	}
	return nil
}
