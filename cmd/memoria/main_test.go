package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"memoria/embed/uselite"
	"memoria/internal/testworkspace"
)

// cli runs one command line in-process and returns the exit code, stdout
// and stderr. The environment is empty and the home folder is temporary,
// so no real configuration is read.
func cli(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	return cliIn(t, "", args...)
}

func TestHelpAndUnknownCommand(t *testing.T) {
	code, out, _ := cli(t, "help")
	if code != exitOK || !strings.Contains(out, "recall") || !strings.Contains(out, "Exit codes") {
		t.Errorf("help: code %d, output %q", code, out)
	}
	code, _, errOut := cli(t, "frobnicate")
	if code != exitUsage || !strings.Contains(errOut, "unknown command") {
		t.Errorf("unknown command: code %d, stderr %q", code, errOut)
	}
}

func TestMissingWorkspace(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nope")
	for _, cmd := range []string{"recall", "status", "index", "get"} {
		args := []string{cmd, "--workspace", missing}
		if cmd == "recall" {
			args = append(args, "anything")
		}
		if cmd == "get" {
			args = append(args, "memory.md#L1")
		}
		code, out, errOut := cli(t, args...)
		if code != exitNoSpace {
			t.Errorf("%s: exit %d, want %d (stderr %q)", cmd, code, exitNoSpace, errOut)
		}
		if strings.Count(strings.TrimSpace(errOut), "\n") != 0 || !strings.Contains(errOut, "memoria init") {
			t.Errorf("%s: want one line that says what to do, got %q", cmd, errOut)
		}
		if out != "" {
			t.Errorf("%s: stdout %q", cmd, out)
		}
		if _, err := os.Stat(missing); err == nil {
			t.Errorf("%s created the missing workspace", cmd)
		}
	}
}

// cliIn runs a command line with the current folder set to wd ("": the
// current folder plays no part), an empty environment and a home folder
// of its own.
func cliIn(t *testing.T, wd string, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	home := t.TempDir()
	e := &env{
		stdout: &out, stderr: &errOut, stdin: strings.NewReader(""),
		getenv: func(string) string { return "" },
		home:   func() (string, error) { return home, nil },
	}
	if wd != "" {
		e.getwd = func() (string, error) { return wd, nil }
	}
	code := run(context.Background(), e, args)
	return code, out.String(), errOut.String()
}

// TestGlobalFlagsBeforeCommand: --workspace/-w, --index and --json work
// before the command too, as in git or docker. They used to give
// `unknown command "-w"`.
func TestGlobalFlagsBeforeCommand(t *testing.T) {
	ws := testworkspace.CopyExample(t)
	for _, args := range [][]string{
		{"-w", ws, "status"},
		{"--workspace", ws, "status"},
		{"--workspace=" + ws, "status"},
		{"-w", ws, "--json", "status"},
		{"--json", "-w", ws, "recall", "--k", "2", "Peter"},
		{"-w", ws, "recall", "Peter", "--k", "1"},
	} {
		code, out, errOut := cli(t, args...)
		if code != exitOK || out == "" {
			t.Errorf("%q: exit %d, stderr %q", args, code, errOut)
		}
		if args[len(args)-1] == "status" && strings.Contains(strings.Join(args, " "), "--json") && !json.Valid([]byte(out)) {
			t.Errorf("%q: not JSON: %q", args, out)
		}
	}
	for _, args := range [][]string{{"-w"}, {"-w", ws}, {"--nope", "status"}} {
		if code, _, errOut := cli(t, args...); code != exitUsage || errOut == "" {
			t.Errorf("%q: exit %d, stderr %q; want %d", args, code, errOut, exitUsage)
		}
	}
}

// TestVersion: `memoria version`, `--version` and `version --json` report
// the build and whether the model is installed.
func TestVersion(t *testing.T) {
	for _, args := range [][]string{{"version"}, {"--version"}} {
		code, out, _ := cli(t, args...)
		if code != exitOK || !strings.Contains(out, "memoria ") || !strings.Contains(out, "go1.") || !strings.Contains(out, "model ") {
			t.Errorf("%q: exit %d, %q", args, code, out)
		}
	}
	code, out, _ := cli(t, "version", "--json")
	var b buildInfo
	if code != exitOK || json.Unmarshal([]byte(out), &b) != nil || b.Go == "" || b.Model == "" || b.ModelPath == "" {
		t.Errorf("version --json: exit %d, %q", code, out)
	}
}

