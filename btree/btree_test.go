package btree_test

import (
	"bytes"
	"cmp"
	"database/sql"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"memoria/btree"

	_ "modernc.org/sqlite"
)

// row is a row of the test table t(id INTEGER PRIMARY KEY, a, b, c) and
// of its index t_ab ON t(a, b): a is text, b an integer, c any value.
type row struct {
	id int64
	a  string
	b  int64
	c  any
}

// newDB makes a database with the test's empty tables and returns their
// root pages.
func newDB(t *testing.T, pageSize int) (string, map[string]uint32) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "test.db")
	db := open(t, path)
	defer db.Close()
	for _, q := range []string{
		fmt.Sprintf("PRAGMA page_size=%d", pageSize),
		`CREATE TABLE t(id INTEGER PRIMARY KEY, a TEXT, b INTEGER, c)`,
		`CREATE INDEX t_ab ON t(a, b)`,
		`CREATE TABLE w(k TEXT, n INTEGER, v, PRIMARY KEY(k, n)) WITHOUT ROWID`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(q, err)
		}
	}
	roots := map[string]uint32{}
	rows, err := db.Query(`SELECT name, rootpage FROM sqlite_schema WHERE rootpage > 0`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var name string
		var root uint32
		if err := rows.Scan(&name, &root); err != nil {
			t.Fatal(err)
		}
		roots[name] = root
	}
	return path, roots
}

func open(t *testing.T, path string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	return db
}

// makeRows makes n rows; every 97th has a c too long for its page, and
// every 89th an a too long for an index cell.
func makeRows(n, pageSize int) []row {
	rs := make([]row, n)
	for i := range rs {
		r := row{id: int64(i)*3 + 1, a: fmt.Sprintf("k%05d", (i*7919)%1000), b: int64(i % 5)}
		switch i % 6 {
		case 0:
			r.c = int64(i) * int64(i) * 1000003
		case 1:
			r.c = float64(i) / 7
		case 2:
			r.c = strings.Repeat("é", i%40)
		case 3:
			r.c = []byte{byte(i), 0, byte(i >> 8)}
		case 4:
			r.c = nil
		case 5:
			r.c = -int64(i)
		}
		if i%97 == 5 {
			r.c = strings.Repeat(fmt.Sprint(i), 3*pageSize/len(fmt.Sprint(i)))
		}
		if i%89 == 3 {
			r.a += strings.Repeat("x", pageSize/2+i%200)
		}
		rs[i] = r
	}
	return rs
}

// openTable opens the file at path and starts the tree of table t.
func openTable(t *testing.T, path string, roots map[string]uint32) (*btree.File, *btree.Tree) {
	t.Helper()
	x, err := btree.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	table, err := x.Table(roots["t"])
	if err != nil {
		t.Fatal(err)
	}
	return x, table
}

func appendValue(rec *btree.Record, v any) {
	switch v := v.(type) {
	case nil:
		rec.Null()
	case int64:
		rec.Int(v)
	case float64:
		rec.Float(v)
	case string:
		rec.Text(v)
	case []byte:
		rec.Blob(v)
	default:
		panic(fmt.Sprintf("%T", v))
	}
}

