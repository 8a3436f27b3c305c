package team_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"memoria/internal/pgtest"
	"memoria/internal/testworkspace"
	"memoria/team"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

var now = time.Date(2025, 12, 1, 9, 0, 0, 0, time.UTC)

// secretWorkspace is a small workspace whose every line says "zanzibar".
func secretWorkspace(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for p, text := range map[string]string{
		"memory.md":              "# Core\n\n- Zanzibar vault code is 7741.\n",
		"memory/2025-11-20.md":   "# 2025-11-20\n\nMet @Bravo about the zanzibar contract.\n\n## Retain\n- W @Bravo: Bravo owns the zanzibar account.\n",
		"bank/entities/Bravo.md": "# Bravo\n\nBravo is the zanzibar client, reached on WhatsApp.\n",
		"memory/2025-11-21.md":   "# 2025-11-21\n\nWhatsApp zanzibar group created.\n",
	} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, p), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

type client struct {
	t     *testing.T
	url   string
	token string
}

// call sends a request and returns the status code and the body.
func (c client) call(method, path string, body any) (int, string) {
	c.t.Helper()
	var r io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		r = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, c.url+path, r)
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func (c client) recall(req team.RecallRequest) (int, []team.Result, string) {
	c.t.Helper()
	code, body := c.call("POST", team.PathRecall, req)
	var out struct{ Results []team.Result }
	if code == 200 {
		if err := json.Unmarshal([]byte(body), &out); err != nil {
			c.t.Fatalf("recall: %v: %s", err, body)
		}
	}
	return code, out.Results, body
}

