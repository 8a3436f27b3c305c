package memoria_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"memoria"
	"memoria/internal/testworkspace"
)

// TestRecallMaxStale: a recall that allows an index synced a while ago
// answers from it as it stands, without checking the files, and Checked
// says as of when; one that does not checks the files first.
func TestRecallMaxStale(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := testworkspace.CopyExample(t)
	ws, err := memoria.Open(ctx, dir, memoria.Options{IndexPath: filepath.Join(t.TempDir(), "index.sqlite")})
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	if !ws.Checked().IsZero() {
		t.Fatalf("Checked before any sync: %v", ws.Checked())
	}
	stale := memoria.RecallOptions{MaxStale: time.Hour, Lexical: true}
	before := time.Now()
	if _, err := ws.Recall(ctx, "Peter", stale); err != nil { // never synced: it syncs
		t.Fatal(err)
	}
	checked := ws.Checked()
	if checked.Before(before) {
		t.Fatalf("Checked %v, before the recall that synced (%v)", checked, before)
	}
	if err := os.WriteFile(filepath.Join(dir, "memory", "2025-12-02.md"), []byte("# 2025-12-02\n\nThe quokka census starts.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	found := func(o memoria.RecallOptions) bool {
		t.Helper()
		res, err := ws.Recall(ctx, "quokka", o)
		if err != nil {
			t.Fatal(err)
		}
		return len(res) > 0 && strings.Contains(res[0].Content, "quokka")
	}
	if found(stale) || !ws.Checked().Equal(checked) {
		t.Errorf("a recall within MaxStale checked the files (Checked %v, was %v)", ws.Checked(), checked)
	}
	if !found(memoria.RecallOptions{Lexical: true}) || !ws.Checked().After(checked) {
		t.Errorf("a recall without MaxStale did not check the files (Checked %v, was %v)", ws.Checked(), checked)
	}
	if !found(stale) {
		t.Error("the change is not found after a sync")
	}
}

// TestMarkFresh: MarkFresh moves Checked forward, never back, and does
// nothing before a first sync.
func TestMarkFresh(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	ws, err := memoria.Open(ctx, testworkspace.CopyExample(t), memoria.Options{IndexPath: filepath.Join(t.TempDir(), "index.sqlite")})
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	ws.MarkFresh(time.Now())
	if !ws.Checked().IsZero() {
		t.Fatalf("Checked %v before any sync", ws.Checked())
	}
	if _, err := ws.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	synced := ws.Checked()
	later := synced.Add(time.Minute)
	ws.MarkFresh(later)
	if !ws.Checked().Equal(later) {
		t.Errorf("Checked %v after MarkFresh(%v)", ws.Checked(), later)
	}
	ws.MarkFresh(synced)
	if !ws.Checked().Equal(later) {
		t.Errorf("Checked went back to %v", ws.Checked())
	}
}
