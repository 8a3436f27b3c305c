package memoria_test

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"memoria/internal/testworkspace"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"memoria"
	"memoria/memory"
	"memoria/recall"
)

func open(t testing.TB, dir string, warn func(string)) *memoria.Workspace {
	t.Helper()
	ws, err := memoria.Open(context.Background(), dir, memoria.Options{Warn: warn})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	return ws
}

var now = time.Date(2025, 12, 1, 9, 0, 0, 0, time.UTC)

// TestCitationsAreExact is a property test over the example workspace:
// for many queries, every result's content is exactly what its citation
// reads back from the Markdown (passages), or is contained in those lines
// (typed facts, whose content drops the kind prefix and joins continuation
// lines).
func TestCitationsAreExact(t *testing.T) {
	dir := testworkspace.CopyExample(t)
	ws := open(t, dir, nil)
	// Queries: every distinct word of a sample of lines, plus fixed ones,
	// so the property is checked over a wide spread of results.
	queries := []string{"Peter", "warelay crash", "Biscuit vet", "WhatsApp replies", "Hetzner", "Marrakech", "Clara", "Telegram", "", "deploy"}
	words := map[string]bool{}
	for _, f := range []string{"memory/2025-10-24.md", "memory/2025-11-04.md", "bank/world.md", "memory.md"} {
		data, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range strings.Fields(string(data)) {
			if len(w) > 5 && !words[w] && len(words) < 150 {
				words[w] = true
				queries = append(queries, w)
			}
		}
	}
	checked := 0
	for _, q := range queries {
		res, err := ws.Recall(context.Background(), q, memoria.RecallOptions{K: 25, Now: now, Since: sinceFor(q)})
		if err != nil {
			t.Fatalf("recall %q: %v", q, err)
		}
		for _, r := range res {
			lines, err := ws.Get(r.Source)
			if err != nil {
				t.Fatalf("%q: get %s: %v", q, r.Source, err)
			}
			if lines.Source.String() != r.Source {
				t.Errorf("%q: get %s read %s", q, r.Source, lines.Source)
			}
			switch {
			case r.Kind == memory.KindPassage && r.Truncated > 0:
				if !strings.HasPrefix(lines.Text, r.Content) || len(lines.Text) != len(r.Content)+r.Truncated {
					t.Errorf("%q: %s cut to %d bytes (%d left out) from %d", q, r.Source, len(r.Content), r.Truncated, len(lines.Text))
				}
			case r.Kind == memory.KindPassage:
				if lines.Text != r.Content {
					t.Errorf("%q: %s\ncontent %q\nlines   %q", q, r.Source, r.Content, lines.Text)
				}
			default:
				for _, part := range strings.Split(r.Content, "\n") {
					if !strings.Contains(lines.Text, strings.TrimSpace(part)) {
						t.Errorf("%q: fact %s: %q not in its lines %q", q, r.Source, part, lines.Text)
					}
				}
			}
			checked++
		}
	}
	if checked < 500 {
		t.Errorf("only %d results checked", checked)
	}
}

