package sqlite

import (
	"context"
	"strings"
	"testing"

	"memoria/memory"
)

func TestStoredForms(t *testing.T) {
	for _, tc := range []struct {
		text string
		num  int64
	}{
		{"", 0},
		{"2026-03-01", 20260301},
		{"0999-12-31", 9991231},
		{"1970-01-01", 19700101},
	} {
		if got := dayNum(tc.text); got != tc.num {
			t.Errorf("dayNum(%q) = %d, want %d", tc.text, got, tc.num)
		}
		if got := dayText(tc.num); got != tc.text {
			t.Errorf("dayText(%d) = %q, want %q", tc.num, got, tc.text)
		}
	}
	if dayNum("2026-03-01") >= dayNum("2026-03-02") || dayNum("2025-12-31") >= dayNum("2026-01-01") {
		t.Error("stored days do not sort as the text did")
	}
	for _, k := range memory.Kinds {
		n, err := kindCode(k)
		if err != nil || kindOf(n) != k {
			t.Errorf("kind %q: code %d, %v, back %q", k, n, err, kindOf(n))
		}
	}
	if n, _ := kindCode(memory.KindPassage); kindPassageSQL != "0" || n != 0 {
		t.Errorf("a passage is stored as %d; kindPassageSQL says %s", n, kindPassageSQL)
	}
	if _, err := kindCode("rumour"); err == nil {
		t.Error("an unknown kind was given a code")
	}
	for _, h := range []string{"0000000000000000", "ffffffffffffffff", "8000000000000001", "0123456789abcdef"} {
		n, err := hashNum(h)
		if err != nil || hashText(n) != h {
			t.Errorf("hash %s: %d, %v, back %s", h, n, err, hashText(n))
		}
	}
	if _, err := hashNum("xyz"); err == nil {
		t.Error("a malformed hash was stored")
	}
}

// The text-hash index exists only where vectors are used: a lexical index
// has none, the first embedding adds it, and a rebuild keeps it while the
// vector store has a model.
func TestTextHashIndexOnlyWithVectors(t *testing.T) {
	dir := testWorkspace(t)
	ix := openTest(t, dir, Options{})
	ctx := context.Background()
	has := func() bool {
		t.Helper()
		var n int
		if err := ix.db().QueryRow(`SELECT count(*) FROM sqlite_schema WHERE type = 'index' AND name = 'items_text_hash'`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n == 1
	}
	if has() {
		t.Fatal("a lexical index has the text-hash index")
	}
	if _, err := ix.EmbedPending(ctx, &bagEmbedder{id: "bag/v1"}, memory.EmbedOptions{}); err != nil {
		t.Fatal(err)
	}
	if !has() {
		t.Fatal("no text-hash index after embedding")
	}
	if _, err := ix.Rebuild(ctx); err != nil {
		t.Fatal(err)
	}
	if !has() {
		t.Fatal("a rebuild with vectors lost the text-hash index")
	}
	var plan string
	if err := ix.db().QueryRow(`EXPLAIN QUERY PLAN SELECT id FROM items WHERE text_hash IN (1, 2)`).Scan(new(int), new(int), new(int), &plan); err != nil {
		t.Fatal(err)
	}
	if want := "USING COVERING INDEX items_text_hash"; !strings.Contains(plan, want) {
		t.Errorf("vector lookups plan %q, want %q", plan, want)
	}
}
