package workspace

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func fakeEnv(vars map[string]string, home string) Env {
	return Env{
		Getenv:  func(k string) string { return vars[k] },
		HomeDir: func() (string, error) { return home, nil },
	}
}

func write(t *testing.T, p, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestResolve(t *testing.T) {
	home := t.TempDir()
	cfgHome := t.TempDir()
	write(t, filepath.Join(cfgHome, ".openclaw", "openclaw.json"), `{
  // OpenClaw config is JSON5-ish
  agents: {
    defaults: { workspace: "/srv/agent/ws", model: 'x', },
  },
  /* trailing comma */ gateway: {port: 18789,},
}`)
	tests := []struct {
		name, flag string
		vars       map[string]string
		home       string
		wantDir    string
		wantBy     string
	}{
		{"flag wins", "/a/b", map[string]string{EnvWorkspace: "/env"}, cfgHome, "/a/b", "--workspace"},
		{"env next", "", map[string]string{EnvWorkspace: "/env"}, cfgHome, "/env", "$MEMORIA_WORKSPACE"},
		{"openclaw config", "", nil, cfgHome, "/srv/agent/ws", "OpenClaw config"},
		{"default", "", nil, home, filepath.Join(home, ".openclaw", "workspace"), "OpenClaw default"},
		{"tilde", "~/notes", nil, home, filepath.Join(home, "notes"), "--workspace"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := Resolve(tt.flag, fakeEnv(tt.vars, tt.home))
			if err != nil {
				t.Fatal(err)
			}
			if res.Dir != tt.wantDir || !strings.HasPrefix(res.By, tt.wantBy) {
				t.Errorf("got %+v, want %s by %s", res, tt.wantDir, tt.wantBy)
			}
		})
	}
}

// TestResolveCurrentFolder: the current folder, or the nearest folder above
// it, that is a workspace comes after the flag and the environment and
// before OpenClaw's config. It was never considered: `cd ws && memoria
// recall x` searched ~/.openclaw/workspace.
func TestResolveCurrentFolder(t *testing.T) {
	home := t.TempDir()
	write(t, filepath.Join(home, ".openclaw", "openclaw.json"), `{agents: {defaults: {workspace: "/srv/agent/ws"}}}`)
	ws := t.TempDir()
	write(t, filepath.Join(ws, "memory", "2025-11-27.md"), "# 2025-11-27\n")
	deep := filepath.Join(ws, "memory", "sub", "deeper")
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	plain := t.TempDir()
	for _, c := range []struct {
		name, wd, flag string
		vars           map[string]string
		wantDir, by    string
	}{
		{"in the workspace", ws, "", nil, ws, "the current folder"},
		{"below it", deep, "", nil, ws, "a folder above the current one"},
		{"flag first", ws, "/a/b", nil, "/a/b", "--workspace"},
		{"env first", ws, "", map[string]string{EnvWorkspace: "/env"}, "/env", "$MEMORIA_WORKSPACE"},
		{"not in one", plain, "", nil, "/srv/agent/ws", "OpenClaw config"},
	} {
		env := fakeEnv(c.vars, home)
		env.Getwd = func() (string, error) { return c.wd, nil }
		res, err := Resolve(c.flag, env)
		if err != nil {
			t.Fatal(err)
		}
		if res.Dir != c.wantDir || !strings.HasPrefix(res.By, c.by) {
			t.Errorf("%s: got %+v, want %s by %s", c.name, res, c.wantDir, c.by)
		}
	}
}

// TestCheckMarked: a folder with none of a workspace's marks (empty, or a
// code repository) is refused with ErrNotFound; each mark is enough.
func TestCheckMarked(t *testing.T) {
	repo := t.TempDir()
	write(t, filepath.Join(repo, "go.mod"), "module x\n")
	write(t, filepath.Join(repo, "README.md"), "# x\n")
	for _, dir := range []string{t.TempDir(), repo} {
		if err := CheckMarked(dir); !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "memoria init") {
			t.Errorf("%s: %v", dir, err)
		}
	}
	for _, mark := range []string{"memory.md", "MEMORY.md", "memory/", "bank/", ".memory/"} {
		dir := t.TempDir()
		if strings.HasSuffix(mark, "/") {
			os.Mkdir(filepath.Join(dir, mark), 0o755)
		} else {
			write(t, filepath.Join(dir, mark), "# x\n")
		}
		if err := CheckMarked(dir); err != nil {
			t.Errorf("%s: %v", mark, err)
		}
	}
}

// TestOpenClawConfigJSON5: OpenClaw's config is JSON5. Configs written
// the way its documentation writes them are read; the regular expressions
// used before failed on a colon inside a string ("tone: friendly").
func TestOpenClawConfigJSON5(t *testing.T) {
	for _, c := range []struct{ name, cfg string }{
		{"colon in a string", `{ agents: { defaults: { workspace: "/w", systemPrompt: "Be brief, tone: friendly" } } }`},
		{"comma and brace in a string", `{ agents: { defaults: { systemPrompt: 'a, b } c', workspace: '/w' } } }`},
		{"comments everywhere", "// top\n{\n  /* agents */ agents: { // defaults\n    defaults: { workspace: \"/w\", },\n  },\n}\n"},
		{"url with //", `{ gateway: { url: "http://localhost:18789//x" }, agents: { defaults: { workspace: "/w" } } }`},
		{"JSON5 numbers and quotes", `{ gateway: { port: 0x4965, ratio: .5, max: +Infinity }, 'agents': { "defaults": { workspace: "/w", }, }, }`},
		{"escaped quotes", `{ agents: { defaults: { name: "say \"hi: there\"", workspace: "/w" } } }`},
		{"multi-line string", "{ agents: { defaults: { note: 'one \\\n two', workspace: \"/w\" } } }"},
	} {
		got, err := openClawWorkspace([]byte(c.cfg))
		if err != nil || got != "/w" {
			t.Errorf("%s: %q, %v", c.name, got, err)
		}
	}
}

