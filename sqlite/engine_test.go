package sqlite

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"memoria/internal/testworkspace"
	"memoria/memory"
)

// TestEditsRankAsFreshBuild: after edits, additions and deletions synced
// into an index one by one, every search ranks as it does on an index
// built afresh from the same files: the same results, in the same order,
// with the same scores (ties in the order of path and line). There is one
// engine (FTS5), and what a sync leaves in it must not depend on the way
// there.
func TestEditsRankAsFreshBuild(t *testing.T) {
	ctx := context.Background()
	dir := testworkspace.CopyExample(t)
	synced := openTest(t, dir, Options{})
	logs, err := filepath.Glob(filepath.Join(dir, "memory", "*.md"))
	if err != nil || len(logs) < 30 {
		t.Fatalf("logs: %v, %d", err, len(logs))
	}
	slices.Sort(logs)
	// Delete a third of the logs, edit others, add new ones, each change
	// synced on its own as a running process meets them.
	for i, p := range logs {
		switch i % 3 {
		case 0:
			if err := os.Remove(p); err != nil {
				t.Fatal(err)
			}
		case 1:
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			data = append(data, fmt.Sprintf("\n- Added later: the quokka moved the espresso machine, take %d.\n", i)...)
			if err := os.WriteFile(p, data, 0o644); err != nil {
				t.Fatal(err)
			}
			touch(t, dir, strings.TrimPrefix(filepath.ToSlash(p), filepath.ToSlash(dir)+"/"), int64(i))
		default:
			continue
		}
		if _, err := synced.Sync(ctx); err != nil {
			t.Fatal(err)
		}
	}
	writeFile(t, dir, "memory/2026-01-02.md", "# 2026-01-02\n\nThe quokka visited Marrakech; Peter took the espresso machine along.\n")
	if _, err := synced.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	fresh, err := OpenAt(ctx, dir, filepath.Join(t.TempDir(), "fresh.sqlite"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer fresh.Close()

	queries := [][]string{{"quokka"}, {"espresso"}, {"marrakech"}, {"peter"}, {"dog"}, {"the"},
		{"whatsapp", "replies"}, {"castle"}, {"deploy", "fly"}, {"birthday", "andy"}, {"take"}}
	for _, q := range queries {
		for _, f := range []memory.Filter{{}, {Since: time.Date(2025, 10, 1, 0, 0, 0, 0, time.UTC)}} {
			a, err := synced.Search(ctx, q, f, 1000)
			if err != nil {
				t.Fatal(err)
			}
			b, err := fresh.Search(ctx, q, f, 1000)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := ranking(a), ranking(b); got != want {
				t.Errorf("%q %+v: after syncs\n%s\nfresh build\n%s", q, f, got, want)
			}
		}
	}
}

// ranking renders hits as lines of source and score (to 1e-9).
func ranking(hits []memory.Hit) string {
	var b strings.Builder
	for _, h := range hits {
		fmt.Fprintf(&b, "%s %.9f\n", h.Source, math.Round(h.Score*1e9)/1e9)
	}
	return b.String()
}

// TestFileUpdatedInPlace: a changed file is written again item by item,
// keeping the rows of items that did not change. After each kind of edit
// (an append, a line inserted at the top that moves every item, a changed
// middle line that changes its neighbours' full-text context, a section
// removed, a fact's confidence changed, the file emptied) the index holds
// exactly the rows a fresh build holds, and every word ranks the same.
// An append writes only the new item.
func TestFileUpdatedInPlace(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("# 2025-11-03\n\n")
	for s, sec := range []string{"Harbour", "Kitchen", "Garden"} {
		fmt.Fprintf(&b, "## %s\n\n", sec)
		for i := range 40 {
			fmt.Fprintf(&b, "- %s note %d: the crane %d lifted stone %d for @Mara\n", sec, i, s*40+i, i%7)
		}
		b.WriteString("\n")
	}
	b.WriteString("## Retain\n- W @Mara: Runs the harbour crew.\n- O(c=0.6) @Mara: Prefers early starts.\n")
	rel := "memory/2025-11-03.md"
	writeFile(t, dir, rel, b.String())
	writeFile(t, dir, "memory/2025-11-04.md", "# 2025-11-04\n\n- The crane was serviced; stone deliveries resume.\n")
	ix := openTest(t, dir, Options{})
	var maxID, rowsBefore int64
	ix.db().QueryRow(`SELECT max(id), count(*) FROM items`).Scan(&maxID, &rowsBefore)

	edits := []struct {
		name string
		edit func(string) string
	}{
		{"append a fact", func(s string) string { return s + "- B I checked the crane cables myself.\n" }},
		{"insert at the top", func(s string) string {
			return strings.Replace(s, "## Harbour\n", "A new first line about the crane.\n\n## Harbour\n", 1)
		}},
		{"change a middle line", func(s string) string {
			return strings.Replace(s, "Kitchen note 20: the crane 60", "Kitchen note 20: the kettle 60", 1)
		}},
		{"remove a section", func(s string) string {
			i, j := strings.Index(s, "## Garden"), strings.Index(s, "## Retain")
			return s[:i] + s[j:]
		}},
		{"change a confidence", func(s string) string { return strings.Replace(s, "O(c=0.6)", "O(c=0.8)", 1) }},
		{"empty the file", func(string) string { return "" }},
		{"write it again", func(string) string { return b.String() }},
	}
	for n, e := range edits {
		data, err := os.ReadFile(filepath.Join(dir, rel))
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, dir, rel, e.edit(string(data)))
		touch(t, dir, rel, int64(1000+n))
		if _, err := ix.Sync(ctx); err != nil {
			t.Fatalf("%s: %v", e.name, err)
		}
		if n == 0 {
			var newMax, rows, kept int64
			ix.db().QueryRow(`SELECT max(id), count(*), sum(id <= ?) FROM items`, maxID).Scan(&newMax, &rows, &kept)
			if rows != rowsBefore+1 || kept != rowsBefore || newMax != maxID+1 {
				t.Errorf("append: %d rows (%d kept), max id %d → %d; want one new row", rows, kept, maxID, newMax)
			}
		}
		fresh, err := OpenAt(ctx, dir, filepath.Join(t.TempDir(), "fresh.sqlite"), Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got, want := itemRows(t, ix), itemRows(t, fresh); got != want {
			t.Errorf("%s: items differ from a fresh build\nsynced:\n%s\nfresh:\n%s", e.name, got, want)
		}
		if _, err := ix.db().Exec(`INSERT INTO items_fts(items_fts) VALUES('integrity-check')`); err != nil {
			t.Errorf("%s: full-text integrity: %v", e.name, err)
		}
		for _, q := range [][]string{{"crane"}, {"stone"}, {"mara"}, {"kitchen"}, {"kettle"}, {"harbour", "crew"}, {"note", "20"}, {"early"}, {"cables"}, {"first"}} {
			a, err := ix.Search(ctx, q, memory.Filter{}, 1000)
			if err != nil {
				t.Fatal(err)
			}
			b, err := fresh.Search(ctx, q, memory.Filter{}, 1000)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := ranking(a), ranking(b); got != want {
				t.Errorf("%s: %q ranks differently from a fresh build\nsynced:\n%s\nfresh:\n%s", e.name, q, got, want)
			}
		}
		fresh.Close()
	}
}

// itemRows is every item's stored columns but its id, sorted.
func itemRows(t *testing.T, ix *Index) string {
	t.Helper()
	rows, err := ix.db().Query(`SELECT f.path, i.kind, coalesce(i.fact_id, ''), coalesce(i.confidence, -1), i.start_line, i.end_line, i.day, i.event_end, ` + sectionColumn + `, i.entities, i.content, i.text_hash,
		(SELECT group_concat(slug_key, ' ') FROM (SELECT slug_key FROM item_entities e WHERE e.item_id = i.id ORDER BY slug_key))
		FROM items i JOIN files f ON f.id = i.file_id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		vals := make([]any, 13)
		ptrs := make([]any, len(vals))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprint(vals...))
	}
	slices.Sort(out)
	return strings.Join(out, "\n")
}