// TestWorkspaceFromCurrentFolder: with no flag and no environment, the
// current folder, or the nearest above it, is the workspace when it is
// one, and status says which rule chose it. It used to search
// ~/.openclaw/workspace.
func TestWorkspaceFromCurrentFolder(t *testing.T) {
	ws := testworkspace.CopyExample(t)
	for wd, by := range map[string]string{ws: "the current folder", filepath.Join(ws, "bank", "entities"): "a folder above the current one"} {
		code, out, errOut := cliIn(t, wd, "status")
		if code != exitOK || !strings.Contains(out, ws+" (chosen by "+by+")") {
			t.Errorf("status in %s: exit %d, %q %q", wd, code, out, errOut)
		}
	}
	code, out, _ := cliIn(t, ws, "recall", "--k", "1", "Marrakech")
	if code != exitOK || !strings.Contains(out, "Marrakech") {
		t.Errorf("recall in the workspace: exit %d, %q", code, out)
	}
}

// TestNotAWorkspace: a folder that is not a workspace (empty, or a code
// repository) named with --workspace is refused with exit 3 and a hint,
// and gets no .memory/ folder. It used to be given one silently.
func TestNotAWorkspace(t *testing.T) {
	repo := t.TempDir()
	os.WriteFile(filepath.Join(repo, "go.mod"), []byte("module x\n"), 0o644)
	for _, dir := range []string{t.TempDir(), repo} {
		for _, args := range [][]string{{"status"}, {"recall", "x"}, {"index"}, {"retain", "W Something."}} {
			code, _, errOut := cli(t, append(args, "-w", dir)...)
			if code != exitNoSpace || !strings.Contains(errOut, "memoria init") {
				t.Errorf("%q in %s: exit %d, %q", args, dir, code, errOut)
			}
		}
		if _, err := os.Stat(filepath.Join(dir, ".memory")); err == nil {
			t.Errorf("%s: .memory/ was created", dir)
		}
	}
	if code, _, errOut := cli(t, "init", "-w", repo); code != exitOK {
		t.Fatalf("init: exit %d, %q", code, errOut)
	}
	if code, _, errOut := cli(t, "status", "-w", repo); code != exitOK {
		t.Errorf("status after init: exit %d, %q", code, errOut)
	}
}

// TestIndexNotCommitted: after `memoria init` and an index, `git add -A`
// of the workspace stages no file of .memory/ (init wrote no .gitignore,
// and a `git add -A` committed the index). An index opened in a workspace
// made by hand gets the same .gitignore.
func TestIndexNotCommitted(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git is not installed")
	}
	byInit := t.TempDir()
	if code, _, errOut := cli(t, "init", "-w", byInit); code != exitOK {
		t.Fatalf("init: %d %s", code, errOut)
	}
	byHand := testworkspace.CopyExample(t)
	os.RemoveAll(filepath.Join(byHand, ".memory"))
	for _, ws := range []string{byInit, byHand} {
		if code, _, errOut := cli(t, "index", "--no-embed", "-w", ws); code != exitOK {
			t.Fatalf("index: %d %s", code, errOut)
		}
		for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}} {
			cmd := exec.Command(git, args...)
			cmd.Dir = ws
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("git %v: %v %s", args, err, out)
			}
		}
		cmd := exec.Command(git, "ls-files", "--cached")
		cmd.Dir = ws
		out, err := cmd.Output()
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(out), ".memory") || len(out) == 0 {
			t.Errorf("%s: git stages %q", ws, out)
		}
	}
}

