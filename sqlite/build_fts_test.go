package sqlite

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/binary"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"memoria/bench/synth"
	"memoria/fts5"
)

// edgeWorkspace writes a workspace with what the full-text rows are
// sensitive to: facts and passages sharing the section-less partition,
// repeated section names, neighbours longer than 200 characters with
// multi-byte characters at the cut, text that makes alt tokens, entities
// with '-' and '_', a NUL byte past the binary sniff, invalid UTF-8, and a
// few hundred lines of random mixed text.
func edgeWorkspace(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	long := strings.Repeat("é北", 90) + " " + strings.Repeat("x", 150) + "ё😀 end"
	writeFile(t, dir, "memory.md", "Intro before any heading, with ünïcödé and 北京天气.\n\n- W @dash-name: a fact before any heading.\n\nBetween the facts.\n\n- O(c=0.8) @under_score: another fact.\n\n"+long+"\n\n# Core\n\n## Prefs\n\n- Peter likes espresso.\n- "+long+"\n\n## Prefs\n\nSame section name again.\n")
	writeFile(t, dir, "memory/2025-01-02.md", "# 2025-01-02\n\nFirst line of the day.\n"+long+"\nЁлки и ёжики в лесу.\n\n## Notes\n\nA note.\n"+long+"\n\n## Retain\n- W @Peter: in Paris @some_thing.\n- B @dash-name: wrote the 北京 report.\n- S short.\n- W @Peter: in Rome from Nov 27–Dec 1, 2025.\n- W @Peter: told @peter-b and @PETER twice.\n- O(c=1.0) @Peter: sure of it, on 2025-11-03.\n- W a fact "+strings.Repeat("longer than a page ", 1200)+"\n\n## Notes\n\nNotes after Retain.\n")
	writeFile(t, dir, "memory/2025-01-03.md", "# 2025-01-03\n\n"+strings.Repeat("padding line of text\n", 450)+"a line with a NUL \x00 byte inside and ß\n"+long+"\n\x00\n")
	writeFile(t, dir, "memory/2025-01-04.md", "# 2025-01-04\n\nbad \xff\xfe bytes \xc3 here\n\nnext ok line\n")
	writeFile(t, dir, "bank/world.md", "Preamble paragraph.\n\n- The sky is blue.\n- Tokyo 東京 is large.\n\n## Places\n\n- Ωμέγα and σοφός.\n")
	writeFile(t, dir, "bank/entities/some_thing.md", "---\naliases: [Thing-One, thing_two]\n---\n# Some Thing\n\nA page about @some_thing and @dash-name.\n")
	r := rand.New(rand.NewPCG(1, 2))
	words := []string{"alpha", "beta", "gamma", "ünï", "北京", "天气", "ёж", "σοφός", "x-y", "a_b", "@Peter", "@dash-name", "😀", "ß", "Ørsted", "naïve", "日本語", "한국어", "—", "`code`"}
	for f := 0; f < 6; f++ {
		var b strings.Builder
		fmt.Fprintf(&b, "# 2025-02-%02d\n\n", f+1)
		for l := 0; l < 120; l++ {
			switch r.IntN(12) {
			case 0:
				fmt.Fprintf(&b, "\n## Section %d\n\n", r.IntN(3))
			case 1:
				b.WriteString("\n")
			case 2:
				b.WriteString("- W @Peter: ")
			case 3:
				b.WriteString("- ")
			}
			for w := r.IntN(80); w >= 0; w-- {
				b.WriteString(words[r.IntN(len(words))])
				b.WriteByte(' ')
			}
			b.WriteString("\n")
		}
		writeFile(t, dir, fmt.Sprintf("memory/2025-02-%02d.md", f+1), b.String())
	}
	return dir
}

// buildWorkspaces are the workspaces the build tests index (outside the
// workspace: examples/ is part of the repository).
func buildWorkspaces(t *testing.T) map[string]string {
	t.Helper()
	ex, err := filepath.Abs("../examples/workspace")
	if err != nil {
		t.Fatal(err)
	}
	return map[string]string{"examples": ex, "edge": edgeWorkspace(t)}
}

