package main

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"memoria/ingest"
	"memoria/internal/testworkspace"
)

// A server under test: `memoria serve --http` (the built binary, its own
// process, as in production), asked through its page's API, which runs
// the same Workspace calls as the MCP tools.
type pageServer struct {
	t    *testing.T
	base string
}

func startPageServer(t *testing.T, ws string, extra ...string) pageServer {
	t.Helper()
	return pageServer{t: t, base: strings.TrimSuffix(startHTTP(t, ws, extra...), "/mcp")}
}

// get asks the page's API and returns the status code and decoded body.
func (s pageServer) get(path string, q url.Values) (int, map[string]any) {
	s.t.Helper()
	resp, err := http.Get(s.base + path + "?" + q.Encode())
	if err != nil {
		s.t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		s.t.Fatal(err)
	}
	var out map[string]any
	if err := json.Unmarshal(body, &out); err != nil {
		s.t.Fatalf("GET %s: %d %.300s: %v", path, resp.StatusCode, body, err)
	}
	return resp.StatusCode, out
}

// recalls reports whether a recall for word answers with a result that
// says it; any other answer is described in why.
func (s pageServer) recalls(word string) (ok bool, why string) {
	s.t.Helper()
	code, out := s.get("/api/recall", url.Values{"q": {word}, "lexical": {"1"}})
	if code != http.StatusOK {
		return false, fmt.Sprintf("status %d: %v", code, out["error"])
	}
	results, _ := out["results"].([]any)
	for _, r := range results {
		if m, _ := r.(map[string]any); strings.Contains(fmt.Sprint(m["content"]), word) {
			return true, ""
		}
	}
	return false, fmt.Sprintf("%d results, none with %q", len(results), word)
}

