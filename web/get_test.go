package web_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAPIGetSymlinkIntoIndexDirNotReadable: /api/get serves memory files
// and nothing a symlink among them leads to (memory/x.md →
// ../.memory/index.sqlite returned the SQLite bytes), and reads back what
// recall cites, whatever the file is called (a name with "#" was cited but
// could not be read back).
func TestAPIGetSymlinkIntoIndexDirNotReadable(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	outside := filepath.Join(t.TempDir(), "passwd")
	for p, text := range map[string]string{
		"memory.md":            "# Core\n",
		"memory/meeting #3.md": "# Meeting 3\n\nThe quarterly budget is forty thousand.\n",
		outside:                "root:x:0:0:OUTSIDE-SECRET\n",
	} {
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, filepath.FromSlash(p))
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ws := open(t, dir) // writes .memory/index.sqlite
	for link, to := range map[string]string{
		"memory/x.md": "../.memory/index.sqlite",
		"bank/y.md":   filepath.Join(dir, ".memory", "index.sqlite"),
		"memory/o.md": outside,
	} {
		p := filepath.Join(dir, filepath.FromSlash(link))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(to, p); err != nil {
			t.Fatal(err)
		}
	}
	ts := serve(t, ws, "")
	for _, ref := range []string{"memory/x.md", "memory/x.md#L1", "bank/y.md#L1-L3", "memory/o.md"} {
		code, body, _ := call(t, ts.Client(), "GET", ts.URL+"/api/get?ref="+url.QueryEscape(ref), "", nil)
		if code != http.StatusBadRequest || !strings.Contains(body, "not a memory file") || strings.Contains(body, "SQLite") || strings.Contains(body, "SECRET") {
			t.Errorf("get %s: %d %s", ref, code, body)
		}
	}

	code, body, _ := call(t, ts.Client(), "GET", ts.URL+"/api/recall?q="+url.QueryEscape("quarterly budget"), "", nil)
	var rec struct {
		Results []struct {
			Source string `json:"source"`
		} `json:"results"`
	}
	if code != http.StatusOK || json.Unmarshal([]byte(body), &rec) != nil || len(rec.Results) == 0 {
		t.Fatalf("recall: %d %s", code, body)
	}
	for _, r := range rec.Results {
		if strings.Contains(body, "SQLite") || strings.Contains(body, "SECRET") {
			t.Errorf("recall found the index or a file outside: %s", body)
		}
		code, got, _ := call(t, ts.Client(), "GET", ts.URL+"/api/get?ref="+url.QueryEscape(r.Source), "", nil)
		if code != http.StatusOK {
			t.Errorf("get %s, as recall cites it: %d %s", r.Source, code, got)
		}
	}
	if !strings.Contains(body, `"source":"memory/meeting #3.md#L3"`) {
		t.Errorf("recall did not cite the meeting: %s", body)
	}
}
