package fts5_test

import (
	"fmt"

	"memoria/fts5"
)

// rows prints the shadow-table rows a SegmentWriter hands it.
type rows struct{}

func (rows) Data(rowid int64, block []byte) { fmt.Printf("%%_data %d: % x\n", rowid, block) }
func (rows) Idx(term []byte, pgno int64)    { fmt.Printf("%%_idx term %q, pgno %d\n", term, pgno) }

// Two terms: "hello" in document 1 (column 0, position 0) and document 2
// (column 1, position 3), "world" in document 2 (column 1, position 4).
func ExampleSegmentWriter() {
	w := fts5.NewSegmentWriter(1, fts5.DefaultPageSize, rows{})
	var dl fts5.DoclistBuilder
	dl.AddDocument(1, []uint64{0})
	dl.AddDocument(2, []uint64{1<<32 | 3})
	w.Add([]byte{fts5.MainPrefix, 'h', 'e', 'l', 'l', 'o'}, dl.Take())
	dl.AddDocument(2, []uint64{1<<32 | 4})
	w.Add([]byte{fts5.MainPrefix, 'w', 'o', 'r', 'l', 'd'}, dl.Take())
	leaves := w.Finish()
	seg := fts5.Segment{ID: 1, FirstPage: 1, LastPage: leaves, Rows: 2}
	fmt.Printf("structure: % x\n", fts5.Structure(1, true, 0, seg))
	fmt.Printf("averages: % x\n", fts5.Averages(2, []int64{1, 2}))
	// Output:
	// %_data 137438953473: 00 00 00 1f 06 30 68 65 6c 6c 6f 01 02 02 01 06 01 01 05 01 05 77 6f 72 6c 64 02 06 01 01 06 04 0f
	// %_idx term "", pgno 2
	// structure: 00 00 00 01 ff 00 00 01 01 01 00 00 01 01 01 01 01 01 00 00 02
	// averages: 02 01 02
}