// TestHelpText: every command's --help names its flags as they are typed
// (--name, or -w), with a value name in capitals (DIR, N, WHEN) or none.
// Backquoted words in a usage used to become fake value names
// ("-watch memoria watch"), flags printed with one dash, and unnamed
// values showed as "string" or "int".
func TestHelpText(t *testing.T) {
	flagLine := regexp.MustCompile(`^  (-[a-z]|--[a-z][a-z-]+)( [A-Z][A-Z_:\[\]-]*)?$`)
	for _, c := range commands {
		if c.run == nil {
			continue
		}
		code, out, errOut := cli(t, c.name, "--help")
		if code != exitOK || !strings.HasPrefix(out, "Usage: memoria "+c.name) {
			t.Errorf("%s --help: exit %d, %q %q", c.name, code, out, errOut)
			continue
		}
		for _, l := range strings.Split(out, "\n") {
			if strings.HasPrefix(l, "  -") && !flagLine.MatchString(l) {
				t.Errorf("%s --help: flag line %q", c.name, l)
			}
		}
	}
	if code, _, errOut := cli(t, "core", "append"); code != exitUsage || !strings.Contains(errOut, "memoria core append BLOCK TEXT") {
		t.Errorf("core append with no arguments: exit %d, %q", code, errOut)
	}
}

// TestModelCommand: `memoria model status` says whether the model is
// installed and where; `remove` deletes the model, its licence and its
// cache and nothing else; both take --json.
func TestModelCommand(t *testing.T) {
	dir := t.TempDir()
	run1 := func(args ...string) (int, string) {
		var out, errOut bytes.Buffer
		e := &env{stdout: &out, stderr: &errOut, stdin: strings.NewReader(""),
			getenv: func(k string) string {
				if k == "MEMORIA_MODEL_DIR" {
					return dir
				}
				return ""
			},
			home: func() (string, error) { return t.TempDir(), nil }}
		return run(context.Background(), e, args), out.String() + errOut.String()
	}
	if code, out := run1("model", "status"); code != exitOK || !strings.Contains(out, "not installed") {
		t.Errorf("status without a model: %d %q", code, out)
	}
	for _, name := range []string{uselite.FileName, uselite.LicenseFileName, uselite.CacheFileName, "keep.txt"} {
		os.WriteFile(filepath.Join(dir, name), []byte("x"), 0o644)
	}
	if code, out := run1("model", "status", "--json"); code != exitOK || !strings.Contains(out, `"installed":false`) || !strings.Contains(out, `"problem"`) {
		t.Errorf("status of a damaged model: %d %q", code, out)
	}
	if code, out := run1("model", "remove"); code != exitOK || strings.Count(out, "removed ") != 3 {
		t.Errorf("remove: %d %q", code, out)
	}
	if _, err := os.Stat(filepath.Join(dir, "keep.txt")); err != nil {
		t.Error("remove deleted another file")
	}
	if code, _ := run1("model", "frobnicate"); code != exitUsage {
		t.Errorf("unknown action: exit %d", code)
	}
}

func TestTimeLeft(t *testing.T) {
	for _, c := range []struct {
		elapsed     time.Duration
		done, total int
		want        string
	}{
		{10 * time.Second, 100, 1000, ", about 1m30s left"},
		{2 * time.Second, 50, 100, ", about 2s left"},
		{500 * time.Millisecond, 50, 100, ""}, // no pace yet
		{time.Minute, 0, 100, ""},
		{time.Minute, 100, 100, ""},
		{time.Minute, 5, 1000, ""}, // under 1% done
	} {
		if got := timeLeft(c.elapsed, c.done, c.total); got != c.want {
			t.Errorf("timeLeft(%v, %d, %d) = %q, want %q", c.elapsed, c.done, c.total, got, c.want)
		}
	}
}

func TestProgressBarShowsTimeLeft(t *testing.T) {
	var out strings.Builder
	clock := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	bar := &progressBar{w: &out, label: "embedding", unit: "texts", now: func() time.Time { return clock }}
	bar.update(0, 1000)
	clock = clock.Add(20 * time.Second)
	bar.update(250, 1000)
	if !strings.Contains(out.String(), "250/1000 texts, about 1m0s left") {
		t.Errorf("got %q", out.String())
	}
}