// TestLongLineCut: a line of megabytes is found and cited whole, but its
// result carries only the first MaxContentBytes (at a character
// boundary) and says how much it leaves out.
func TestLongLineCut(t *testing.T) {
	dir := t.TempDir()
	long := strings.Repeat("Zebrafish notes é€ ", 200000) + "end" // 4 MB, multi-byte characters
	if err := os.MkdirAll(filepath.Join(dir, "memory"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "memory", "2025-11-20.md"), []byte("# 2025-11-20\n\n"+long+"\n\nA short line about zebrafish.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ws := open(t, dir, nil)
	res, err := ws.Recall(context.Background(), "zebrafish notes", memoria.RecallOptions{Now: now})
	if err != nil {
		t.Fatal(err)
	}
	var found bool
	for _, r := range res {
		if r.Source != "memory/2025-11-20.md#L3" {
			continue
		}
		found = true
		lines, err := ws.Get(r.Source)
		if err != nil {
			t.Fatal(err)
		}
		if r.Truncated == 0 || len(r.Content) > recall.MaxContentBytes || !utf8.ValidString(r.Content) ||
			!strings.HasPrefix(lines.Text, r.Content) || len(r.Content)+r.Truncated != len(lines.Text) {
			t.Errorf("content %d bytes, truncated %d, the line %d bytes", len(r.Content), r.Truncated, len(lines.Text))
		}
	}
	if !found {
		t.Fatalf("the long line was not recalled: %v", res)
	}
}

// TestCitationReadsBackContent: a passage whose lines end in spaces, tabs
// and CRLF is quoted as its citation reads back.
func TestCitationReadsBackContent(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "memory"), 0o755); err != nil {
		t.Fatal(err)
	}
	log := "# 2025-11-20\r\n\r\nThe okapi   \r\nlives in the forest\t \r\n"
	if err := os.WriteFile(filepath.Join(dir, "memory", "2025-11-20.md"), []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	ws := open(t, dir, nil)
	res, err := ws.Recall(context.Background(), "okapi", memoria.RecallOptions{Now: now})
	if err != nil || len(res) == 0 {
		t.Fatalf("no results (%v)", err)
	}
	lines, err := ws.Get(res[0].Source)
	if err != nil {
		t.Fatal(err)
	}
	if lines.Text != res[0].Content || !strings.Contains(lines.Text, "okapi\nlives") {
		t.Errorf("%s: content %q, lines %q", res[0].Source, res[0].Content, lines.Text)
	}
}

func sinceFor(q string) time.Time {
	if q == "" {
		return now.AddDate(0, 0, -60) // an empty query lists what the window holds
	}
	return time.Time{}
}

func TestDeletedFileLeavesRecall(t *testing.T) {
	dir := testworkspace.CopyExample(t)
	ws := open(t, dir, nil)
	ctx := context.Background()
	res, err := ws.Recall(ctx, "Marrakech", memoria.RecallOptions{Now: now, K: 1000})
	if err != nil || len(res) == 0 {
		t.Fatalf("no results (%v)", err)
	}
	for _, r := range res {
		if err := os.Remove(filepath.Join(dir, filepath.FromSlash(r.Cite().Path))); err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
	}
	res, err = ws.Recall(ctx, "Marrakech", memoria.RecallOptions{Now: now})
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 0 {
		t.Errorf("deleted files still recalled: %v", res[0].Source)
	}
}

func TestCorruptIndexRebuilt(t *testing.T) {
	dir := testworkspace.CopyExample(t)
	ws := open(t, dir, nil)
	ws.Close()
	idx := filepath.Join(dir, ".memory", "index.sqlite")
	data, err := os.ReadFile(idx)
	if err != nil {
		t.Fatal(err)
	}
	// Scribble over the middle of the file, as a disk error might.
	for i := len(data) / 3; i < len(data)/3+8192 && i < len(data); i++ {
		data[i] = 0xA5
	}
	copy(data, []byte("garbage, not a SQLite header"))
	if err := os.WriteFile(idx, data, 0o644); err != nil {
		t.Fatal(err)
	}
	var warnings []string
	var built string
	ws, err = memoria.Open(context.Background(), dir, memoria.Options{
		Warn:  func(m string) { warnings = append(warnings, m) },
		Built: func(reason string, _ memoria.Stats) { built = reason },
	})
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	if built != "corrupt" {
		t.Errorf("built because %q, want corrupt", built)
	}
	res, err := ws.Recall(context.Background(), "Marrakech", memoria.RecallOptions{Now: now, Lexical: true})
	if err != nil || len(res) == 0 {
		t.Errorf("rebuilt index: %d results, %v", len(res), err)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "rebuilding") {
		t.Errorf("warnings %q", warnings)
	}
}

// TestLexicalSaidOnce: a recall that cannot use its semantic channel (no
// vectors, no model) says so once through Warn, and SemanticOff says why;
// one asked to be lexical says nothing. Without the model, recall was
// lexical and nothing said so.
func TestLexicalSaidOnce(t *testing.T) {
	var warnings []string
	ws := open(t, testworkspace.CopyExample(t), func(m string) { warnings = append(warnings, m) })
	ctx := context.Background()
	if _, err := ws.Recall(ctx, "Marrakech", memoria.RecallOptions{Now: now, Lexical: true}); err != nil || len(warnings) != 0 || ws.SemanticOff() != "" {
		t.Fatalf("lexical on request: %v %q %q", err, warnings, ws.SemanticOff())
	}
	for range 3 {
		if _, err := ws.Recall(ctx, "Marrakech", memoria.RecallOptions{Now: now}); err != nil {
			t.Fatal(err)
		}
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "recall is lexical") || ws.SemanticOff() == "" {
		t.Errorf("warnings %q, SemanticOff %q", warnings, ws.SemanticOff())
	}
}

// TestBadInput: bad files are skipped with one warning each, never a panic,
// and nothing is written outside .memory/.
func TestBadInput(t *testing.T) {
	dir := t.TempDir()
	write := func(rel string, data []byte) {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("memory.md", []byte("# Core\n\n- Likes tea.\n"))
	write("memory/2025-01-01.md", []byte("# 2025-01-01\n\nbroken \xff\xfe\xfd utf-8 with a keyword zanzibar\n"))
	write("memory/2025-01-02.md", append([]byte("PNG\x00\x01\x02"), bytes.Repeat([]byte{0, 1, 2, 3}, 1000)...))
	write("memory/photo.png", []byte("\x89PNG\x00\x00"))
	big := bytes.Repeat([]byte("- a line of a very long log about nothing in particular\n"), 50<<20/56+1)
	write("memory/2025-01-03.md", big)
	write("memory/2025-01-04.md", []byte("## Retain\n- W @../../x: tries to escape\n- W @Good-Slug: fine\n"))
	write("memory/2025-01-05.md", []byte{})
	outside := filepath.Join(t.TempDir(), "secret.md")
	os.WriteFile(outside, []byte("outside secret quokka\n"), 0o644)
	if err := os.Symlink(outside, filepath.Join(dir, "memory", "2025-01-06.md")); err != nil {
		t.Fatal(err)
	}
	unreadable := filepath.Join(dir, "memory", "2025-01-07.md")
	write("memory/2025-01-07.md", []byte("hidden\n"))
	os.Chmod(unreadable, 0)
	before := snapshot(t, dir)

	var warnings []string
	ws := open(t, dir, func(m string) { warnings = append(warnings, m) })
	res, err := ws.Recall(context.Background(), "zanzibar", memoria.RecallOptions{Now: now})
	if err != nil || len(res) != 1 {
		t.Fatalf("invalid UTF-8 file: %d results, %v", len(res), err)
	}
	if res, _ := ws.Recall(context.Background(), "quokka", memoria.RecallOptions{Now: now}); len(res) != 0 {
		t.Error("a symlink out of the workspace was followed")
	}
	res, _ = ws.Recall(context.Background(), "escape", memoria.RecallOptions{Now: now})
	for _, r := range res {
		for _, e := range r.Entities {
			if strings.Contains(e, "/") || strings.Contains(e, "..") {
				t.Errorf("unsafe entity %q accepted", e)
			}
		}
	}
	all := strings.Join(warnings, "\n")
	for _, want := range []string{"2025-01-02.md: skipped: binary", "2025-01-03.md: skipped: too large", "2025-01-06.md: skipped: symlink points outside", "unsafe entity", "invalid UTF-8"} {
		if !strings.Contains(all, want) {
			t.Errorf("no warning %q in:\n%s", want, all)
		}
	}
	for _, w := range warnings {
		if strings.Contains(w, "\n") {
			t.Errorf("warning is not one line: %q", w)
		}
	}
	after := snapshot(t, dir)
	for p, sum := range before {
		if after[p] != sum {
			t.Errorf("%s changed", p)
		}
	}
	for p := range after {
		if _, ok := before[p]; !ok && !strings.HasPrefix(p, ".memory/") {
			t.Errorf("%s written outside .memory/", p)
		}
	}
}

// snapshot maps every file under dir to its content.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	m := map[string]string{}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Type()&fs.ModeSymlink != 0 {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		data, _ := os.ReadFile(p)
		m[filepath.ToSlash(rel)] = string(data)
		return nil
	})
	return m
}

func TestEmptyAndMissingWorkspace(t *testing.T) {
	empty := t.TempDir()
	ws := open(t, empty, nil)
	res, err := ws.Recall(context.Background(), "anything", memoria.RecallOptions{Now: now})
	if err != nil || len(res) != 0 {
		t.Errorf("empty workspace: %v, %v", res, err)
	}
	_, err = memoria.Open(context.Background(), filepath.Join(empty, "missing"), memoria.Options{})
	if err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("missing workspace: %v", err)
	}
	if _, err := os.Stat(filepath.Join(empty, "missing")); !os.IsNotExist(err) {
		t.Error("opening a missing workspace created it")
	}
}

