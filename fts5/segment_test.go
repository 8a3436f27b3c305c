package fts5

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	_ "modernc.org/sqlite"
)

// doc is a test document: rowid and one text per column, words of
// lowercase letters separated by spaces, so unicode61's tokens are the
// words themselves.
type doc struct {
	rowid int64
	cols  [4]string
}

// corpus makes n documents with Zipf-distributed words: a few words are
// in nearly every document (long doclists over many pages, with doclist
// indexes), most are rare. Rowids start at first and grow by random gaps.
func corpus(seed uint64, n int, first int64, maxWords int) []doc {
	r := rand.New(rand.NewPCG(seed, 1))
	z := rand.NewZipf(r, 1.1, 2, 5000)
	word := func() string {
		k := z.Uint64()
		var b strings.Builder
		for {
			b.WriteByte(byte('a' + k%26))
			k /= 26
			if k == 0 {
				break
			}
		}
		if k := r.IntN(50); k == 0 {
			// now and then a long word, over several varints of a page
			b.WriteString(strings.Repeat("x", 60+r.IntN(200)))
		}
		return b.String()
	}
	docs := make([]doc, n)
	id := first
	for i := range docs {
		id += 1 + r.Int64N(3)
		if r.IntN(20) == 0 {
			id += r.Int64N(1 << 20)
		}
		docs[i].rowid = id
		for c := range docs[i].cols {
			if r.IntN(4) == 0 {
				continue // an empty column
			}
			words := make([]string, r.IntN(maxWords+1))
			for w := range words {
				words[w] = word()
			}
			docs[i].cols[c] = strings.Join(words, " ")
		}
	}
	return docs
}

// sink collects a segment's rows.
type sink struct {
	data []row
	idx  []row
}

type row struct {
	id    int64
	block []byte
}

func (s *sink) Data(rowid int64, block []byte) { s.data = append(s.data, row{rowid, block}) }
func (s *sink) Idx(term []byte, pgno int64)    { s.idx = append(s.idx, row{pgno, term}) }

