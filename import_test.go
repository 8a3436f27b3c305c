package memoria_test

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/metrics"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"memoria"
)

// TestImport: each format's fixture becomes sections of the daily logs of
// the days its sessions started, after everything the logs held (no line
// changed); recall finds an imported turn with its citation; importing
// again changes nothing.
func TestImport(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "memory"), 0o755)
	existing := "# 2026-01-10\n\nBaked bread in the morning.\n"
	os.WriteFile(filepath.Join(dir, "memory", "2026-01-10.md"), []byte(existing), 0o644)
	ws := open(t, dir, nil)
	ctx := context.Background()
	importAll := func() []memoria.ImportReport {
		var reps []memoria.ImportReport
		for _, f := range []string{"chatgpt-conversations.json", "claude-conversations.json", "openclaw-session.jsonl", "CLAUDE.md"} {
			fh, err := os.Open(filepath.Join("imports", "testdata", f))
			if err != nil {
				t.Fatal(err)
			}
			rep, err := ws.Import(ctx, f, fh, memoria.ImportOptions{Now: now})
			fh.Close()
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			reps = append(reps, rep)
		}
		return reps
	}
	first := importAll()
	imported := 0
	for _, r := range first {
		imported += r.Imported
	}
	if imported != 5 {
		t.Errorf("imported %d sessions, want 5: %+v", imported, first)
	}
	log, _ := os.ReadFile(filepath.Join(dir, "memory", "2026-01-10.md"))
	if !strings.HasPrefix(string(log), existing) || !strings.Contains(string(log), "## Conversation: Sourdough schedule [chatgpt:6f1c2a90-1111-4c5e-9a10-2b7d3e8f0a01]\n\n- 09:01 **User**: My starter doubles") {
		t.Errorf("2026-01-10.md:\n%s", log)
	}
	res, err := ws.Recall(ctx, "which neighbourhood in Lisbon is quiet", memoria.RecallOptions{Now: now, Lexical: true, K: 3})
	if err != nil || len(res) == 0 || !strings.HasPrefix(res[0].Source, "memory/2026-01-12.md#L") {
		t.Errorf("recall of an imported turn: %v, %v", res, err)
	}
	before := snapshotDir(t, dir)
	for _, r := range importAll() {
		if r.Imported != 0 || r.Skipped != r.Sessions || len(r.Files) != 0 {
			t.Errorf("second import: %+v", r)
		}
	}
	if after := snapshotDir(t, dir); after != before {
		t.Error("importing again changed the workspace")
	}
}

// TestImportBoundedMemory: a ChatGPT export of about 48 MB, streamed from a
// generator (never held whole), is imported with the live heap bounded:
// conversations are decoded one at a time and written two megabytes at a
// time.
func TestImportBoundedMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("writes about 40 MB")
	}
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "memory"), 0o755)
	ws := open(t, dir, nil)
	pr, pw := io.Pipe()
	const convs = 3000
	go func() {
		pw.Write([]byte("["))
		turn := strings.Repeat("the quick brown fox jumps over the lazy dog ", 30)
		for i := range convs {
			if i > 0 {
				pw.Write([]byte(","))
			}
			start := time.Date(2025, 1, 1, 9, 0, 0, 0, time.UTC).AddDate(0, 0, i/10).Unix()
			var b strings.Builder
			fmt.Fprintf(&b, `{"id":"c%d","title":"conversation %d","create_time":%d,"current_node":"n9","mapping":{`, i, i, start)
			for n := range 10 {
				parent := "null"
				if n > 0 {
					parent = fmt.Sprintf(`"n%d"`, n-1)
				}
				role := "user"
				if n%2 == 1 {
					role = "assistant"
				}
				if n > 0 {
					b.WriteString(",")
				}
				fmt.Fprintf(&b, `"n%d":{"id":"n%d","parent":%s,"message":{"author":{"role":%q},"create_time":%d,"content":{"content_type":"text","parts":[%q]}}}`,
					n, n, parent, role, start+int64(n*60), fmt.Sprintf("turn %d of %d: %s", n, i, turn))
			}
			b.WriteString("}}")
			pw.Write([]byte(b.String()))
		}
		pw.Write([]byte("]"))
		pw.Close()
	}()
	var peak atomic.Uint64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		// The live heap as of the last collection: what the import holds,
		// not the garbage a collection has not yet freed.
		sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		for {
			metrics.Read(sample)
			if v := sample[0].Value.Uint64(); v > peak.Load() {
				peak.Store(v)
			}
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond): // sampling, not synchronisation
			}
		}
	})
	rep, err := ws.Import(context.Background(), "conversations.json", pr, memoria.ImportOptions{Format: "chatgpt", Now: now})
	close(stop)
	wg.Wait()
	if err != nil || rep.Imported != convs {
		t.Fatalf("%+v, %v", rep, err)
	}
	var size int64
	for _, f := range rep.Files {
		st, _ := os.Stat(filepath.Join(dir, f))
		size += st.Size()
	}
	t.Logf("%d sessions, %d MB of logs, peak live heap %d MB", rep.Imported, size>>20, peak.Load()>>20)
	// Measured: about 6 MB live, import and index update together (8 MB
	// for a 500 MB export). Holding the export (48 MB of JSON, more
	// decoded) would pass the bound, and so did the index update while
	// it parsed every file ahead of writing them (44 MB here, 421 MB for
	// the 500 MB export).
	if size < 30<<20 || peak.Load() > 24<<20 {
		t.Errorf("%d MB written with a peak live heap of %d MB", size>>20, peak.Load()>>20)
	}
}

// snapshotDir is every Markdown file of dir with its content.
func snapshotDir(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err == nil && strings.HasSuffix(p, ".md") {
			data, _ := os.ReadFile(p)
			fmt.Fprintf(&b, "%s\n%s\n", p, data)
		}
		return nil
	})
	return b.String()
}
