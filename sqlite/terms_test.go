package sqlite

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"memoria/memory"
)

func TestTermStats(t *testing.T) {
	ix := openTest(t, testWorkspace(t), Options{})
	st, total, err := ix.TermStats(context.Background(), []string{"Marrakech", "running", "zzz", "connection.update", "vet's"})
	if err != nil {
		t.Fatal(err)
	}
	if total != 6 {
		t.Errorf("total %d", total)
	}
	want := []memory.TermStat{{Word: "Marrakech", Stem: "marrakech", Rows: 1}, {Word: "running", Stem: "run", Rows: 0}, {Word: "zzz", Stem: "zzz", Rows: 0}, {Word: "connection.update", Stem: "connect", Rows: 0}, {Word: "vet's", Stem: "vet", Rows: 1}}
	for i := range want {
		if st[i] != want[i] {
			t.Errorf("%d: got %+v, want %+v", i, st[i], want[i])
		}
	}
}

// TestTermStatsAfterAWrite: after a sync, a word no item held is counted
// again (as a fresh index counts it), while a common word's count may be
// the one kept from before the write (memory.KeepTermCounts).
func TestTermStatsAfterAWrite(t *testing.T) {
	dir := t.TempDir()
	var log strings.Builder
	log.WriteString("# 2025-11-20\n")
	for i := range 150 {
		fmt.Fprintf(&log, "\nHarbour note %d: the ferry ran.\n", i)
	}
	writeFile(t, dir, "memory/2025-11-20.md", log.String())
	ix := openTest(t, dir, Options{})
	ctx := context.Background()
	rows := func() (harbour, zanzibar int) {
		t.Helper()
		st, _, err := ix.TermStats(ctx, []string{"harbour", "zanzibar"})
		if err != nil {
			t.Fatal(err)
		}
		return st[0].Rows, st[1].Rows
	}
	if h, z := rows(); h != 150 || z != 0 {
		t.Fatalf("before: harbour %d, zanzibar %d; want 150, 0", h, z)
	}
	log.WriteString("\nZanzibar harbour, at last.\n")
	writeFile(t, dir, "memory/2025-11-20.md", log.String())
	if _, err := ix.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	fresh, _, err := openTest(t, dir, Options{}).TermStats(ctx, []string{"harbour", "zanzibar"})
	if err != nil {
		t.Fatal(err)
	}
	if h, z := rows(); h != 150 && h != fresh[0].Rows || z == 0 || z != fresh[1].Rows {
		t.Errorf("after: harbour %d, zanzibar %d; want 150 or %d, and %d", h, z, fresh[0].Rows, fresh[1].Rows)
	}
}