func buildTest(t *testing.T, ws string, o Options) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "index.sqlite")
	if _, _, err := build(context.Background(), path, ws, o); err != nil {
		t.Fatal(err)
	}
	return path
}

func openRaw(t *testing.T, path string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	t.Cleanup(func() { db.Close() })
	return db
}

// TestFTSRowsMatchSQL holds the rows a build computes in Go equal to
// those ftsInsert and ftsWindow compute from the items (the in-memory
// ranking and the incremental sync use the SQL).
func TestFTSRowsMatchSQL(t *testing.T) {
	ctx := context.Background()
	for name, ws := range buildWorkspaces(t) {
		for _, lines := range []int{1, 4} {
			t.Run(fmt.Sprintf("%s/lines=%d", name, lines), func(t *testing.T) {
				db := openRaw(t, buildTest(t, ws, Options{PassageLines: lines}))
				want := sqlFTSRows(t, db)
				rows, err := db.QueryContext(ctx, `SELECT id, file_id, kind, start_line, section, entities, content, alt FROM items ORDER BY id`)
				if err != nil {
					t.Fatal(err)
				}
				var got []ftsRow
				var file []ftsItem
				lastFile := int64(-1)
				// The build's tokenizer must index what the rows' text holds.
				tokenized, fromRows := newLexicalBuilder(), newLexicalBuilder()
				tp, rp := tokenized.Part(), fromRows.Part()
				var z ftsTokenizer
				cut := 0
				group := func(items []ftsItem) {
					z.add(tp, items)
					for _, r := range ftsRows(items, nil) {
						rp.Add(r.id, r.content, r.section, r.entities, r.context)
					}
					for _, it := range items {
						if sqlHead(it.content, ftsContext) != it.content {
							cut++
						}
					}
				}
				for rows.Next() {
					var it ftsItem
					var fileID int64
					var kind string
					if err := rows.Scan(&it.id, &fileID, &kind, &it.startLine, &it.section, &it.entities, &it.content, &it.alt); err != nil {
						t.Fatal(err)
					}
					it.passage = kind == "passage"
					if fileID != lastFile {
						got = ftsRows(file, got)
						group(file)
						file, lastFile = file[:0], fileID
					}
					file = append(file, it)
				}
				got = ftsRows(file, got)
				group(file)
				var a, b bytes.Buffer
				if err := tokenized.Segment(&a); err != nil {
					t.Fatal(err)
				}
				if err := fromRows.Segment(&b); err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(a.Bytes(), b.Bytes()) {
					t.Error("the build's tokenizer indexes other terms than the rows' text holds")
				}
				if cut == 0 {
					t.Error("no line is cut short in a context column: the tokenizer's other path is untested")
				}
				if err := rows.Close(); err != nil {
					t.Fatal(err)
				}
				if len(got) != len(want) || len(want) == 0 {
					t.Fatalf("%d rows computed in Go, %d by SQL", len(got), len(want))
				}
				withContext := 0
				for i := range want {
					if got[i] != want[i] {
						t.Fatalf("row %d differs:\n Go:  %+v\n SQL: %+v", want[i].id, got[i], want[i])
					}
					if len(want[i].context) > 1 {
						withContext++
					}
				}
				if withContext == 0 {
					t.Error("no row has context: the test checks nothing")
				}
			})
		}
	}
}