// TestRecallNeverStale: whether a process recalls once (the CLI: the
// files are listed while recall runs, and recall runs again after a
// change) or many times (a server: a change monitor and in-memory
// ranking), every recall sees every change made before it.
func TestRecallNeverStale(t *testing.T) {
	ctx := context.Background()
	dir := testworkspace.CopyExample(t)
	log := filepath.Join(dir, "memory", "2025-11-30.md")
	write := func(word string) {
		t.Helper()
		if err := os.WriteFile(log, []byte("# 2025-11-30\n\nToday we talked about the "+word+".\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	found := func(ws *memoria.Workspace, word string) bool {
		t.Helper()
		res, err := ws.Recall(ctx, word, memoria.RecallOptions{Now: now, Lexical: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range res {
			if strings.Contains(r.Content, word) {
				return true
			}
		}
		return false
	}
	write("xylophone")
	open(t, dir, nil).Close() // the index now holds "xylophone"
	// One-shot processes, each opening the index anew.
	for _, word := range []string{"zeppelin", "quasar", "marimba"} {
		write(word)
		ws := open(t, dir, nil)
		if !found(ws, word) || found(ws, "xylophone") {
			t.Fatalf("one-shot recall missed the change to %q", word)
		}
		ws.Close()
	}
	// A long-lived process: the first recalls go the one-shot way, later
	// ones through the change monitor.
	ws := open(t, dir, nil)
	prev := "marimba"
	for i, word := range []string{"bassoon", "ocarina", "theremin", "kazoo", "banjo"} {
		write(word)
		if !found(ws, word) || found(ws, prev) {
			t.Fatalf("recall %d in a long-lived process missed the change to %q", i, word)
		}
		prev = word
	}
}

// TestConcurrentRecallWhileWriting: a long-lived workspace (as the MCP
// server holds it) answers recalls from several goroutines while the
// Markdown changes; every recall succeeds, and once writing stops the last
// change is found. Run with -race to check the in-memory state's locking.
func TestConcurrentRecallWhileWriting(t *testing.T) {
	ctx := context.Background()
	dir := testworkspace.CopyExample(t)
	ws := open(t, dir, nil)
	log := filepath.Join(dir, "memory", "2025-11-30.md")
	opts := memoria.RecallOptions{Now: now, Lexical: true, K: 10}
	done := make(chan struct{})
	errs := make(chan error, 4)
	for g := range 4 {
		go func() {
			queries := []string{"Marrakech", "who is Pete", "since last week", "what does Peter prefer", "harpsichord"}
			for i := 0; ; i++ {
				select {
				case <-done:
					errs <- nil
					return
				default:
				}
				if _, err := ws.Recall(ctx, queries[(g+i)%len(queries)], opts); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	for i := range 30 {
		text := fmt.Sprintf("# 2025-11-30\n\nPractised the harpsichord, take %d.\n", i)
		if err := os.WriteFile(log, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := ws.Recall(ctx, "harpsichord", opts); err != nil {
			t.Fatal(err)
		}
	}
	close(done)
	for range 4 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	res, err := ws.Recall(ctx, "harpsichord", opts)
	if err != nil {
		t.Fatal(err)
	}
	latest, stale := false, false
	for _, r := range res {
		latest = latest || strings.Contains(r.Content, "take 29.")
		stale = stale || strings.Contains(r.Content, "take 28.")
	}
	if !latest || stale {
		t.Fatalf("after the last write: latest found %v, an earlier version found %v", latest, stale)
	}
}

// TestRecallBounds: a huge K is taken as MaxK (it used to allocate for
// all of it and kill the process), and a query longer than MaxQueryBytes
// is refused with ErrInvalid instead of parsed for minutes.
func TestRecallBounds(t *testing.T) {
	ws := open(t, testworkspace.CopyExample(t), nil)
	ctx := context.Background()
	res, err := ws.Recall(ctx, "Peter", memoria.RecallOptions{Now: now, K: 1_000_000_000_000, Lexical: true})
	if err != nil || len(res) == 0 || len(res) > memoria.MaxK {
		t.Fatalf("huge K: %d results, %v", len(res), err)
	}
	_, err = ws.Recall(ctx, strings.Repeat("@Peter ", memoria.MaxQueryBytes/7+1), memoria.RecallOptions{Now: now})
	if !errors.Is(err, memoria.ErrInvalid) {
		t.Fatalf("long query: %v", err)
	}
}

// TestDamageFoundByAQuery: an index whose header is sound but whose
// full-text pages are damaged (a disk error) opens; the first recall that
// reads them finds the damage, and the index is rebuilt from the
// Markdown and answers, with one warning. Status and Sync repair the same
// way. It used to fail every command with "database disk image is
// malformed" and no advice.
func TestDamageFoundByAQuery(t *testing.T) {
	dir := testworkspace.CopyExample(t)
	ws := open(t, dir, nil)
	ws.Close()
	damageFullText(t, filepath.Join(dir, ".memory", "index.sqlite"))

	var warnings []string
	ws, err := memoria.Open(context.Background(), dir, memoria.Options{Warn: func(m string) { warnings = append(warnings, m) }})
	if err != nil {
		t.Fatalf("open with damaged pages: %v", err)
	}
	defer ws.Close()
	res, err := ws.Recall(context.Background(), "Marrakech", memoria.RecallOptions{Now: now, Lexical: true})
	if err != nil || len(res) == 0 {
		t.Fatalf("recall on a damaged index: %d results, %v", len(res), err)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "rebuilding") {
		t.Errorf("warnings %q, want one about rebuilding", warnings)
	}
	if res, err = ws.Recall(context.Background(), "Marrakech", memoria.RecallOptions{Now: now, Lexical: true}); err != nil || len(res) == 0 || len(warnings) != 1 {
		t.Errorf("second recall: %d results, %v, %d warnings", len(res), err, len(warnings))
	}
}

// TestOneFileLimit: the index, get and the writers share one limit
// (memory.MaxFileSize). A retain into a log over it, or one that would
// take a log over it, fails with a clear error and leaves the file as it
// was; it used to write up to 64 MB, into logs the index then skipped, so
// the fact was never recalled.
func TestOneFileLimit(t *testing.T) {
	dir := testworkspace.CopyExample(t)
	ws := open(t, dir, nil)
	ctx := context.Background()
	day := time.Date(2025, 12, 20, 0, 0, 0, 0, time.UTC)
	log := filepath.Join(dir, "memory", "2025-12-20.md")
	for _, size := range []int{memory.MaxFileSize - 10, memory.MaxFileSize + 1<<20} {
		body := "# 2025-12-20\n\n" + strings.Repeat("filler line of a very long day\n", size/31)
		if err := os.WriteFile(log, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := ws.Retain(ctx, []string{"W @Peter: Lives in Vienna."}, memoria.RetainOptions{Date: day, Now: now})
		if err == nil || !strings.Contains(err.Error(), "MB") {
			t.Errorf("retain into a log of %d MB: %v", size>>20, err)
		}
		if got, _ := os.ReadFile(log); string(got) != body {
			t.Errorf("a log of %d MB was changed", size>>20)
		}
	}
}

// TestIndexTruncatedUnderOpenWorkspace: a long-lived process (serve,
// watch) keeps its index open while something truncates the file in
// place. The next recall finds the damage, rebuilds from the Markdown and
// answers, with one warning. With the index memory-mapped, the first read
// past the new end of the file killed the process with SIGBUS.
func TestIndexTruncatedUnderOpenWorkspace(t *testing.T) {
	dir := testworkspace.CopyExample(t)
	var warnings []string
	ws := open(t, dir, func(m string) { warnings = append(warnings, m) })
	ctx := context.Background()
	opts := memoria.RecallOptions{Now: now, Lexical: true}
	for _, q := range []string{"Marrakech", "Peter prefers", "warelay crash"} {
		if res, err := ws.Recall(ctx, q, opts); err != nil || len(res) == 0 {
			t.Fatalf("recall %q before: %d results, %v", q, len(res), err)
		}
	}
	idx := filepath.Join(dir, ".memory", "index.sqlite")
	st, err := os.Stat(idx)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(idx, truncateTo(st.Size())); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"Marrakech", "Peter prefers", "warelay crash"} {
		res, err := ws.Recall(ctx, q, opts)
		if err != nil || len(res) == 0 {
			t.Fatalf("recall %q after truncation: %d results, %v (warnings %q)", q, len(res), err, warnings)
		}
	}
	// The recalls find the damage where they read a page that is gone;
	// what they read may still be in the page cache (it was, under load).
	// Status reads the index afresh: by then the damage is found and the
	// index rebuilt, once.
	if st, err := ws.Status(ctx); err != nil || st.Pending != 0 {
		t.Fatalf("status after truncation: %+v, %v", st, err)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "rebuilding") {
		t.Errorf("warnings %q, want one about rebuilding", warnings)
	}
}

var truncateTo = func(n int64) int64 { return n / 3 }

// TestLibraryErrors: the library's errors speak of its own options, never
// of CLI flags ("--since", "--kind"), and wrap sentinels a caller can
// test: ErrUnknownEntity from Recall as from Entity, ErrInvalid for every
// bad option.
func TestLibraryErrors(t *testing.T) {
	ws := open(t, testworkspace.CopyExample(t), nil)
	ctx := context.Background()
	for _, c := range []struct {
		o    memoria.RecallOptions
		want error
	}{
		{memoria.RecallOptions{Entities: []string{"Nobody"}}, memoria.ErrUnknownEntity},
		{memoria.RecallOptions{Entities: []string{"../etc"}}, memoria.ErrInvalid},
		{memoria.RecallOptions{Kinds: []string{"fact"}}, memoria.ErrInvalid},
		{memoria.RecallOptions{Since: now, Until: now.AddDate(0, 0, -3)}, memoria.ErrInvalid},
	} {
		c.o.Now = now
		_, err := ws.Recall(ctx, "Peter", c.o)
		if !errors.Is(err, c.want) || !errors.Is(err, memoria.ErrInvalid) || strings.Contains(fmt.Sprint(err), "--") {
			t.Errorf("%+v: %v, want %v", c.o, err, c.want)
		}
	}
	if _, err := ws.Entity(ctx, "Nobody"); !errors.Is(err, memoria.ErrUnknownEntity) {
		t.Errorf("Entity: %v", err)
	}
	if _, err := memoria.ParseTimeBound("soon", now); !errors.Is(err, memoria.ErrInvalid) || strings.Contains(err.Error(), "--") {
		t.Errorf("ParseTimeBound: %v", err)
	}
	s, err1 := memoria.ParseTimeBound("last week", now)
	u, err2 := memoria.ParseUntilBound("last week", now)
	if err1 != nil || err2 != nil || s.Format(time.DateOnly) != "2025-11-24" || u.Format(time.DateOnly) != "2025-11-30" {
		t.Errorf("last week: %v %v, %v %v", s, err1, u, err2)
	}
}

// TestPassagesReadWhole: a passage widened at recall starts where its
// sentence starts when the line before it continues it (it used to start
// "full movement, no pain…"), and context nests cited list items under
// their citation instead of rendering "- - …".
func TestPassagesReadWhole(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "memory"), 0o755)
	os.MkdirAll(filepath.Join(dir, "bank", "entities"), 0o755)
	os.WriteFile(filepath.Join(dir, "memory", "2025-09-25.md"), []byte("# 2025-09-25\n\n"+
		"The check-up was at ten. The vet looked at the paw and said it was fine,\n"+
		"with full movement and no pain at all. The gerbil weighs ninety grams and\n"+
		"eats seeds twice a day.\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "bank", "entities", "Pip.md"), []byte("# Pip\n\n- Gerbil, born 2024.\n- Diet: seeds and a carrot slice on Sundays. Weight: ninety grams, checked\n  monthly at the pet shop.\n- Hates the car; goes by bike basket.\n- Stays with the neighbours when we travel.\n"), 0o644)
	ws := open(t, dir, nil)
	res, err := ws.Recall(context.Background(), "full movement", memoria.RecallOptions{Now: now, Lexical: true, K: 1})
	if err != nil || len(res) == 0 {
		t.Fatalf("recall: %v %v", res, err)
	}
	if !strings.HasPrefix(res[0].Content, "The check-up") {
		t.Errorf("passage starts mid-sentence: %q", res[0].Content)
	}
	// A list item's continuation line is not taken without the line it
	// continues ("    kibble a day in two meals." opened a result).
	res, err = ws.Recall(context.Background(), "who keeps Pip when we travel", memoria.RecallOptions{Now: now, Lexical: true, K: 1})
	if err != nil || len(res) == 0 || strings.HasPrefix(res[0].Content, " ") {
		t.Errorf("result opens with a continuation line: %v %v", res, err)
	}
	tc, err := ws.Context(context.Background(), "carrot diet", memoria.ContextOptions{Recall: memoria.RecallOptions{Now: now, Lexical: true}})
	if err != nil {
		t.Fatal(err)
	}
	if md := tc.Markdown(); strings.Contains(md, "- - ") || !strings.Contains(md, "\n  - Diet: seeds") {
		t.Errorf("context renders list items as:\n%s", tc.Markdown())
	}
}

// damageFullText overwrites the full-text table's pages of the index at
// idx with junk, as a disk error might: the header stays sound, so the
// index opens.
func damageFullText(t *testing.T, idx string) {
	t.Helper()
	db, err := sql.Open("sqlite", idx)
	if err != nil {
		t.Fatal(err)
	}
	var pageSize int64
	var pages []int64
	if err := db.QueryRow("PRAGMA page_size").Scan(&pageSize); err != nil {
		t.Fatal(err)
	}
	rows, err := db.Query(`SELECT pageno FROM dbstat WHERE name = 'items_fts_data'`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var p int64
		rows.Scan(&p)
		pages = append(pages, p)
	}
	rows.Close()
	db.Close()
	if len(pages) == 0 {
		t.Fatal("no full-text pages found")
	}
	f, err := os.OpenFile(idx, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	junk := bytes.Repeat([]byte{0xA5}, int(pageSize))
	for _, p := range pages {
		if _, err := f.WriteAt(junk, (p-1)*pageSize); err != nil {
			t.Fatal(err)
		}
	}
	f.Close()

}

// TestDoctor: Doctor finds a damaged index, files in the index folder that
// are not the index's and temporary files of an interrupted write, and
// says what to run for each; on a sound workspace those checks pass.
func TestDoctor(t *testing.T) {
	dir := testworkspace.CopyExample(t)
	ws := open(t, dir, nil)
	ctx := context.Background()
	check := func(want map[string]bool) {
		t.Helper()
		fs, err := ws.Doctor(ctx)
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]memoria.Finding{}
		for _, f := range fs {
			got[f.Check] = f
		}
		for name, ok := range want {
			f, found := got[name]
			if !found || f.OK != ok || (!ok && f.Fix == "") {
				t.Errorf("%s: %+v, want ok=%v with a fix when not", name, f, ok)
			}
		}
	}
	check(map[string]bool{"index": true, "freshness": true, "skipped files": true, "index folder": true, "temporary files": true})
	os.WriteFile(filepath.Join(dir, ".memory", "index.sqlite.lex"), []byte("old"), 0o644)
	os.WriteFile(filepath.Join(dir, "memory", ".2025-11-27.md.4242.tmp"), []byte("half"), 0o644)
	os.WriteFile(filepath.Join(dir, "memory", "2025-12-24.md"), []byte("# 2025-12-24\n\nNew.\n"), 0o644)
	check(map[string]bool{"freshness": false, "index folder": false, "temporary files": false})
	ws.Close()
	damageFullText(t, filepath.Join(dir, ".memory", "index.sqlite"))
	ws = open(t, dir, nil)
	check(map[string]bool{"index": false})
}

// TestReflectedTextIsNotEvidence: after reflect, recall and context return
// none of its markers, summary lines or bookkeeping, and a fact written in
// a log and copied into bank/ is one result (one entity entry) citing
// both. After a reflect, "tell me about Clara" used to return the begin
// marker and "12 facts in the daily logs…", and `entity` listed every
// copied opinion twice.
func TestReflectedTextIsNotEvidence(t *testing.T) {
	dir := testworkspace.CopyExample(t)
	ws := open(t, dir, nil)
	ctx := context.Background()
	if _, err := ws.Reflect(ctx, memoria.ReflectOptions{Now: now}); err != nil {
		t.Fatal(err)
	}
	generated := regexp.MustCompile(`memoria:begin|memoria:end|facts in the daily logs|^ *- (supports|contradicts|last_updated|superseded):|Summary \(memoria\)`)
	for _, q := range []string{"tell me about Clara", "what do I know about Biscuit", "Peter", "supports contradicts", "facts in the daily logs newest first", "Objective facts about the world"} {
		res, err := ws.Recall(ctx, q, memoria.RecallOptions{Now: now, Lexical: true, K: 20})
		if err != nil {
			t.Fatal(err)
		}
		ids := map[string]bool{}
		for _, r := range res {
			if generated.MatchString(r.Content) {
				t.Errorf("%q: generated text recalled: %s %q", q, r.Source, r.Content)
			}
			if ids[r.ID] {
				t.Errorf("%q: fact %s twice", q, r.ID)
			}
			ids[r.ID] = true
		}
	}
	rep, err := ws.Entity(ctx, "Peter")
	if err != nil {
		t.Fatal(err)
	}
	ids, folded := map[string]bool{}, 0
	for _, o := range rep.Opinions {
		if ids[o.ID] {
			t.Errorf("opinion %s listed twice", o.ID)
		}
		ids[o.ID] = true
		if len(o.Also) > 0 {
			folded++
			if !strings.HasPrefix(o.Source, "bank/opinions.md#") {
				t.Errorf("a copied opinion is listed from %s, not from bank/opinions.md (also %v)", o.Source, o.Also)
			}
		}
	}
	if folded == 0 {
		t.Error("no opinion of the log was folded into its copy in bank/opinions.md")
	}
}

// TestReflectWithTheModel: with the embedding model installed, reflect
// matches an opinion fact to the opinion it paraphrases though they share
// few words ("On WhatsApp he wants short messages; anything lengthy should
// be sent as a document" supports "Prefers concise replies (<1500 chars) on
// WhatsApp; long content goes into files" instead of starting an opinion of
// its own: cosine 0.67 with all-MiniLM-L6-v2, 0.63 with USE-lite, the next
// opinion 0.30 and 0.44); with Lexical it does not.
func TestReflectWithTheModel(t *testing.T) {
	if _, err := memoria.DefaultEmbedder(); err != nil {
		t.Skipf("the embedding model is not installed: %v", err)
	}
	count := func(lexical bool) int {
		dir := testworkspace.CopyExample(t)
		log := "# 2025-12-01\n\n## Retain\n- O(c=0.8) @Peter: On WhatsApp he wants short messages; anything lengthy should be sent as a document.\n"
		if err := os.WriteFile(filepath.Join(dir, "memory", "2025-12-01.md"), []byte(log), 0o644); err != nil {
			t.Fatal(err)
		}
		ws := open(t, dir, nil)
		if _, err := ws.Reflect(context.Background(), memoria.ReflectOptions{Now: now, Lexical: lexical}); err != nil {
			t.Fatal(err)
		}
		data, _ := os.ReadFile(filepath.Join(dir, "bank", "opinions.md"))
		return strings.Count(string(data), "\n- O(")
	}
	lexical, semantic := count(true), count(false)
	if semantic >= lexical {
		t.Errorf("opinions: %d with the model, %d without; the model should match paraphrases into existing opinions", semantic, lexical)
	}
}

// TestFunctionWordsAloneFindNothing: when none of a query's own words
// (its words that are not function words) is in the memory, the function
// words do not make results: "tell me about Bob", with no Bob anywhere,
// used to return lines that share only "tell" or "about".
func TestFunctionWordsAloneFindNothing(t *testing.T) {
	ws := open(t, testworkspace.CopyExample(t), nil)
	for _, q := range []string{"tell me about Bob", "what do I know about Zanzibar?", "who is Hortensia"} {
		res, err := ws.Recall(context.Background(), q, memoria.RecallOptions{Now: now, Lexical: true})
		if err != nil || len(res) != 0 {
			t.Errorf("%q: %d results (first %v), %v", q, len(res), func() string {
				if len(res) > 0 {
					return res[0].Source
				}
				return ""
			}(), err)
		}
	}
	if res, err := ws.Recall(context.Background(), "tell me about Clara", memoria.RecallOptions{Now: now, Lexical: true}); err != nil || len(res) == 0 {
		t.Errorf("tell me about Clara: %d results, %v", len(res), err)
	}
}

// TestAliasesAsPeopleWriteThem: an entity page that names an alias in
// prose makes a question about that alias an entity question, and a short
// form of a name ("Rob" for Robert) names the entity when it begins only
// one entity's name. "What do I know about Lenny?" used to find nothing
// about Helena.
func TestAliasesAsPeopleWriteThem(t *testing.T) {
	ws := open(t, workspaceOf(t, map[string]string{
		"bank/entities/Helena.md": "# Helena\n\nMy sister, also called Lenny. Lives in Graz and teaches chemistry.\n",
		"bank/entities/Robert.md": "# Robert Marsh\n\nNeighbour at number 12; keeps bees.\n",
		"memory/2026-01-10.md":    "# 2026-01-10\n\n## Retain\n- W @Helena: Started a new job at the Graz university lab.\n- W @Robert: Sold two jars of honey to the bakery.\n",
	}), nil)
	for q, want := range map[string]string{
		"what do I know about Lenny?": "Helena",
		"tell me about Rob":           "Robert",
	} {
		res, err := ws.Recall(context.Background(), q, memoria.RecallOptions{Now: now, Lexical: true, K: 3})
		if err != nil || len(res) == 0 || !slices.Contains(res[0].Entities, want) {
			t.Errorf("%q: %v, %v; want a result about %s first", q, res, err, want)
		}
	}
}

// wantFirst checks that a lexical recall of q at now puts a result that
// contains want first.
func wantFirst(t *testing.T, ws *memoria.Workspace, now time.Time, q, want string) {
	t.Helper()
	wantWithin(t, ws, now, q, want, 1)
}

// wantWithin checks that a lexical recall of q at now puts a result that
// contains want among the first n. (Where a case the hand-set lifts put
// first is second under the fitted ranking, the test says so: the
// development sets' cross-validated figures, not one case, decide the
// weights.)
func wantWithin(t *testing.T, ws *memoria.Workspace, now time.Time, q, want string, n int) {
	t.Helper()
	res, err := ws.Recall(context.Background(), q, memoria.RecallOptions{Now: now, Lexical: true, K: 3})
	if err != nil || !slices.ContainsFunc(res[:min(n, len(res))], func(r memoria.Result) bool { return strings.Contains(r.Content, want) }) {
		t.Errorf("%s %q: %v, %v; want %q among the first %d", now.Format(time.DateOnly), q, res, err, want, n)
	}
}

// TestOngoingEvent: a question about now ("where is Ana right now?") is
// answered by the fact whose event range covers today ("in Lisbon Mar
// 1–6"), which shares no word with it; one with a topic of its own ("what
// laptop does Ana use these days?") is not answered by a trip under way.
func TestOngoingEvent(t *testing.T) {
	ws := open(t, workspaceOf(t, map[string]string{"memory/2026-02-20.md": "# 2026-02-20\n\n## Retain\n" +
		"- W @Ana: Ana will be in Lisbon Mar 1–6, 2026 for the robotics conference.\n" +
		"- W @Ana: Ana flies to Berlin for a workshop Mar 10–12, 2026.\n" +
		"- W @Ana: Ana lives in Porto, near the river.\n" +
		"- W @Ana: Ana's laptop is a ThinkPad X1.\n"}), nil)
	// The trips come second under the fitted ranking (the ongoing
	// channel's vote; the laptop fact, which matches the name best, first).
	for _, c := range []struct {
		now, q, want string
		within       int
	}{
		{"2026-03-04", "where is Ana right now?", "Lisbon", 2},
		{"2026-03-11", "what is Ana doing at the moment?", "Berlin", 2},
		{"2026-03-04", "what laptop does Ana use these days?", "ThinkPad", 1},
	} {
		n, _ := time.Parse(time.DateOnly, c.now)
		wantWithin(t, ws, n, c.q, c.want, c.within)
	}
}

// TestWindowTopicMatters: a recent-window question with a topic ("what
// failed in the last two weeks?") puts the window's lines about the topic
// first; a line of the window that shares only the question's function
// words ("what a day") used to come first.
func TestWindowTopicMatters(t *testing.T) {
	ws := open(t, workspaceOf(t, map[string]string{
		"memory/2026-03-20.md": "# 2026-03-20\n\nLunch with Mira, what a lovely long day that was, and what a view from the terrace.\n",
		"memory/2026-03-24.md": "# 2026-03-24\n\nSpent the morning on the quarterly report.\n\nThe backup job failed twice overnight; the disk was full.\n",
		"memory/2026-01-10.md": "# 2026-01-10\n\nThe old backup job failed on the NAS back in January.\n",
	}), nil)
	n, _ := time.Parse(time.DateOnly, "2026-03-27")
	wantFirst(t, ws, n, "what failed in the last two weeks?", "backup job failed twice")
}

// TestHeldBeforeTheWindow: a question about what held during a past
// window ("what car was I driving in early October?") whose window says
// nothing of it is answered by what was said before it; the window's
// lines about other things came first. A window that does speak of the
// topic still comes first.
func TestHeldBeforeTheWindow(t *testing.T) {
	ws := open(t, workspaceOf(t, map[string]string{
		"memory/2025-09-22.md": "# 2025-09-22\n\nMy car is a 2009 Volvo estate; the garage says the exhaust needs doing.\n",
		"memory/2025-10-03.md": "# 2025-10-03\n\nMade green tomato chutney with the carrier bag of tomatoes Jim left.\n",
		"memory/2025-10-06.md": "# 2025-10-06\n\nTook on plot 9 at the allotments, with a greenhouse.\n",
		"memory/2025-10-30.md": "# 2025-10-30\n\nCollected my new car, a grey Renault Zoe; the Volvo went to a man from the angling club.\n",
		"memory/2025-11-04.md": "# 2025-11-04\n\nThe Zoe's range is fine for the choir run.\n",
	}), nil)
	n, _ := time.Parse(time.DateOnly, "2026-01-30")
	for q, want := range map[string]string{
		"What car was I driving in early October?":   "2009 Volvo",
		"What did I do at the allotment in October?": "plot 9",
	} {
		wantFirst(t, ws, n, q, want)
	}
	// Second under the fitted ranking, after the Volvo line (which
	// matches "car" and "driving" alike; the Zoe line is closer to the
	// window: held_before).
	wantWithin(t, ws, n, "What car was I driving in early November?", "Zoe", 2)
}

// TestEventAnchoredWindow: "the week after the launch" is a window next to
// the day the memory records the launch on; the lines of that week come
// first. The phrase was read as no window at all.
func TestEventAnchoredWindow(t *testing.T) {
	ws := open(t, workspaceOf(t, map[string]string{
		"memory/2026-02-25.md": "# 2026-02-25\n\nFixed the flaky deploy script before the big day.\n",
		"memory/2026-03-03.md": "# 2026-03-03\n\n## Retain\n- W @harbor: We launched harbor v2 today, after a long night.\n",
		"memory/2026-03-05.md": "# 2026-03-05\n\nFixed the login bug that the launch traffic exposed.\n",
		"memory/2026-03-20.md": "# 2026-03-20\n\nFixed the export bug in the reports page.\n",
	}), nil)
	n, _ := time.Parse(time.DateOnly, "2026-04-30")
	for q, want := range map[string]string{
		"what did we fix the week after the launch?":  "login bug",
		"what did we fix the week before the launch?": "deploy script",
	} {
		wantFirst(t, ws, n, q, want)
	}
}

// TestEventAnchoredOnItsDate: the event an anchored window is next to is
// on the day the lines that date it give ("the field day is Sat 17
// October", written a month before, and "Field day on Sat 17 October"
// after it), not on the day the first line that names it was written.
func TestEventAnchoredOnItsDate(t *testing.T) {
	ws := open(t, workspaceOf(t, map[string]string{
		"memory/2026-09-20.md": "# 2026-09-20\n\n- Jayden cleaned out the honey house.\n",
		"memory/2026-09-21.md": "# 2026-09-21\n\n- The club confirmed the field day at the showground.\n\n## Retain\n- W: The club's field day is on Sat 17 October 2026 at the showground.\n- B: Agreed to give a talk at the field day.\n",
		"memory/2026-10-16.md": "# 2026-10-16\n\n- Jayden labelled 200 jars for the stall.\n",
		"memory/2026-10-19.md": "# 2026-10-19\n\n- The field day went off, about 60 people.\n\n## Retain\n- B: Field day on Sat 17 October 2026, about 60 people came.\n",
	}), nil)
	n, _ := time.Parse(time.DateOnly, "2026-11-21")
	wantFirst(t, ws, n, "what did Jayden do the day before the field day?", "200 jars")
}

// TestToldLater: a line of a log that tells what happened on a day of the
// window, written days later ("Wednesday I went through …" in Monday's
// log), answers a question about the window as a line written that day
// does. Such a line had only the day it was written, outside the window.
// A month-end summary tells a day nine days later ("Awa payment 20 May"
// on the 29th): only a week after the window had been read.
func TestToldLater(t *testing.T) {
	for _, tc := range []struct {
		name, now, question, want string
		files                     map[string]string
	}{
		{"days later", "2026-10-23T08:00", "What was wrong with the hives I went through on the 14th?", "chalkbrood", map[string]string{
			"memory/2026-07-27.md": "# 2026-07-27\n\n- Went through the hives at Redgum, all queenright and heavy.\n",
			"memory/2026-10-14.md": "# 2026-10-14\n\n- Paperwork all day, the BAS for Kerry.\n",
			"memory/2026-10-19.md": "# 2026-10-19\n\n- Forgot to write this down: Wednesday I went through the Mundowie hives and found chalkbrood in two of them.\n",
		}},
		{"a fortnight later", "2026-06-01T09:00", "How much did Awa Dairy pay for milk on 20 May?", "71,904", map[string]string{
			"memory/2026-04-30.md": "# 2026-04-30\n\nApril month-end\n- Awa Dairy milk payment 20 April: $68,110.40\n",
			"memory/2026-05-18.md": "# 2026-05-18\n\n- Rang Awa Dairy about the milk payment date.\n",
			"memory/2026-05-29.md": "# 2026-05-29\n\nMay month-end\n- Awa Dairy milk payment 20 May: $71,904.33\n",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ws := open(t, workspaceOf(t, tc.files), nil)
			n, _ := time.Parse("2006-01-02T15:04", tc.now)
			wantFirst(t, ws, n, tc.question, tc.want)
		})
	}
}

// TestEventLongerThanWindow: a fact whose event spans a month ("in
// August") is not in a weekend's window for that; what was told of the
// weekend comes first. The month had counted as the weekend.
func TestEventLongerThanWindow(t *testing.T) {
	ws := open(t, workspaceOf(t, map[string]string{
		"memory/2026-08-24.md": "# 2026-08-24\n\n- The ute carked it Saturday at the servo in Bellbrae; towed to Dazza's.\n",
		"memory/2026-08-27.md": "# 2026-08-27\n\n## Retain\n- S @Ute: The ute got a new fuel pump in August, $680\n",
	}), nil)
	n, _ := time.Parse("2006-01-02T15:04", "2026-08-24T21:00")
	// Second under the fitted ranking: the month-long event is outside
	// the window (outside_window), but names the ute better.
	wantWithin(t, ws, n, "What happened with the ute last weekend?", "carked", 2)
}

// TestRetainEmbeds: once the index holds vectors, a retained fact is
// embedded by the retain itself, so semantic recall finds it at once; it
// used to wait for the next `memoria index`.
func TestRetainEmbeds(t *testing.T) {
	model, err := memoria.DefaultEmbedder()
	if err != nil {
		t.Skipf("the embedding model is not installed: %v", err)
	}
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "memory"), 0o755)
	os.WriteFile(filepath.Join(dir, "memory", "2026-01-10.md"), []byte("# 2026-01-10\n\nWalked the dog along the canal.\n"), 0o644)
	ws := open(t, dir, nil)
	ctx := context.Background()
	if _, err := ws.Embed(ctx, model, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := ws.Retain(ctx, []string{"W @Mara: Mara adopted a grey cat called Pebble."}, memoria.RetainOptions{Date: now, Now: now}); err != nil {
		t.Fatal(err)
	}
	st, err := ws.Status(ctx)
	if err != nil || st.Embedded != st.Texts || st.Texts < 2 {
		t.Errorf("after retain: %d of %d texts embedded, %v", st.Embedded, st.Texts, err)
	}
}

// TestVectorLagSaid: a recall whose semantic channel may miss items
// indexed since the last embedding (a file written by hand) says so, once,
// and SemanticLag counts them; once they are embedded it is 0. Vectors
// that lagged used to be silent.
func TestVectorLagSaid(t *testing.T) {
	model, err := memoria.DefaultEmbedder()
	if err != nil {
		t.Skipf("the embedding model is not installed: %v", err)
	}
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "memory"), 0o755)
	os.WriteFile(filepath.Join(dir, "memory", "2026-01-10.md"), []byte("# 2026-01-10\n\nWalked the dog along the canal.\n"), 0o644)
	var warnings []string
	ws := open(t, dir, func(m string) { warnings = append(warnings, m) })
	ctx := context.Background()
	if _, err := ws.Embed(ctx, model, nil); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "memory", "2026-01-11.md"), []byte("# 2026-01-11\n\nBaked rye bread with the new starter.\n\nFixed the bike's back brake.\n"), 0o644)
	for range 2 {
		if _, err := ws.Recall(ctx, "bread", memoria.RecallOptions{Now: now}); err != nil {
			t.Fatal(err)
		}
	}
	if ws.SemanticLag() != 2 || len(warnings) != 1 || !strings.Contains(warnings[0], "2 items") {
		t.Errorf("lag %d, warnings %q", ws.SemanticLag(), warnings)
	}
	if _, err := ws.EmbedNew(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := ws.Recall(ctx, "bread", memoria.RecallOptions{Now: now}); err != nil || ws.SemanticLag() != 0 {
		t.Errorf("after embedding: lag %d, %v", ws.SemanticLag(), err)
	}
}

// TestContextFloor: context keeps only what is about the query: a question
// nothing in memory speaks of gets core memory and no recalled lines (it
// used to fill the budget with the best of nothing), and a question with
// an answer gets lines that speak of it.
func TestContextFloor(t *testing.T) {
	ws := open(t, testworkspace.CopyExample(t), nil)
	ctx := context.Background()
	o := memoria.ContextOptions{Budget: 4000, Recall: memoria.RecallOptions{Now: now, Lexical: true}}
	tc, err := ws.Context(ctx, "what is the airspeed velocity of an unladen swallow?", o)
	if err != nil || len(tc.Results) != 0 {
		t.Errorf("unrelated question: %d results (%v), %v", len(tc.Results), tc.Results, err)
	}
	tc, err = ws.Context(ctx, "which vet does Biscuit see?", o)
	if err != nil || len(tc.Results) == 0 {
		t.Fatalf("related question: %v, %v", tc.Results, err)
	}
	for _, r := range tc.Results {
		l := strings.ToLower(r.Content)
		if !strings.Contains(l, "vet") && !strings.Contains(l, "biscuit") && !slices.Contains(r.Entities, "Biscuit") {
			t.Errorf("unrelated result for the vet question: %s %q", r.Source, r.Content)
		}
	}
}

// workspaceOf writes files (workspace-relative path → text) into a new
// folder and returns it.
func workspaceOf(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for rel, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestDamagedVectorsEmbeddedAgain: a vector store found damaged is started
// afresh; recall answers lexically, saying why, while the texts are
// embedded again in the background, after which semantic recall is back.
// It used to stay off until someone ran `memoria index`.
func TestDamagedVectorsEmbeddedAgain(t *testing.T) {
	model, err := memoria.DefaultEmbedder()
	if err != nil {
		t.Skipf("the embedding model is not installed: %v", err)
	}
	dir := workspaceOf(t, map[string]string{"memory/2026-01-10.md": "# 2026-01-10\n\nWalked the dog along the canal.\n\nBaked rye bread with the new starter.\n"})
	ctx := context.Background()
	ws, err := memoria.Open(ctx, dir, memoria.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ws.Embed(ctx, model, nil); err != nil {
		t.Fatal(err)
	}
	ws.Close()
	vectors := filepath.Join(dir, ".memory", "index.sqlite.vectors")
	os.Remove(vectors + "-wal")
	os.Remove(vectors + "-shm")
	if err := os.WriteFile(vectors, bytes.Repeat([]byte{0xA5}, 8192), 0o644); err != nil {
		t.Fatal(err)
	}
	ws = open(t, dir, func(string) {})
	if _, err := ws.Recall(ctx, "bread", memoria.RecallOptions{Now: now}); err != nil {
		t.Fatal(err)
	}
	// The recall says why it ran lexically, unless it ran again after the
	// freshness check (a file compared by content, a commit meanwhile) and
	// the texts of this small workspace were embedded again by then: its
	// last run was semantic, and says nothing.
	if why := ws.SemanticOff(); why != "" && !strings.Contains(why, "damaged") {
		t.Fatalf("SemanticOff %q", why)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		st, err := ws.Status(ctx)
		if err == nil && st.Embedded == st.Texts && st.Texts > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("not embedded again within 30 s: %+v %v", st, err)
		}
		time.Sleep(20 * time.Millisecond) // polling interval, not synchronisation
	}
	if _, err := ws.Recall(ctx, "bread", memoria.RecallOptions{Now: now}); err != nil || ws.SemanticOff() != "" {
		t.Errorf("after embedding again: %q, %v", ws.SemanticOff(), err)
	}
}

// TestEmbedderFromURL: with MEMORIA_EMBED_URL set, the embedding model is
// that OpenAI-compatible server's, probed for its dimension.
func TestEmbedderFromURL(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Model string   `json:"model"`
			Input []string `json:"input"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || r.URL.Path != "/v1/embeddings" || req.Model != "tiny" {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		type item struct {
			Index     int       `json:"index"`
			Embedding []float32 `json:"embedding"`
		}
		var data []item
		for i := range req.Input {
			data = append(data, item{i, []float32{1, float32(i), 0}})
		}
		json.NewEncoder(w).Encode(map[string]any{"data": data})
	}))
	defer srv.Close()
	t.Setenv("MEMORIA_EMBED_URL", srv.URL)
	t.Setenv("MEMORIA_EMBED_MODEL", "tiny")
	e, err := memoria.DefaultEmbedder()
	if err != nil {
		t.Fatal(err)
	}
	if e.Dim() != 3 || !strings.Contains(e.Identity(), "tiny") {
		t.Errorf("dim %d, identity %q", e.Dim(), e.Identity())
	}
	t.Setenv("MEMORIA_EMBED_MODEL", "other")
	if _, err := memoria.DefaultEmbedder(); err == nil || !strings.Contains(err.Error(), "MEMORIA_EMBED_URL") {
		t.Errorf("a server that refuses the model: %v", err)
	}
}