func TestResolveBadConfig(t *testing.T) {
	home := t.TempDir()
	write(t, filepath.Join(home, ".openclaw", "openclaw.json"), `{agents: [`)
	_, err := Resolve("", fakeEnv(nil, home))
	if err == nil || !strings.Contains(err.Error(), "openclaw.json") {
		t.Errorf("err = %v, want one naming the config file", err)
	}
}

func TestInitNeverOverwrites(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "bank", "world.md"), "mine\n")
	res, err := Init(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "bank", "world.md")); string(got) != "mine\n" {
		t.Errorf("world.md overwritten: %q", got)
	}
	if len(res.Kept) != 1 || res.Kept[0] != "bank/world.md" {
		t.Errorf("kept = %v", res.Kept)
	}
	for _, p := range []string{"memory.md", "bank/opinions.md", "bank/experience.md"} {
		if _, err := os.Stat(filepath.Join(dir, p)); err != nil {
			t.Errorf("%s not created: %v", p, err)
		}
	}
	again, err := Init(dir)
	if err != nil || len(again.Created) != 0 {
		t.Errorf("second init created %v (err %v)", again.Created, err)
	}
}

func TestInitKeepsUppercaseMemory(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "MEMORY.md"), "core\n")
	if _, err := Init(dir); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "memory.md")); !errors.Is(err, os.ErrNotExist) {
		t.Error("memory.md created next to an existing MEMORY.md")
	}
}

func TestListConfined(t *testing.T) {
	dir := t.TempDir()
	outside := t.TempDir()
	write(t, filepath.Join(dir, "memory.md"), "x\n")
	write(t, filepath.Join(dir, "memory", "2025-01-02.md"), "x\n")
	write(t, filepath.Join(dir, "memory", "notes.txt"), "not markdown\n")
	write(t, filepath.Join(dir, "memory", ".hidden", "x.md"), "x\n")
	write(t, filepath.Join(dir, "bank", "entities", "Peter.md"), "x\n")
	write(t, filepath.Join(dir, "elsewhere.md"), "not in memory/ or bank/\n")
	write(t, filepath.Join(outside, "secret.md"), "x\n")
	must(t, os.Symlink(filepath.Join(outside, "secret.md"), filepath.Join(dir, "memory", "2025-01-03.md")))
	must(t, os.Symlink(filepath.Join(dir, "memory", "2025-01-02.md"), filepath.Join(dir, "memory", "2025-01-04.md")))
	must(t, os.Symlink(outside, filepath.Join(dir, "bank", "linked")))
	files, skipped, err := List(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range files {
		got = append(got, f.Rel)
	}
	want := "bank/entities/Peter.md memory.md memory/2025-01-02.md memory/2025-01-04.md"
	if strings.Join(got, " ") != want {
		t.Errorf("files = %v, want %s", got, want)
	}
	if len(skipped) != 1 || skipped[0].Rel != "memory/2025-01-03.md" {
		t.Errorf("skipped = %+v", skipped)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestListMissingWorkspace(t *testing.T) {
	_, _, err := List(filepath.Join(t.TempDir(), "nope"))
	if !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "memoria init") {
		t.Errorf("err = %v", err)
	}
}

func TestPathConfinement(t *testing.T) {
	dir := t.TempDir()
	outside := t.TempDir()
	must(t, os.Symlink(outside, filepath.Join(dir, "out")))
	for _, rel := range []string{"../x.md", "/etc/passwd", "memory/../../x", "out/x.md", "", `memory\..\..\x`} {
		if _, err := Path(dir, rel); err == nil {
			t.Errorf("Path(%q) allowed", rel)
		}
	}
	for _, rel := range []string{"memory/2025-01-01.md", "bank/entities/Peter.md", "memory/../memory.md"} {
		if _, err := Path(dir, rel); err != nil {
			t.Errorf("Path(%q): %v", rel, err)
		}
	}
}

func TestReadLines(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "memory", "2025-11-27.md"), "one\r\ntwo  \t\r\nthree\u00a0\r\nfour")
	write(t, filepath.Join(dir, "memory", "2025-11-28.md"), "\uFEFFbad \xff\xfe bytes\n")
	tests := []struct{ ref, want, src string }{
		{"memory/2025-11-27.md#L2", "two", "memory/2025-11-27.md#L2"},
		{"memory/2025-11-27.md#L2-L3", "two\nthree", "memory/2025-11-27.md#L2-L3"},
		{"memory/2025-11-27.md#L3-9", "three\nfour", "memory/2025-11-27.md#L3-L4"},
		{"memory/2025-11-27.md", "one\ntwo\nthree\nfour", "memory/2025-11-27.md#L1-L4"},
		{"memory/2025-11-28.md#L1", "bad \uFFFD bytes", "memory/2025-11-28.md#L1"},
	}
	for _, tt := range tests {
		l, err := ReadLines(dir, tt.ref)
		if err != nil {
			t.Fatalf("%s: %v", tt.ref, err)
		}
		if l.Text != tt.want || l.Source.String() != tt.src {
			t.Errorf("%s: got %q (%s), want %q (%s)", tt.ref, l.Text, l.Source, tt.want, tt.src)
		}
	}
	if _, err := ReadLines(dir, "memory/2025-11-27.md#L9"); !errors.Is(err, ErrNoLines) {
		t.Errorf("past the end: %v", err)
	}
	if _, err := ReadLines(dir, "../etc/passwd#L1"); err == nil {
		t.Error("escape allowed")
	}
}