func sqlFTSRows(t *testing.T, db *sql.DB) []ftsRow {
	t.Helper()
	rows, err := db.Query(ftsInsert[strings.Index(ftsInsert, "SELECT"):] + ftsWindow)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []ftsRow
	for rows.Next() {
		var r ftsRow
		if err := rows.Scan(&r.id, &r.content, &r.section, &r.entities, &r.context); err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestBuildFTSTable checks the full-text table a build moves into the
// index: FTS5 finds it consistent, and it is the very table the SQL fill
// (ftsInsert, then 'optimize') makes from the same items, down to the
// bytes of its shadow tables. An incremental sync then works on it.
func TestBuildFTSTable(t *testing.T) {
	ctx := context.Background()
	for name, ws := range buildWorkspaces(t) {
		t.Run(name, func(t *testing.T) {
			path := buildTest(t, ws, Options{})
			db := openRaw(t, path)
			integrityCheck(t, db)
			ref := strings.Replace(ftsTable, "items_fts", "items_ref", 1) + `;
INSERT INTO items_ref(items_ref, rank) VALUES('automerge', 0);
INSERT INTO items_ref(items_ref, rank) VALUES('hashsize', 268435456);
` + strings.Replace(ftsInsert, "items_fts", "items_ref", 1) + ftsWindow + `;
INSERT INTO items_ref(items_ref) VALUES('optimize');
INSERT INTO items_ref(items_ref, rank) VALUES('automerge', 4);`
			if _, err := db.ExecContext(ctx, ref); err != nil {
				t.Fatal(err)
			}
			for _, tab := range ftsShadow {
				q := `SELECT * FROM ` + tab
				if tab == "items_fts_data" {
					q += ` WHERE id != 10` // the structure record: below
				}
				got, want := queryDump(t, db, q), queryDump(t, db, strings.Replace(q, "items_fts", "items_ref", 1))
				if got != want {
					t.Errorf("%s differs from the SQL fill's (%d and %d bytes dumped)", tab, len(got), len(want))
				}
			}
			// The structure records differ only in the level of the segment.
			var got, want []byte
			var leaves, rows int
			err := db.QueryRow(`SELECT (SELECT block FROM items_fts_data WHERE id = 10), (SELECT block FROM items_ref_data WHERE id = 10),
				(SELECT count(*) FROM items_fts_data WHERE id > 10 AND (id >> 36) & 1 = 0), (SELECT count(*) FROM items_fts_docsize)`).Scan(&got, &want, &leaves, &rows)
			if err != nil {
				t.Fatal(err)
			}
			cookie := binary.BigEndian.Uint32(want)
			seg := fts5.Segment{ID: 1, FirstPage: 1, LastPage: leaves, Rows: int64(rows)}
			if !bytes.Equal(want, fts5.Structure(cookie, true, 0, seg)) || !bytes.Equal(got, fts5.Structure(cookie, true, ftsSegmentLevel, seg)) {
				t.Errorf("structure %x, want %x on level %d (the SQL fill's %x)", got, fts5.Structure(cookie, true, ftsSegmentLevel, seg), ftsSegmentLevel, want)
			}
			var n int
			if err := db.QueryRow(`SELECT count(*) FROM items_fts_data`).Scan(&n); err != nil || n < 2 {
				t.Fatalf("items_fts_data has %d rows (%v)", n, err)
			}
		})
	}
}

// ftsShadow are the shadow tables of items_fts: their rows are the table.
var ftsShadow = []string{"items_fts_data", "items_fts_idx", "items_fts_docsize", "items_fts_config"}

// integrityCheck runs SQLite's integrity check (every B-tree, every
// index entry against its row) and FTS5's.
func integrityCheck(t *testing.T, db *sql.DB) {
	t.Helper()
	var res string
	if err := db.QueryRow(`SELECT group_concat(integrity_check, '; ') FROM pragma_integrity_check`).Scan(&res); err != nil || res != "ok" {
		t.Fatalf("integrity check: %s %v", res, err)
	}
	if _, err := db.Exec(`INSERT INTO items_fts(items_fts, rank) VALUES('integrity-check', 0)`); err != nil {
		t.Fatalf("full-text integrity check: %v", err)
	}
}

// TestBuildThenSyncFTS edits a built workspace: the moved full-text table
// takes deletions and inserts and stays consistent, and finds new text.
func TestBuildThenSyncFTS(t *testing.T) {
	ctx := context.Background()
	dir := edgeWorkspace(t)
	ix := openTest(t, dir, Options{})
	writeFile(t, dir, "memory/2025-01-02.md", "# 2025-01-02\n\nRewritten: the zanzibar trip.\n")
	touch(t, dir, "memory/2025-01-02.md", 10)
	if err := os.Remove(filepath.Join(dir, "bank", "world.md")); err != nil {
		t.Fatal(err)
	}
	if _, err := ix.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	integrityCheck(t, ix.db)
	hits := search(t, ix, "zanzibar")
	if len(hits) != 1 || !strings.Contains(hits[0].Content, "zanzibar") {
		t.Fatalf("zanzibar: %+v", hits)
	}
	if hits := search(t, ix, "Tokyo"); len(hits) != 0 {
		t.Fatalf("a deleted file's text is still found: %+v", hits)
	}
}

// TestBuildFailureRemovesFiles cancels a build part-way: it fails, and
// neither the index nor the full-text build file is left behind.
func TestBuildFailureRemovesFiles(t *testing.T) {
	ws := edgeWorkspace(t)
	for i := range 40 {
		writeFile(t, ws, fmt.Sprintf("memory/2024-03-%02d.md", i%28+1), fmt.Sprintf("# day\n\nline %d of filler text\n", i))
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "index.sqlite")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, _, err := build(ctx, path, ws, Options{Progress: func(done, total int) {
		if done == 1 {
			cancel()
		}
	}})
	if err == nil {
		t.Fatal("a cancelled build succeeded")
	}
	removeDB(path) // rebuild's part: build itself leaves the index file to it
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var left []string
	for _, e := range entries {
		left = append(left, e.Name())
	}
	if len(left) != 0 {
		t.Fatalf("left behind: %v", left)
	}
}

// TestFailedBuildDiscardsSnapshot: a build that fails after it began to
// write its postings snapshot (here: cancelled as its last file is read)
// leaves neither the snapshot nor its temporary file.
func TestFailedBuildDiscardsSnapshot(t *testing.T) {
	ws := edgeWorkspace(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "index.sqlite")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, _, err := build(ctx, path, ws, Options{snapshotPath: path + ".lex", Progress: func(done, total int) {
		if done == total {
			cancel()
		}
	}})
	if err == nil {
		t.Fatal("a cancelled build succeeded")
	}
	removeDB(path)
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		t.Errorf("left behind: %s", e.Name())
	}
}

func TestSQLSubstr(t *testing.T) {
	for _, c := range []struct {
		s          string
		n          int
		head, tail string
	}{
		{"abc", 2, "ab", "bc"},
		{"abc", 5, "abc", "abc"},
		{"", 3, "", ""},
		{"é北😀x", 2, "é北", "😀x"},
		{"ab\x00cd", 5, "ab", "ab"},
		{"abcdef\x00", 3, "abc", "def"},
	} {
		if got := sqlHead(c.s, c.n); got != c.head {
			t.Errorf("sqlHead(%q, %d) = %q, want %q", c.s, c.n, got, c.head)
		}
		if got := sqlTail(c.s, c.n); got != c.tail {
			t.Errorf("sqlTail(%q, %d) = %q, want %q", c.s, c.n, got, c.tail)
		}
	}
	// The helpers agree with SQLite's substr on every prefix and suffix
	// length, including on text that is not valid UTF-8.
	db := openRaw(t, filepath.Join(t.TempDir(), "x.sqlite"))
	for _, s := range []string{"naïve 北京 ёж 😀", "a\x80b\xc3\xa9\xa9c\xf0\x9f", "x\x00yz"} {
		for n := range 12 {
			var head, tail string
			if err := db.QueryRow(`SELECT substr(CAST(? AS TEXT), 1, ?), substr(CAST(? AS TEXT), -?)`, s, n, s, n).Scan(&head, &tail); err != nil {
				t.Fatal(err)
			}
			if got := sqlHead(s, n); got != head {
				t.Errorf("sqlHead(%q, %d) = %q, SQLite says %q", s, n, got, head)
			}
			if got := sqlTail(s, n); got != tail && n > 0 {
				t.Errorf("sqlTail(%q, %d) = %q, SQLite says %q", s, n, got, tail)
			}
		}
	}
	if !slices.Equal([]string{splitAltPair("own\x01ctx")[0], splitAltPair("own\x01ctx")[1]}, []string{"own", "ctx"}) {
		t.Error("splitAlt")
	}
}

func splitAltPair(s string) [2]string {
	a, b := splitAlt(s)
	return [2]string{a, b}
}

// TestBuildMatchesSync holds the tables a build writes (B-trees written
// from Go, build_trees.go, and rows gathered, build_bulk.go) equal to
// those an incremental sync inserts for the same files, statement by
// statement, and to SQLite's integrity check.
func TestBuildMatchesSync(t *testing.T) {
	wss := buildWorkspaces(t)
	// Four months of synthetic logs: trees of two levels and more, many
	// entities and dated facts.
	wss["synthetic"] = t.TempDir()
	if _, err := synth.Generate(wss["synthetic"], synth.Options{Days: 120, Seed: 7}); err != nil {
		t.Fatal(err)
	}
	for name, src := range wss {
		t.Run(name, func(t *testing.T) { buildMatchesSync(t, src, name == "edge") })
	}
}

func buildMatchesSync(t *testing.T, src string, edge bool) {
	ctx := context.Background()
	ws := t.TempDir()
	ix := openTest(t, ws, Options{})
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.IsDir() && d.Name() == ".memory" {
			return filepath.SkipDir // an index made there, not a memory file
		}
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		writeFile(t, ws, filepath.ToSlash(rel), string(data))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ix.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	built := openRaw(t, buildTest(t, ws, Options{}))
	for _, q := range []string{
		`SELECT * FROM items`,
		`SELECT * FROM files`,
		`SELECT * FROM item_entities`,
		`SELECT * FROM entity_pages`,
		`SELECT * FROM entity_names`,
		`SELECT key, value FROM meta WHERE key IN ('entity_names', 'items')`,
	} {
		got, want := queryDump(t, built, q), queryDump(t, ix.db, q)
		if got != want {
			t.Errorf("%s: the build wrote\n%.2000s\nthe sync\n%.2000s", q, got, want)
		}
		if q == `SELECT * FROM items` && !strings.Contains(got, "passage") {
			t.Errorf("no items: %.200s", got)
		}
	}
	// The edge workspace covers an item past a page (overflow pages), event
	// dates (the partial index items_event) and a whole confidence (a REAL
	// stored as an integer).
	for _, q := range []string{
		`SELECT count(*) FROM items WHERE length(content) > 16384`,
		`SELECT count(*) FROM items INDEXED BY items_event WHERE event_start != ''`,
		`SELECT count(*) FROM items WHERE typeof(confidence) = 'real' AND confidence = 1`,
	} {
		var n int
		if err := built.QueryRow(q).Scan(&n); err != nil || edge && n == 0 {
			t.Errorf("%s: %d, %v", q, n, err)
		}
	}
	integrityCheck(t, built)
}

func queryDump(t *testing.T, db *sql.DB, q string) string {
	t.Helper()
	rows, err := db.Query(q + ` ORDER BY 1, 2`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		t.Fatal(err)
	}
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
		fmt.Fprintf(&b, "%#v\n", vals)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestBuildCounts holds the counts a build reports to those Status finds
// in the index it wrote (`memoria index` prints them without asking).
func TestBuildCounts(t *testing.T) {
	wss := buildWorkspaces(t)
	skipping := edgeWorkspace(t)
	writeFile(t, skipping, "memory/2025-03-03.md", "\x00\x01binary")
	wss["skipping"] = skipping
	for name, ws := range wss {
		t.Run(name, func(t *testing.T) {
			ix, err := OpenAt(context.Background(), ws, filepath.Join(t.TempDir(), "index.sqlite"), Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer ix.Close()
			st := ix.BuildStats
			status, err := ix.Status(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if !st.Counted || st.Passages != status.Passages || st.Entities != status.Entities || st.Skipped != len(status.Skipped) ||
				!maps.Equal(st.Facts, status.Facts) || !maps.Equal(st.FilesByKind, status.Files) {
				t.Fatalf("build counted %+v\nStatus: %+v", st, status)
			}
			if st.Passages == 0 || len(st.Facts) == 0 || name == "skipping" && st.Skipped != 1 {
				t.Fatalf("nothing counted: %+v", st)
			}
		})
	}
}