// write writes docs into the empty table name as this package makes the
// rows, through plain SQL on its shadow tables.
func write(t *testing.T, db *sql.DB, name string, v2 bool, pgsz, level int, docs []doc) {
	t.Helper()
	// Postings: term → its documents' occurrences.
	type posting struct {
		rowid int64
		occ   []uint64
	}
	postings := map[string][]posting{}
	var totals [4]int64
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	docsize := "INSERT INTO " + name + "_docsize VALUES(?, ?)"
	if v2 {
		docsize = "INSERT INTO " + name + "_docsize VALUES(?, ?, 1)"
	}
	for _, d := range docs {
		var lens []int32
		seen := map[string]int{}
		for c, text := range d.cols {
			words := strings.Fields(text)
			lens = append(lens, int32(len(words)))
			totals[c] += int64(len(words))
			for p, w := range words {
				key := string(MainPrefix) + w
				i, ok := seen[key]
				if !ok {
					i = len(postings[key])
					seen[key] = i
					postings[key] = append(postings[key], posting{rowid: d.rowid})
				}
				postings[key][i].occ = append(postings[key][i].occ, uint64(c)<<32|uint64(p))
			}
		}
		if _, err := tx.Exec(docsize, d.rowid, Docsize(nil, lens)); err != nil {
			t.Fatal(err)
		}
	}
	var terms []string
	for k := range postings {
		terms = append(terms, k)
	}
	slices.Sort(terms) // byte order, as FTS5 sorts its hash
	var s sink
	w := NewSegmentWriter(1, pgsz, &s)
	var dl DoclistBuilder
	for _, term := range terms {
		for _, p := range postings[term] {
			dl.AddDocument(p.rowid, p.occ)
		}
		w.Add([]byte(term), dl.Take())
	}
	leaves := w.Finish()
	heights := map[int64]int{}
	for _, r := range s.data {
		if r.id>>36&1 == 1 {
			heights[r.id>>31&31]++
		}
	}
	t.Logf("%d leaves, dlidx pages by height %v", leaves, heights)
	var rec []byte
	if err := tx.QueryRow("SELECT block FROM " + name + "_data WHERE id = 10").Scan(&rec); err != nil {
		t.Fatal(err)
	}
	cookie, isV2, err := EmptyStructure(rec)
	if err != nil || isV2 != v2 {
		t.Fatalf("structure %x: v2 %v, %v", rec, isV2, err)
	}
	if len(docs) > 0 {
		s.data = append(s.data, row{AveragesRowid, Averages(int64(len(docs)), totals[:])})
	}
	if leaves > 0 {
		s.data = append(s.data, row{StructureRowid, Structure(cookie, v2, level, Segment{ID: 1, FirstPage: 1, LastPage: leaves, Rows: int64(len(docs))})})
	}
	for _, r := range s.data {
		if _, err := tx.Exec("INSERT OR REPLACE INTO "+name+"_data(id, block) VALUES(?, ?)", r.id, r.block); err != nil {
			t.Fatal(err)
		}
	}
	for _, r := range s.idx {
		if _, err := tx.Exec("INSERT INTO "+name+"_idx(segid, term, pgno) VALUES(1, CAST(? AS BLOB), ?)", r.block, r.id); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
}

// TestSegmentMatchesFTS5 fills one table through FTS5 and another, set up
// the same way, with this package's rows, and compares the shadow tables
// byte for byte; the written table must also pass FTS5's integrity check
// and answer queries as the other does.
func TestSegmentMatchesFTS5(t *testing.T) {
	ctx := context.Background()
	corpora := map[string][]doc{
		"empty":     nil,
		"one":       {{rowid: 7, cols: [4]string{"hello world", "", "hello", ""}}},
		"no-terms":  {{rowid: 1}, {rowid: 2}},
		"small":     corpus(1, 40, 0, 12),
		"large":     corpus(2, 3000, 0, 40),
		"big-rowid": corpus(3, 500, 1<<40, 20),
	}
	for name, docs := range corpora {
		for _, v2 := range []bool{true, false} {
			for _, pgsz := range []int{DefaultPageSize, 1000, 64, 32} {
				if len(docs) < 100 && pgsz != DefaultPageSize && pgsz != 32 {
					continue
				}
				t.Run(fmt.Sprintf("%s/v2=%v/pgsz=%d", name, v2, pgsz), func(t *testing.T) {
					path := filepath.Join(t.TempDir(), "t.db")
					db, err := sql.Open("sqlite", path)
					if err != nil {
						t.Fatal(err)
					}
					defer db.Close()
					db.SetMaxOpenConns(1)
					opts := "content=''"
					if v2 {
						opts += ", contentless_delete=1"
					}
					for _, tab := range []string{"ref", "got"} {
						setup := fmt.Sprintf(`CREATE VIRTUAL TABLE %[1]s USING fts5(a, b, c, d, %[2]s, tokenize='unicode61');
INSERT INTO %[1]s(%[1]s, rank) VALUES('pgsz', %[3]d);
INSERT INTO %[1]s(%[1]s, rank) VALUES('automerge', 0);
INSERT INTO %[1]s(%[1]s, rank) VALUES('hashsize', 268435456);`, tab, opts, pgsz)
						if _, err := db.ExecContext(ctx, setup); err != nil {
							t.Fatal(err)
						}
					}
					fill(t, db, "ref", docs)
					write(t, db, "got", v2, pgsz, 0, docs)
					// A connection of its own: FTS5 caches a table's structure
					// record per connection and would not see the one written.
					db.Close()
					db, err = sql.Open("sqlite", path)
					if err != nil {
						t.Fatal(err)
					}
					defer db.Close()
					for _, shadow := range []string{"_data", "_idx", "_docsize"} {
						q := "SELECT * FROM %s" + shadow
						if shadow == "_idx" {
							q = "SELECT segid, typeof(term), quote(term), pgno FROM %s" + shadow
						}
						want, got := dump(t, db, fmt.Sprintf(q, "ref")), dump(t, db, fmt.Sprintf(q, "got"))
						if got != want {
							t.Fatalf("%s differs:\n%s", shadow, firstDiff(got, want))
						}
					}
					if _, err := db.Exec(`INSERT INTO got(got) VALUES('integrity-check')`); err != nil {
						t.Fatalf("integrity-check: %v", err)
					}
					if len(docs) > 0 {
						for _, w := range strings.Fields(docs[len(docs)/2].cols[0] + " a b zz") {
							q := `SELECT rowid, bm25(%s) FROM %[1]s WHERE %[1]s MATCH '"' || ? || '"' ORDER BY rank, rowid`
							if a, b := dump(t, db, fmt.Sprintf(q, "ref"), w), dump(t, db, fmt.Sprintf(q, "got"), w); a != b {
								t.Fatalf("query %q differs:\n%s", w, firstDiff(b, a))
							}
						}
					}
					if v2 && len(docs) > 1 {
						// A later delete finds the rows' origin and tombstones them.
						for _, tab := range []string{"ref", "got"} {
							if _, err := db.Exec(`DELETE FROM `+tab+` WHERE rowid = ?`, docs[0].rowid); err != nil {
								t.Fatal(err)
							}
						}
						if a, b := dump(t, db, "SELECT * FROM ref_data"), dump(t, db, "SELECT * FROM got_data"); a != b {
							t.Fatalf("after a delete, _data differs:\n%s", firstDiff(b, a))
						}
					}
				})
			}
		}
	}
}

// fill inserts docs into the table tab through FTS5, in one transaction.
func fill(t *testing.T, db *sql.DB, tab string, docs []doc) {
	t.Helper()
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	for _, d := range docs {
		if _, err := tx.Exec(`INSERT INTO `+tab+`(rowid, a, b, c, d) VALUES(?, ?, ?, ?, ?)`, d.rowid, d.cols[0], d.cols[1], d.cols[2], d.cols[3]); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
}

func dump(t *testing.T, db *sql.DB, q string, args ...any) string {
	t.Helper()
	rows, err := db.Query(q, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var b strings.Builder
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		for _, v := range vals {
			fmt.Fprintf(&b, "%T:%x|", v, fmt.Sprint(v))
		}
		b.WriteByte('\n')
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func firstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := range max(len(g), len(w)) {
		var a, b string
		if i < len(g) {
			a = g[i]
		}
		if i < len(w) {
			b = w[i]
		}
		if a != b {
			return fmt.Sprintf("line %d of %d/%d:\n got  %.300s\n want %.300s", i, len(g), len(w), a, b)
		}
	}
	return "(same)"
}

// TestSegmentOnHigherLevel writes the segment on level 4 (a build does,
// so that the small segments of later updates merge among themselves
// instead of rewriting it): FTS5 takes it, and after many single-row
// inserts and deletes, with automerge merging them, the table answers as
// one filled by FTS5 and passes the integrity check.
func TestSegmentOnHigherLevel(t *testing.T) {
	docs := corpus(4, 600, 0, 20)
	more := corpus(5, 120, docs[len(docs)-1].rowid, 20)
	path := filepath.Join(t.TempDir(), "t.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	for _, tab := range []string{"ref", "got"} {
		if _, err := db.Exec(fmt.Sprintf(`CREATE VIRTUAL TABLE %[1]s USING fts5(a, b, c, d, content='', contentless_delete=1, tokenize='unicode61');
INSERT INTO %[1]s(%[1]s, rank) VALUES('pgsz', 64);
INSERT INTO %[1]s(%[1]s, rank) VALUES('automerge', 2);`, tab)); err != nil {
			t.Fatal(err)
		}
	}
	fill(t, db, "ref", docs)
	write(t, db, "got", true, 64, 4, docs)
	db.Close() // a new connection: FTS5 caches the structure record per connection
	if db, err = sql.Open("sqlite", path); err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	// Each statement its own transaction: one small segment each.
	for i, d := range more {
		for _, tab := range []string{"ref", "got"} {
			if _, err := db.Exec(`INSERT INTO `+tab+`(rowid, a, b, c, d) VALUES(?, ?, ?, ?, ?)`, d.rowid, d.cols[0], d.cols[1], d.cols[2], d.cols[3]); err != nil {
				t.Fatal(err)
			}
			if _, err := db.Exec(`DELETE FROM `+tab+` WHERE rowid = ?`, docs[3*i].rowid); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, tab := range []string{"ref", "got"} {
		if _, err := db.Exec(`INSERT INTO ` + tab + `(` + tab + `) VALUES('integrity-check')`); err != nil {
			t.Fatalf("%s: integrity-check: %v", tab, err)
		}
	}
	for _, w := range strings.Fields(docs[1].cols[0] + " " + more[5].cols[1] + " a b zz") {
		q := `SELECT rowid, bm25(%s) FROM %[1]s WHERE %[1]s MATCH '"' || ? || '"' ORDER BY rank, rowid`
		if a, b := dump(t, db, fmt.Sprintf(q, "ref"), w), dump(t, db, fmt.Sprintf(q, "got"), w); a != b {
			t.Fatalf("query %q differs:\n%s", w, firstDiff(b, a))
		}
	}
	// The written segment is still there, on its level, or merged into a
	// higher one; the small segments merged among themselves meanwhile.
	var rec []byte
	if err := db.QueryRow(`SELECT block FROM got_data WHERE id = 10`).Scan(&rec); err != nil {
		t.Fatal(err)
	}
	if got, _ := getVarint(rec[8:]); got < 5 {
		t.Errorf("the structure has %d levels, want the written one's 5 at least", got)
	}
}