// appendFact appends a typed fact to the day's log, as an agent writing
// the Markdown directly does.
func appendFact(t *testing.T, ws, day, fact string) {
	t.Helper()
	p := filepath.Join(ws, "memory", day+".md")
	f, err := os.OpenFile(p, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fmt.Fprintf(f, "\n- %s\n", fact); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// indexHolds checks, from this process, that the index file at the
// workspace's path (the one every other process opens) holds the
// content of rel as it is on disk.
func indexHolds(ws, rel string) error {
	data, err := os.ReadFile(filepath.Join(ws, filepath.FromSlash(rel)))
	if err != nil {
		return err
	}
	path := filepath.Join(ws, ".memory", "index.sqlite")
	if _, err := os.Stat(path); err != nil {
		return err
	}
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro&_pragma=busy_timeout(10000)")
	if err != nil {
		return err
	}
	defer db.Close()
	var hash string
	if err := db.QueryRow(`SELECT hash FROM files WHERE path = ?`, rel).Scan(&hash); err != nil {
		return fmt.Errorf("index %s: %s: %w", path, rel, err)
	}
	if want := ingest.HashBytes(data); hash != want {
		return fmt.Errorf("index %s holds %s at hash %s, the file's is %s", path, rel, hash, want)
	}
	return nil
}

// overwrite writes random bytes over a file from offset on (its length
// kept), as a stray write or a bad disk does.
func overwrite(t *testing.T, path string, offset int64) {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Size() <= offset {
		t.Fatalf("%s: %d bytes, nothing past %d to damage", path, fi.Size(), offset)
	}
	junk := make([]byte, fi.Size()-offset)
	rand.Read(junk)
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteAt(junk, offset); err != nil {
		t.Fatal(err)
	}
}

// TestServerHealsDamagedIndexFiles: whatever happens to the derived files
// under a running server (its -shm truncated or overwritten, its -wal
// overwritten, .memory/ deleted, the file replaced by another process's
// rebuild, the manifest garbled), the server heals within the call that
// finds it, whichever call that is: every recall answers right at once,
// what was written after the damage included, a retain (MCP) writes the
// Markdown and the index, and the index at the path, the one other
// processes use, ends up holding the Markdown. Status never says the
// index is up to date when it is not.
func TestServerHealsDamagedIndexFiles(t *testing.T) {
	needBinary(t)
	const (
		walHeader = 32  // bytes (sqlite.org/walformat.html)
		shmHeader = 136 // the wal-index header, both copies and the checkpoint info
	)
	idx := func(ws string) string { return filepath.Join(ws, ".memory", "index.sqlite") }
	for _, c := range []struct {
		name   string
		damage func(t *testing.T, ws string)
	}{
		{"truncate -shm", func(t *testing.T, ws string) {
			if err := os.Truncate(idx(ws)+"-shm", 0); err != nil {
				t.Fatal(err)
			}
		}},
		{"random bytes into -shm", func(t *testing.T, ws string) { overwrite(t, idx(ws)+"-shm", 0) }},
		{"random bytes into -shm past its header", func(t *testing.T, ws string) { overwrite(t, idx(ws)+"-shm", shmHeader) }},
		{"random bytes into -wal past its header", func(t *testing.T, ws string) { overwrite(t, idx(ws)+"-wal", walHeader) }},
		{"random bytes into -wal and -shm", func(t *testing.T, ws string) {
			overwrite(t, idx(ws)+"-wal", 0)
			overwrite(t, idx(ws)+"-shm", 0)
		}},
		{"delete .memory", func(t *testing.T, ws string) {
			if err := os.RemoveAll(filepath.Join(ws, ".memory")); err != nil {
				t.Fatal(err)
			}
		}},
		{"delete .memory, another process rebuilds", func(t *testing.T, ws string) {
			if err := os.RemoveAll(filepath.Join(ws, ".memory")); err != nil {
				t.Fatal(err)
			}
			if out, err := memoriaCmd(context.Background(), "", nil, "index", "-w", ws, "--no-embed").CombinedOutput(); err != nil {
				t.Fatalf("index: %v\n%s", err, out)
			}
		}},
		{"manifest garbled by another process", func(t *testing.T, ws string) {
			db, err := sql.Open("sqlite", "file:"+idx(ws)+"?_pragma=busy_timeout(10000)")
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if _, err := db.Exec(`UPDATE meta SET value = 'not a manifest' || char(10) WHERE key = 'manifest'`); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		// The first call to meet the damage: status, retain (MCP), or recall.
		for _, first := range []string{"status", "retain", "recall"} {
			t.Run(c.name+"/first "+first, func(t *testing.T) {
				t.Parallel()
				serverHeals(t, first, c.damage)
			})
		}
	}
}

// serverHeals damages a serving server's derived files and checks what
// TestServerHealsDamagedIndexFiles promises, with first the first call
// that meets the damage.
func serverHeals(t *testing.T, first string, damage func(t *testing.T, ws string)) {
	ws := testworkspace.CopyExample(t)
	srv := startPageServer(t, ws)
	const day = "2025-11-27"
	rel := "memory/" + day + ".md"
	// The server indexes, and commits a write of its own, so that the
	// -wal holds frames.
	if ok, why := srv.recalls("Biscuit"); !ok {
		t.Fatalf("before the damage: recall: %s", why)
	}
	appendFact(t, ws, day, "W @Peter: Keeps a kayak named Wavelet.")
	if ok, why := srv.recalls("Wavelet"); !ok {
		t.Fatalf("before the damage: recall: %s", why)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	client := sdk.NewClient(&sdk.Implementation{Name: "memoria-test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &sdk.StreamableClientTransport{Endpoint: srv.base + "/mcp"}, nil)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	defer cs.Close()

	damage(t, ws)

	words := []string{"Wavelet", "Biscuit", "Kelpie"}
	switch first {
	case "status":
		// It may fail, or heal and say so; "up to date" must be true of
		// the index at the path, the one other processes read.
		if code, st := srv.get("/api/status", nil); code == http.StatusOK && st["pending"] == 0.0 {
			if err := indexHolds(ws, rel); err != nil {
				t.Errorf("status says the index is up to date, but: %v", err)
			}
		}
	case "retain":
		// It writes the Markdown and must update the index too.
		res := callTool(t, cs, "retain", map[string]any{"facts": []string{"W @Peter: Named the dinghy Driftwood."}, "date": day})
		if res.IsError {
			t.Errorf("retain: %s", resultText(res))
		}
		words = append(words, "Driftwood")
	case "recall":
		if ok, why := srv.recalls("Wavelet"); !ok {
			t.Errorf("the first recall after the damage: %s", why)
		}
	}
	appendFact(t, ws, day, "W @Peter: Calls the tender Kelpie.")
	for _, word := range words {
		if ok, why := srv.recalls(word); !ok {
			t.Errorf("after the damage: recall %q: %s", word, why)
		}
	}
	if err := indexHolds(ws, rel); err != nil {
		t.Errorf("after recalls: %v", err)
	}
	if code, st := srv.get("/api/status", nil); code != http.StatusOK || st["pending"] != 0.0 {
		t.Errorf("status after the recalls: %d %v", code, st)
	}
}

// TestServerReadsAfterDirectWrite: writers rewrite logs behind a running
// server's back (a temporary file renamed over the log, or the log
// rewritten in place), each followed at once by a recall of the new
// word it wrote. Every recall must find it: the server checks freshness
// exactly before it answers. Half the writers give their log the mtime a
// file system with one-second timestamps would (writes within a second
// then leave the same size and mtime on new content); the recalls of all
// writers overlap, as an agent's concurrent tool calls do.
func TestServerReadsAfterDirectWrite(t *testing.T) {
	needBinary(t)
	for _, c := range []struct {
		name  string
		extra []string
	}{
		{"serve", nil},
		{"serve --watch", []string{"--watch"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			ws := testworkspace.CopyExample(t)
			srv := startPageServer(t, ws, c.extra...)
			if ok, why := srv.recalls("Biscuit"); !ok {
				t.Fatalf("recall: %s", why)
			}
			const writers, rounds = 4, 75
			var mu sync.Mutex
			var misses []string
			var wg sync.WaitGroup
			for w := range writers {
				wg.Go(func() {
					p := filepath.Join(ws, "memory", fmt.Sprintf("2025-12-1%d.md", w))
					for i := range rounds {
						// Words of one length: every rewrite has the same size.
						word := fmt.Sprintf("zephyr%d%04d", w, i)
						text := []byte(fmt.Sprintf("# 2025-12-1%d\n\n- W @Peter: The code word is %s.\n", w, word))
						target := p
						if i%2 == 0 {
							target = p + ".tmp"
						}
						err := os.WriteFile(target, text, 0o644)
						if err == nil && w%2 == 0 {
							second := time.Now().Truncate(time.Second)
							err = os.Chtimes(target, second, second)
						}
						if err == nil && target != p {
							err = os.Rename(target, p)
						}
						if err != nil {
							t.Error(err)
							return
						}
						if ok, why := srv.recalls(word); !ok {
							mu.Lock()
							misses = append(misses, fmt.Sprintf("writer %d round %d (%s): %s", w, i, map[bool]string{true: "rename", false: "in place"}[target != p], why))
							mu.Unlock()
						}
					}
				})
			}
			wg.Wait()
			if len(misses) > 0 {
				t.Errorf("%d of %d recalls right after a write missed it; first: %s", len(misses), writers*rounds, misses[0])
			}
		})
	}
}