// TestTeamIsolation serves two workspaces from one database and tries,
// with a token for the first, everything a client could to reach the
// second: recall, get, status, retain, entity filters, crafted
// workspaces and paths. Nothing of the second may come back, not even
// whether it exists; a token for both finds both, each result naming its
// workspace.
func TestTeamIsolation(t *testing.T) {
	ctx := context.Background()
	alpha, bravo := testworkspace.CopyExample(t), secretWorkspace(t)
	cfg := team.Config{
		Index:      pgtest.NewAppDatabase(t),
		Workspaces: map[string]string{"alpha": alpha, "bravo": bravo},
		Tokens: []team.Token{
			{Name: "a", SHA256: team.HashToken("token-a"), Read: []string{"alpha"}, Write: []string{"alpha"}},
			{Name: "a-reader", SHA256: team.HashToken("token-a-ro"), Read: []string{"alpha"}},
			{Name: "all", SHA256: team.HashToken("token-all"), Read: []string{"*"}},
		},
	}
	srv, err := team.Open(ctx, cfg, team.Options{Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	hs := httptest.NewServer(srv)
	defer hs.Close()
	a := client{t, hs.URL, "token-a"}
	// Bravo's text says "zanzibar" and "7741"; its name and folder may
	// come back only as the client sent them (an echo in an error).
	leak := func(what, body string) {
		t.Helper()
		if strings.Contains(strings.ToLower(body), "zanzibar") || strings.Contains(body, "7741") {
			t.Errorf("%s: token a sees workspace bravo: %s", what, body)
		}
	}

	for _, tok := range []string{"", "token-x", "token-a "} {
		c := client{t, hs.URL, tok}
		if code, _ := c.call("GET", team.PathStatus, nil); code != 401 && !(tok == "token-a " && code == 200) {
			t.Errorf("token %q: status %d, want 401", tok, code)
		}
	}
	code, res, body := a.recall(team.RecallRequest{Query: "zanzibar vault code WhatsApp Bravo", K: 100})
	if code != 200 || len(res) == 0 {
		t.Fatalf("recall: %d %s", code, body)
	}
	for _, r := range res {
		if r.Workspace != "alpha" {
			t.Errorf("result of workspace %q", r.Workspace)
		}
	}
	leak("recall", body)
	// Asking for bravo, by name, by case, or a workspace that does not
	// exist: the same answer, which says nothing about bravo.
	var answers []string
	for _, name := range []string{"bravo", "Bravo", "nosuch", "alpha/../bravo", "*"} {
		code, _, body := a.recall(team.RecallRequest{Query: "zanzibar", Workspaces: []string{name}})
		answers = append(answers, fmt.Sprintf("%d %s", code, strings.ReplaceAll(body, name, "X")))
		if code != 404 {
			t.Errorf("recall in %q: %d %s", name, code, body)
		}
		code, body = a.call("POST", team.PathGet, team.GetRequest{Workspace: name, Ref: "memory.md#L3"})
		if code != 404 {
			t.Errorf("get in %q: %d %s", name, code, body)
		}
		leak("get "+name, body)
		for path, req := range map[string]any{
			team.PathRetain:  team.RetainRequest{Workspace: name, Facts: []string{"W: a fact"}},
			team.PathReflect: team.ReflectRequest{Workspace: name, DryRun: true},
			team.PathCore:    team.CoreRequest{Workspace: name, Block: "Facts", Text: "x"},
		} {
			if code, body := a.call("POST", path, req); code != 404 {
				t.Errorf("%s in %q: %d %s", path, name, code, body)
			}
		}
	}
	for _, ans := range answers[1:] {
		if ans != answers[0] {
			t.Errorf("bravo is told apart from a workspace that does not exist: %q vs %q", ans, answers[0])
		}
	}
	for _, ref := range []string{"../" + filepath.Base(bravo) + "/memory.md#L3", bravo + "/memory.md#L3", "memory/../../" + filepath.Base(bravo) + "/memory.md", "/etc/passwd", "memory.md#L1-L99999"} {
		code, body := a.call("POST", team.PathGet, team.GetRequest{Workspace: "alpha", Ref: ref})
		if code == 200 && ref != "memory.md#L1-L99999" {
			t.Errorf("get %q: %d %s", ref, code, body)
		}
		// An error may say the path that was asked for, whose temporary
		// folder has a random name: it once held bravo's secret digits.
		path, _, _ := strings.Cut(ref, "#")
		leak("get "+ref, strings.ReplaceAll(body, path, ""))
	}
	code, body = a.call("GET", team.PathStatus, nil)
	if code != 200 || !strings.Contains(body, `"alpha"`) {
		t.Errorf("status: %d %s", code, body)
	}
	leak("status", body)
	_, body = a.call("GET", team.PathWorkspaces, nil)
	leak("workspaces", body)
	code, _, body = a.recall(team.RecallRequest{Query: "contract", Entities: []string{"Bravo"}})
	if code != 400 {
		t.Errorf("recall about bravo's entity: %d %s", code, body)
	}
	leak("entity filter", body)
	for _, q := range []string{"' OR 1=1 --", "vault\x00code", strings.Repeat("vault code ", 2000), "memoria.workspaces", "') || to_tsquery('zanzibar"} {
		_, _, body := a.recall(team.RecallRequest{Query: q})
		leak("crafted query", body)
	}

	// Writing: a reader may not; the writer's fact is found at once.
	ro := client{t, hs.URL, "token-a-ro"}
	if code, body := ro.call("POST", team.PathRetain, team.RetainRequest{Workspace: "alpha", Facts: []string{"W @Peter: Peter's new pager number is 5521."}}); code != 403 {
		t.Errorf("retain with a read-only token: %d %s", code, body)
	}
	if code, body := a.call("POST", team.PathRetain, team.RetainRequest{Workspace: "alpha", Facts: []string{"W @Peter: Peter's new pager number is 5521."}}); code != 200 {
		t.Fatalf("retain: %d %s", code, body)
	}
	for path, req := range map[string]any{
		team.PathReflect: team.ReflectRequest{Workspace: "alpha", DryRun: true},
		team.PathCore:    team.CoreRequest{Workspace: "alpha", Block: "Standing rules while Pete is away", Text: "Pager first, then WhatsApp."},
	} {
		if code, body := ro.call("POST", path, req); code != 403 {
			t.Errorf("%s with a read-only token: %d %s", path, code, body)
		}
		if code, body := a.call("POST", path, req); code != 200 {
			t.Errorf("%s: %d %s", path, code, body)
		}
	}
	_, res, _ = ro.recall(team.RecallRequest{Query: "Peter pager number", K: 3})
	if len(res) == 0 || !strings.Contains(res[0].Content, "5521") {
		t.Errorf("the retained fact is not found first: %+v", res)
	}

	// A token for both: each result names its workspace, and cites lines
	// that hold its text.
	all := client{t, hs.URL, "token-all"}
	_, res, body = all.recall(team.RecallRequest{Query: "WhatsApp", K: 50})
	seen := map[string]bool{}
	for _, r := range res {
		seen[r.Workspace] = true
		dir := map[string]string{"alpha": alpha, "bravo": bravo}[r.Workspace]
		code, lines := all.call("POST", team.PathGet, team.GetRequest{Workspace: r.Workspace, Ref: r.Source})
		if code != 200 || dir == "" {
			t.Errorf("get %s %s: %d %s", r.Workspace, r.Source, code, lines)
		}
	}
	if !seen["alpha"] || !seen["bravo"] {
		t.Errorf("a token for both found %v: %s", seen, body)
	}

	// A second server on the same database answers the same.
	srv2, err := team.Open(ctx, cfg, team.Options{Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	defer srv2.Close()
	hs2 := httptest.NewServer(srv2)
	defer hs2.Close()
	for _, q := range []string{"WhatsApp", "Peter pager number", "deploy fly"} {
		_, r1, b1 := all.recall(team.RecallRequest{Query: q})
		_, r2, b2 := client{t, hs2.URL, "token-all"}.recall(team.RecallRequest{Query: q})
		// The answers' freshness says when each server last synced.
		j1, _ := json.Marshal(r1)
		j2, _ := json.Marshal(r2)
		if string(j1) != string(j2) {
			t.Errorf("two servers answer %q differently:\n%s\n%s", q, b1, b2)
		}
	}
}
