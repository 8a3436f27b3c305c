package sqlite

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"memoria/ingest"
	"memoria/memory"
)

func writeFile(t *testing.T, dir, rel, text string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// touch gives a file a distinct mtime, as an edit some time later would;
// tests never rely on the wall clock advancing.
func touch(t *testing.T, dir, rel string, sec int64) {
	t.Helper()
	ts := time.Unix(1_700_000_000+sec, 0)
	if err := os.Chtimes(filepath.Join(dir, filepath.FromSlash(rel)), ts, ts); err != nil {
		t.Fatal(err)
	}
}

func testWorkspace(t *testing.T) string {
	dir := t.TempDir()
	writeFile(t, dir, "memory.md", "# Core\n\n## Preferences\n\n- Peter likes espresso.\n")
	writeFile(t, dir, "memory/2025-11-27.md", "# 2025-11-27\n\nFixed the Baileys websocket crash today.\n\n## Retain\n- W @Peter: Currently in Marrakech for Andy's birthday.\n- O(c=0.9) @Peter: Prefers concise replies on WhatsApp.\n")
	writeFile(t, dir, "memory/2025-11-20.md", "# 2025-11-20\n\n- Walked Biscuit to the vet; the vaccination is due again in May.\n")
	writeFile(t, dir, "bank/entities/Peter.md", "---\naliases: [Pete]\n---\n# Peter Steinberger\n\nBuilds warelay.\n")
	return dir
}

func openTest(t *testing.T, dir string, o Options) *Index {
	t.Helper()
	ix, err := Open(context.Background(), dir, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	return ix
}

func search(t *testing.T, ix *Index, terms ...string) []memory.Hit {
	t.Helper()
	if _, err := ix.Sync(context.Background()); err != nil {
		t.Fatal(err)
	}
	hits, err := ix.Search(context.Background(), terms, memory.Filter{}, 10)
	if err != nil {
		t.Fatal(err)
	}
	return hits
}

func TestBuildAndSearch(t *testing.T) {
	dir := testWorkspace(t)
	ix := openTest(t, dir, Options{})
	if ix.Rebuilt != "new" {
		t.Errorf("Rebuilt = %q, want new", ix.Rebuilt)
	}
	hits := search(t, ix, "marrakech")
	if len(hits) != 1 {
		t.Fatalf("got %d hits, want 1", len(hits))
	}
	h := hits[0]
	if h.Kind != memory.KindWorld || h.Source.String() != "memory/2025-11-27.md#L6" || h.Written.Format(ingest.DateLayout) != "2025-11-27" {
		t.Errorf("hit = %+v", h.Item)
	}
	if len(h.Entities) != 1 || h.Entities[0] != "Peter" {
		t.Errorf("entities = %v", h.Entities)
	}
	// Entity names are searchable, and FTS syntax in user text is inert.
	if hits := search(t, ix, "steinberger"); len(hits) == 0 {
		t.Error("entity page text not found")
	}
	for _, q := range []string{`"`, `NEAR(`, `-`, `a:b`, `*`, `AND`, `)`} {
		if _, err := ix.Search(context.Background(), []string{q}, memory.Filter{}, 5); err != nil {
			t.Errorf("query %q: %v", q, err)
		}
	}
	slug, ok, err := ix.ResolveEntity(context.Background(), "pete")
	if err != nil || !ok || slug != "Peter" {
		t.Errorf("ResolveEntity(pete) = %q, %v, %v", slug, ok, err)
	}
}

func TestFilters(t *testing.T) {
	ix := openTest(t, testWorkspace(t), Options{})
	ctx := context.Background()
	day := func(s string) time.Time { d, _ := time.Parse(ingest.DateLayout, s); return d }
	tests := []struct {
		name   string
		filter memory.Filter
		want   int
	}{
		{"all", memory.Filter{}, 6},
		{"window", memory.Filter{Since: day("2025-11-25"), Until: day("2025-11-30")}, 3},
		{"since only", memory.Filter{Since: day("2025-11-21")}, 3},
		{"until only", memory.Filter{Until: day("2025-11-21")}, 1},
		{"opinions", memory.Filter{Kinds: []memory.Kind{memory.KindOpinion}}, 1},
		{"entity", memory.Filter{Entities: []string{"peter"}}, 3},
	}
	for _, tt := range tests {
		items, err := ix.Items(ctx, tt.filter, true, 100)
		if err != nil {
			t.Fatal(err)
		}
		if len(items) != tt.want {
			var got []string
			for _, it := range items {
				got = append(got, it.Source.String())
			}
			t.Errorf("%s: %d items %v, want %d", tt.name, len(items), got, tt.want)
		}
	}
}

func TestIncrementalSync(t *testing.T) {
	dir := testWorkspace(t)
	ix := openTest(t, dir, Options{})
	ctx := context.Background()
	st, err := ix.Sync(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.Changed() {
		t.Fatalf("sync right after build changed something: %+v", st)
	}
	// One edited file is re-parsed; the others are not even read.
	writeFile(t, dir, "memory/2025-11-20.md", "# 2025-11-20\n\n- Walked Biscuit to the groomer instead.\n")
	touch(t, dir, "memory/2025-11-20.md", 1)
	st, err = ix.Sync(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.Parsed != 1 || st.Unchanged != st.Files-1 {
		t.Errorf("after one edit: %+v, want exactly 1 parsed", st)
	}
	if len(search(t, ix, "vaccination")) != 0 || len(search(t, ix, "groomer")) != 1 {
		t.Error("edited text not reflected")
	}
	// A touched but unchanged file is not re-parsed.
	touch(t, dir, "memory.md", 2)
	if st, _ = ix.Sync(ctx); st.Parsed != 0 {
		t.Errorf("touch re-parsed: %+v", st)
	}
	// A deleted file disappears from recall.
	if err := os.Remove(filepath.Join(dir, "memory", "2025-11-27.md")); err != nil {
		t.Fatal(err)
	}
	if st, _ = ix.Sync(ctx); st.Removed != 1 {
		t.Errorf("removal: %+v", st)
	}
	if hits := search(t, ix, "marrakech"); len(hits) != 0 {
		t.Errorf("deleted file still recalled: %v", hits)
	}
	// A new file appears.
	writeFile(t, dir, "memory/2025-11-28.md", "# 2025-11-28\n\nBought a kettle.\n")
	if hits := search(t, ix, "kettle"); len(hits) != 1 {
		t.Errorf("new file not recalled")
	}
}

func TestCorruptAndForeignIndexRebuilt(t *testing.T) {
	for _, tc := range []struct {
		name    string
		content []byte
		reason  string
	}{
		{"garbage", []byte(strings.Repeat("not a database at all ", 400)), "corrupt"},
		{"empty", nil, "new"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := testWorkspace(t)
			p := filepath.Join(dir, ".memory", "index.sqlite")
			writeFile(t, dir, ".memory/index.sqlite", string(tc.content))
			var warnings []string
			ix := openTest(t, dir, Options{Warn: func(m string) { warnings = append(warnings, m) }})
			if ix.Rebuilt != tc.reason {
				t.Errorf("Rebuilt = %q, want %q", ix.Rebuilt, tc.reason)
			}
			if len(search(t, ix, "marrakech")) != 1 {
				t.Error("rebuilt index does not answer")
			}
			if tc.reason == "corrupt" && (len(warnings) == 0 || !strings.Contains(warnings[0], "rebuilding")) {
				t.Errorf("no rebuild warning: %v", warnings)
			}
			if _, err := os.Stat(p); err != nil {
				t.Error(err)
			}
		})
	}
}

func TestForeignDatabaseRebuilt(t *testing.T) {
	dir := testWorkspace(t)
	other := t.TempDir()
	ix := openTest(t, other, Options{}) // a valid SQLite file, but foreign: change its application id
	if _, err := ix.db().Exec("PRAGMA application_id=42"); err != nil {
		t.Fatal(err)
	}
	ix.Close()
	data, err := os.ReadFile(filepath.Join(other, ".memory", "index.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, dir, ".memory/index.sqlite", string(data))
	var warnings []string
	ix2 := openTest(t, dir, Options{Warn: func(m string) { warnings = append(warnings, m) }})
	if ix2.Rebuilt != "foreign" {
		t.Errorf("Rebuilt = %q, want foreign", ix2.Rebuilt)
	}
	// The foreign database is kept beside the index, said once; it used to
	// be overwritten in place without a word.
	kept, err := os.ReadFile(filepath.Join(dir, ".memory", "index.sqlite.foreign"))
	if err != nil || string(kept) != string(data) {
		t.Errorf("foreign database not kept aside: %v", err)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "not a Memoria index") {
		t.Errorf("warnings %q", warnings)
	}
	if hits := search(t, ix2, "peter"); len(hits) == 0 {
		t.Error("the new index finds nothing")
	}
}

func TestOutdatedIndexRebuilt(t *testing.T) {
	dir := testWorkspace(t)
	openTest(t, dir, Options{}).Close()
	ix := openTest(t, dir, Options{PassageLines: 5})
	if ix.Rebuilt != "outdated" {
		t.Errorf("Rebuilt = %q, want outdated", ix.Rebuilt)
	}
}

func TestBadFilesSkipped(t *testing.T) {
	dir := testWorkspace(t)
	writeFile(t, dir, "memory/2025-11-01.md", "binary\x00\x01\x02 data")
	writeFile(t, dir, "memory/2025-11-02.md", "# 2025-11-02\n\nbad \xff\xfe utf8 but searchable zebra\n")
	writeFile(t, dir, "memory/2025-11-03.md", strings.Repeat("big line of text\n", 1000))
	outside := filepath.Join(t.TempDir(), "secret.md")
	if err := os.WriteFile(outside, []byte("top secret platypus\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "memory", "2025-11-04.md")); err != nil {
		t.Fatal(err)
	}
	var warnings []string
	ix := openTest(t, dir, Options{MaxFileSize: 10000, Warn: func(m string) { warnings = append(warnings, m) }})
	st, err := ix.Status(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Skipped) != 2 {
		t.Errorf("skipped = %v, want the binary and the large file", st.Skipped)
	}
	if len(search(t, ix, "zebra")) != 1 {
		t.Error("file with invalid UTF-8 not indexed")
	}
	if len(search(t, ix, "platypus")) != 0 {
		t.Error("symlink outside the workspace was followed")
	}
	joined := strings.Join(warnings, "\n")
	for _, want := range []string{"binary", "too large", "outside the workspace"} {
		if !strings.Contains(joined, want) {
			t.Errorf("no warning mentioning %q in:\n%s", want, joined)
		}
	}
}

// TestHostileFileNames: a file whose name holds a newline, a tab or a
// quote is indexed and recalled like any other, and the index stays
// usable by later processes (a newline once broke the manifest, and every
// command failed until the file was renamed).
func TestHostileFileNames(t *testing.T) {
	dir := testWorkspace(t)
	writeFile(t, dir, "bank/line\nbreak.md", "# Notes\n\nThe quetzal nests by the river.\n")
	writeFile(t, dir, "bank/tab\there.md", "# Notes\n\nThe axolotl hides under stones.\n")
	writeFile(t, dir, "bank/\"quoted\".md", "# Notes\n\nThe pangolin rolls up.\n")
	for range 2 { // a first process builds, a second reads the manifest back
		ix := openTest(t, dir, Options{})
		for _, w := range []string{"quetzal", "axolotl", "pangolin"} {
			if hits := search(t, ix, w); len(hits) != 1 {
				t.Fatalf("%s: %d hits", w, len(hits))
			}
		}
		st, err := ix.Status(context.Background())
		if err != nil || st.Pending != 0 {
			t.Fatalf("status: %v, %d pending", err, st.Pending)
		}
		ix.Close()
	}
}

// TestTruncatedUnderAnOpenRead: the index file is truncated in place while
// a query of this process is part way through its rows. The query fails
// with an error (memory.ErrCorrupt once Sync looks), and the process lives
// on. With the file memory-mapped (PRAGMA mmap_size), reading a page
// past the new end of the file raised SIGBUS and killed the process: a
// long-lived serve or watch died of another process's damage.
func TestTruncatedUnderAnOpenRead(t *testing.T) {
	dir := t.TempDir()
	for d := 1; d <= 60; d++ {
		var b strings.Builder
		fmt.Fprintf(&b, "# Day %d\n\n", d)
		for i := 0; i < 40; i++ {
			fmt.Fprintf(&b, "- line %d of day %d about the shared harbour project and its crane number %d\n", i, d, i*d)
		}
		writeFile(t, dir, fmt.Sprintf("memory/2025-%02d-%02d.md", 1+d/28, 1+d%28), b.String())
	}
	ix := openTest(t, dir, Options{})
	ctx := context.Background()
	rows, err := ix.query(ctx, "SELECT content FROM items ORDER BY rowid")
	if err != nil {
		t.Fatal(err)
	}
	if !rows.Next() {
		t.Fatal("no rows")
	}
	if err := os.Truncate(ix.path, 4096); err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
	}
	rows.Close()
	if rows.Err() == nil {
		t.Log("the read finished from pages already in the cache")
	}
	// A check that reads every page finds the damage. (A sync may not:
	// what it reads can still be in the page cache, as when the files it
	// compares by content have just aged and only their mtime is stored.)
	if err := ix.Verify(ctx); !errors.Is(err, memory.ErrCorrupt) {
		t.Errorf("verify of a truncated index: %v", err)
	}
}