// writeTrees writes rs into t and t_ab, and w's rows (k, n, v).
func writeTrees(t *testing.T, path string, roots map[string]uint32, rs []row) {
	t.Helper()
	x, table := openTable(t, path, roots)
	var rec btree.Record
	for _, r := range rs {
		rec.Reset()
		rec.Null() // the rowid's column
		rec.Text(r.a)
		rec.Int(r.b)
		appendValue(&rec, r.c)
		if err := table.AddRow(r.id, &rec); err != nil {
			t.Fatal(err)
		}
	}
	if err := table.Finish(); err != nil {
		t.Fatal(err)
	}
	keys := slices.Clone(rs)
	slices.SortFunc(keys, func(p, q row) int {
		return cmp.Or(strings.Compare(p.a, q.a), cmp.Compare(p.b, q.b), cmp.Compare(p.id, q.id))
	})
	index, err := x.Index(roots["t_ab"])
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range keys {
		rec.Reset()
		rec.Text(r.a)
		rec.Int(r.b)
		rec.Int(r.id)
		if err := index.AddKey(&rec); err != nil {
			t.Fatal(err)
		}
	}
	if err := index.Finish(); err != nil {
		t.Fatal(err)
	}
	// w's rows are its keys: k and n, then v.
	slices.SortFunc(keys, func(p, q row) int { return cmp.Or(strings.Compare(p.a, q.a), cmp.Compare(p.id, q.id)) })
	w, err := x.Index(roots["w"])
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range keys {
		rec.Reset()
		rec.Text(r.a)
		rec.Int(r.id)
		appendValue(&rec, r.c)
		if err := w.AddKey(&rec); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Finish(); err != nil {
		t.Fatal(err)
	}
	if err := x.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestTreesReadBack writes the trees of a table, an index and a WITHOUT
// ROWID table at several page sizes, from empty to four levels high, and
// holds them to SQLite's integrity check and to the rows it reads back;
// then SQLite updates them.
func TestTreesReadBack(t *testing.T) {
	for _, tc := range []struct {
		pageSize, rows int
		depths         [3]int // of t, t_ab and w
	}{
		{512, 0, [3]int{1, 1, 1}},
		{512, 1, [3]int{1, 1, 1}},
		{512, 600, [3]int{2, 2, 3}},
		{512, 30000, [3]int{3, 4, 4}},
		{1024, 5000, [3]int{3, 3, 3}},
		{4096, 8000, [3]int{2, 2, 2}},
		{65536, 3000, [3]int{2, 2, 2}},
		{65536, 50, [3]int{1, 1, 1}},
	} {
		t.Run(fmt.Sprintf("%d/%d", tc.pageSize, tc.rows), func(t *testing.T) {
			path, roots := newDB(t, tc.pageSize)
			rs := makeRows(tc.rows, tc.pageSize)
			writeTrees(t, path, roots, rs)
			// The cases are to cover one to four levels.
			if d := [3]int{depth(t, path, tc.pageSize, roots["t"]), depth(t, path, tc.pageSize, roots["t_ab"]), depth(t, path, tc.pageSize, roots["w"])}; d != tc.depths {
				t.Errorf("the trees are %v levels high, want %v", d, tc.depths)
			}
			db := open(t, path)
			defer db.Close()
			integrityCheck(t, db)
			if got, want := dump(t, db, `SELECT id, a, b, c FROM t ORDER BY id`), dumpRows(rs); got != want {
				t.Fatalf("t holds\n%.1500s\nwant\n%.1500s", got, want)
			}
			byIndex := slices.Clone(rs)
			slices.SortFunc(byIndex, func(p, q row) int {
				return cmp.Or(strings.Compare(p.a, q.a), cmp.Compare(p.b, q.b), cmp.Compare(p.id, q.id))
			})
			if got, want := dump(t, db, `SELECT id, a, b, c FROM t INDEXED BY t_ab WHERE a > '' ORDER BY a, b, id`), dumpRows(byIndex); got != want {
				t.Fatalf("t by t_ab holds\n%.1500s\nwant\n%.1500s", got, want)
			}
			inW := slices.Clone(rs)
			for i := range inW {
				inW[i].b = 0
			}
			if got, want := dump(t, db, `SELECT n, k, 0, v FROM w ORDER BY n`), dumpRows(inW); got != want {
				t.Fatalf("w holds\n%.1500s\nwant\n%.1500s", got, want)
			}
			if len(rs) > 0 {
				var n int
				if err := db.QueryRow(`SELECT count(*) FROM t WHERE a = ?`, rs[len(rs)/2].a).Scan(&n); err != nil || n == 0 {
					t.Fatalf("lookup by t_ab: %d rows, %v", n, err)
				}
			}
			// SQLite takes the trees on: inserts among full pages, deletes.
			for _, q := range []string{
				`INSERT INTO t(id, a, b, c) SELECT id + 1, a || 'y', b, c FROM t WHERE id % 5 = 1`,
				`DELETE FROM t WHERE id % 4 = 0`,
				`INSERT INTO w(k, n, v) SELECT k || 'y', n + 1, v FROM w WHERE n % 5 = 1`,
				`DELETE FROM w WHERE n % 4 = 0`,
			} {
				if _, err := db.Exec(q); err != nil {
					t.Fatal(q, err)
				}
			}
			integrityCheck(t, db)
		})
	}
}

// TestRecordValues holds the record encoding to the values SQLite reads
// from it, at the edges of every integer size.
func TestRecordValues(t *testing.T) {
	vals := []any{nil, int64(0), int64(1), int64(-1), int64(2), []byte{}, "", "é€𝄞", []byte{0, 1, 255}, 0.5, -1e300, 1.0, math.Inf(1),
		strings.Repeat("a", 57), strings.Repeat("b", 58), strings.Repeat("c", 9000)}
	for _, edge := range []int64{1 << 7, 1 << 15, 1 << 23, 1 << 31, 1 << 47, 1 << 62} {
		vals = append(vals, edge-1, edge, -edge, -edge-1)
	}
	vals = append(vals, int64(math.MaxInt64), int64(math.MinInt64))
	path, roots := newDB(t, 4096)
	x, table := openTable(t, path, roots)
	var rec btree.Record
	for i, v := range vals {
		rec.Reset()
		rec.Null()
		rec.Text("a")
		rec.Int(int64(i))
		appendValue(&rec, v)
		if err := table.AddRow(int64(i)+1, &rec); err != nil {
			t.Fatal(err)
		}
	}
	// Many columns: a header longer than 127 bytes.
	rec.Reset()
	rec.Null()
	rec.Text("a")
	rec.Int(int64(len(vals)))
	for range 200 {
		rec.Text("z")
	}
	if err := table.AddRow(int64(len(vals))+1, &rec); err != nil {
		t.Fatal(err)
	}
	if err := table.AddRow(1, &btree.Record{}); err == nil {
		t.Error("a rowid out of order was taken")
	}
	if err := table.Finish(); err != nil {
		t.Fatal(err)
	}
	// t_ab's keys: ('a', i, rowid), in order as they come.
	index, err := x.Index(roots["t_ab"])
	if err != nil {
		t.Fatal(err)
	}
	for i := range len(vals) + 1 {
		rec.Reset()
		rec.Text("a")
		rec.Int(int64(i))
		rec.Int(int64(i) + 1)
		if err := index.AddKey(&rec); err != nil {
			t.Fatal(err)
		}
	}
	if err := index.Finish(); err != nil {
		t.Fatal(err)
	}
	if err := x.Close(); err != nil {
		t.Fatal(err)
	}
	db := open(t, path)
	defer db.Close()
	integrityCheck(t, db)
	rows, err := db.Query(`SELECT c, typeof(c) FROM t ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for i := 0; rows.Next(); i++ {
		var got any
		var typ string
		if err := rows.Scan(&got, &typ); err != nil {
			t.Fatal(err)
		}
		if i == len(vals) {
			if got != "z" {
				t.Errorf("the wide record's third column: %#v", got)
			}
			continue
		}
		want := vals[i]
		wantType := map[string]string{"<nil>": "null", "int64": "integer", "float64": "real", "string": "text", "[]uint8": "blob"}[fmt.Sprintf("%T", want)]
		if b, ok := got.([]byte); ok && typ == "text" {
			got = string(b)
		}
		if typ != wantType || fmt.Sprintf("%#v", got) != fmt.Sprintf("%#v", want) && !(typ == "blob" && len(got.([]byte)) == 0 && len(want.([]byte)) == 0) {
			t.Errorf("value %d: read %#v (%s), wrote %#v (%s)", i, got, typ, want, wantType)
		}
	}
}

func TestOpenRefuses(t *testing.T) {
	path, roots := newDB(t, 4096)
	db := open(t, path)
	if _, err := db.Exec(`INSERT INTO t(a, b) VALUES('x', 1)`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	x, err := btree.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := x.Index(roots["t"]); err == nil || !strings.Contains(err.Error(), "not an empty tree") {
		t.Errorf("a table's root taken for an index's: %v", err)
	}
	if _, err := x.Table(1); err == nil {
		t.Error("page 1 taken as a root")
	}
	x.Close()

	wal := open(t, path)
	if _, err := wal.Exec(`PRAGMA journal_mode=WAL`); err != nil {
		t.Fatal(err)
	}
	wal.Close()
	if _, err := btree.Open(path); err == nil || !strings.Contains(err.Error(), "WAL") {
		t.Errorf("a WAL database opened: %v", err)
	}
	other := filepath.Join(t.TempDir(), "x")
	if err := os.WriteFile(other, []byte(strings.Repeat("not sqlite", 20)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := btree.Open(other); err == nil || !strings.Contains(err.Error(), "not a SQLite database") {
		t.Errorf("a text file opened: %v", err)
	}
}

func integrityCheck(t *testing.T, db *sql.DB) {
	t.Helper()
	var res string
	if err := db.QueryRow(`PRAGMA integrity_check`).Scan(&res); err != nil || res != "ok" {
		t.Fatalf("integrity check: %s %v", res, err)
	}
}

func dump(t *testing.T, db *sql.DB, q string) string {
	t.Helper()
	rows, err := db.Query(q)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var b strings.Builder
	for rows.Next() {
		var r row
		if err := rows.Scan(&r.id, &r.a, &r.b, &r.c); err != nil {
			t.Fatal(err)
		}
		writeRow(&b, r)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func dumpRows(rs []row) string {
	var b strings.Builder
	for _, r := range rs {
		writeRow(&b, r)
	}
	return b.String()
}

// writeRow writes r as it is scanned back: text comes as a string, a blob
// as bytes.
func writeRow(b *strings.Builder, r row) {
	c := r.c
	if s, ok := c.([]byte); ok {
		c = fmt.Sprintf("blob %x", s)
	}
	fmt.Fprintf(b, "%d %q %d %#v\n", r.id, r.a, r.b, c)
}

// depth follows the left-most children from the root page to a leaf.
func depth(t *testing.T, path string, pageSize int, root uint32) int {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	d := 1
	for page := root; ; d++ {
		p := data[int(page-1)*pageSize:]
		if p[0] == 0x0d || p[0] == 0x0a {
			return d
		}
		first := binary.BigEndian.Uint16(p[12:])
		page = binary.BigEndian.Uint32(p[first:])
	}
}

// TestNoEmptyPages writes tables of one row a leaf, in the numbers that
// leave a single child for the last page of the level above, and holds
// every page but an empty root to at least one cell.
func TestNoEmptyPages(t *testing.T) {
	// At 512 bytes a page, a 300-byte row fills a leaf, and an interior
	// page holds 71 cells of 1-byte rowids: 72 children.
	for _, n := range []int{71, 72, 73, 74, 145} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			path, roots := newDB(t, 512)
			rs := make([]row, n)
			for i := range rs {
				rs[i] = row{id: int64(i) + 1, a: "a", c: strings.Repeat("c", 300)}
			}
			writeTrees(t, path, roots, rs)
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			for _, name := range []string{"t", "t_ab", "w"} {
				if empty := emptyPages(data, 512, roots[name]); len(empty) > 0 {
					t.Errorf("%s: pages with no cell: %v", name, empty)
				}
			}
			db := open(t, path)
			defer db.Close()
			integrityCheck(t, db)
		})
	}
}

// emptyPages lists the pages of the tree at root that hold no cell.
func emptyPages(data []byte, pageSize int, root uint32) []uint32 {
	var empty []uint32
	var walk func(page uint32)
	walk = func(page uint32) {
		p := data[int(page-1)*pageSize:][:pageSize]
		n := int(binary.BigEndian.Uint16(p[3:]))
		if n == 0 && page != root {
			empty = append(empty, page)
		}
		if p[0] == 0x0d || p[0] == 0x0a {
			return
		}
		for i := range n {
			walk(binary.BigEndian.Uint32(p[binary.BigEndian.Uint16(p[12+2*i:]):]))
		}
		walk(binary.BigEndian.Uint32(p[8:]))
	}
	walk(root)
	return empty
}

// FuzzTrees writes a table and an index of rows whose sizes and keys the
// input decides, at a page size it picks, and holds the file to SQLite's
// integrity check and the table to the rows written. The seeds run with
// go test; go test -fuzz FuzzTrees explores further.
func FuzzTrees(f *testing.F) {
	f.Add(uint8(0), []byte{1, 2, 3})
	f.Add(uint8(1), bytes.Repeat([]byte{200, 7, 0, 255}, 64))
	f.Add(uint8(2), bytes.Repeat([]byte{9}, 300))
	f.Add(uint8(3), []byte{})
	f.Fuzz(func(t *testing.T, size uint8, spec []byte) {
		pageSize := 512 << (size % 4) // 512 to 4096: deep trees from few rows
		if len(spec) > 2000 {
			spec = spec[:2000]
		}
		// Each byte is a row: its value sets the length of the row's text
		// (up to three pages, for overflow) and of its key's.
		rs := make([]row, len(spec))
		id := int64(0)
		for i, b := range spec {
			n := int(b) * pageSize * 3 / 255
			id += 1 + int64(b%5) // ascending, with gaps
			rs[i] = row{
				id: id,
				a:  strings.Repeat(string(rune('a'+b%26)), int(b)%(pageSize/2)+1) + fmt.Sprint(i),
				b:  int64(b) - 128,
				c:  strings.Repeat("x", n),
			}
		}
		path, roots := newDB(t, pageSize)
		writeTrees(t, path, roots, rs)
		db := open(t, path)
		defer db.Close()
		integrityCheck(t, db)
		if got, want := dump(t, db, `SELECT id, a, b, c FROM t ORDER BY id`), dumpRows(rs); got != want {
			t.Fatalf("t differs from the rows written (%d rows, page %d)", len(rs), pageSize)
		}
	})
}
