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
