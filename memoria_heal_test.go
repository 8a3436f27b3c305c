package memoria

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"memoria/memory"
	"memoria/sqlite"
)

// TestRepairOfUnusableIndexBacksOff: a long-lived Workspace whose index
// cannot be repaired (its folder replaced by a file) fails each call with
// one line that says why, and tries the repair again only once the
// back-off has passed, not at every call; once the cause is gone, the
// next call after the back-off repairs the index and answers.
func TestRepairOfUnusableIndexBacksOff(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "memory"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "memory", "2025-11-27.md"), []byte("# 2025-11-27\n\nThe otter juggled pebbles.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ws, err := Open(ctx, dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	counted := &countingIndex{Index: ws.ix.(*sqlite.Index)}
	ws.ix = counted
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	ws.clock = func() time.Time { return now }
	attempts := func() int { return int(counted.repairs.Load()) }
	recall := func() error {
		res, err := ws.Recall(ctx, "otter", RecallOptions{Lexical: true})
		if err == nil && len(res) == 0 {
			return errors.New("no result")
		}
		return err
	}
	if err := recall(); err != nil {
		t.Fatal(err)
	}
	index := filepath.Join(dir, ".memory")
	if err := os.RemoveAll(index); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(index, []byte("not a folder"), 0o644); err != nil {
		t.Fatal(err)
	}
	err = recall()
	if !errors.Is(err, memory.ErrCorrupt) || strings.Contains(err.Error(), "\n") {
		t.Fatalf("recall with the index folder a file: %v; want one line wrapping memory.ErrCorrupt", err)
	}
	tried := attempts()
	if tried == 0 {
		t.Fatal("no repair was tried")
	}
	for range 5 {
		if err := recall(); err == nil || !strings.Contains(err.Error(), "repairing it failed") {
			t.Fatalf("recall within the back-off: %v; want the failed repair's error", err)
		}
	}
	if n := attempts(); n != tried {
		t.Fatalf("%d repairs tried within the back-off after the first call's %d", n, tried)
	}
	if err := os.Remove(index); err != nil {
		t.Fatal(err)
	}
	now = now.Add(healBackoff)
	if err := recall(); err != nil {
		t.Fatalf("recall after the back-off, the cause gone: %v", err)
	}
	if _, err := os.Stat(filepath.Join(index, "index.sqlite")); err != nil {
		t.Fatalf("the repaired index is not at its path: %v", err)
	}
}

// countingIndex counts the repairs tried on an index.
type countingIndex struct {
	*sqlite.Index
	repairs atomic.Int32
}

func (c *countingIndex) Reopen(ctx context.Context) error {
	c.repairs.Add(1)
	return c.Index.Reopen(ctx)
}

func (c *countingIndex) RebuildDamaged(ctx context.Context) (Stats, error) {
	c.repairs.Add(1)
	return c.Index.RebuildDamaged(ctx)
}
