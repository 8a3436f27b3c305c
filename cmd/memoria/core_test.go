package main

import (
	"encoding/json"
	"memoria/internal/testworkspace"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCoreCommands(t *testing.T) {
	ws := testworkspace.CopyExample(t)
	p := filepath.Join(ws, "memory.md")
	orig, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	code, out, errOut := cli(t, "core", "show", "-w", ws)
	if code != exitOK || out != string(orig) {
		t.Fatalf("show: exit %d, %q", code, errOut)
	}
	steps := []struct {
		args []string
		want string // in memory.md afterwards
	}{
		{[]string{"append", "Side projects", "- Memoria: offline memory for agents."}, "\n## Side projects\n- Memoria: offline memory for agents.\n"},
		{[]string{"replace", "side PROJECTS", "offline memory", "an offline, cited memory"}, "- Memoria: an offline, cited memory for agents.\n"},
		{[]string{"insert", "Side projects", "0", "- warelay: WhatsApp relay."}, "## Side projects\n- warelay: WhatsApp relay.\n- Memoria"},
	}
	for _, s := range steps {
		code, out, errOut := cli(t, append([]string{"core", "-w", ws}, s.args...)...)
		if code != exitOK {
			t.Fatalf("%v: exit %d, %s", s.args, code, errOut)
		}
		if !strings.Contains(out, "memory.md") {
			t.Errorf("%v: output %q", s.args, out)
		}
		data, _ := os.ReadFile(p)
		if !strings.Contains(string(data), s.want) {
			t.Errorf("%v: memory.md lacks %q:\n%s", s.args, s.want, data)
		}
		if !strings.HasPrefix(string(data), string(orig)) {
			t.Errorf("%v: bytes before the edited block changed", s.args)
		}
	}
	code, out, _ = cli(t, "core", "show", "-w", ws, "side projects")
	if code != exitOK || out != "## Side projects\n- warelay: WhatsApp relay.\n- Memoria: an offline, cited memory for agents.\n" {
		t.Errorf("show block: %d %q", code, out)
	}
	code, out, _ = cli(t, "core", "show", "-w", ws, "--json", "Side Projects")
	var blocks []struct{ Name, Source, Text string }
	if code != exitOK || json.Unmarshal([]byte(out), &blocks) != nil || len(blocks) != 1 || !strings.HasPrefix(blocks[0].Source, "memory.md#L") {
		t.Errorf("show --json: %d %q", code, out)
	}
	// The index sees the edit at once.
	code, out, _ = cli(t, "recall", "-w", ws, "cited memory for agents")
	if code != exitOK || !strings.Contains(out, "memory.md#L") {
		t.Errorf("recall after core edit: %q", out)
	}
}

func TestCoreErrors(t *testing.T) {
	ws := testworkspace.CopyExample(t)
	before := testworkspace.Files(t, ws)
	tests := []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"frob"}, exitUsage, "unknown core action"},
		{nil, exitUsage, "needs an action"},
		{[]string{"append", "About"}, exitUsage, "needs 2 arguments"},
		{[]string{"replace", "Nope", "a", "b"}, exitUsage, `no such block "Nope"`},
		{[]string{"replace", "about peter", "no such text anywhere", "b"}, exitUsage, "is not in block"},
		{[]string{"insert", "Peter", "x", "text"}, exitUsage, "LINE"},
		{[]string{"insert", "About Peter", "999", "text"}, exitUsage, "outside block"},
		{[]string{"append", "Peter", "## Sneaky heading"}, exitUsage, "new block"},
		{[]string{"append", "Peter", "bad \xff"}, exitUsage, "UTF-8"},
		{[]string{"append", "Peter", strings.Repeat("x", 9000)}, exitUsage, "over the 8192-byte limit"},
		{[]string{"append", "--limit", "100", "Peter", "x"}, exitUsage, "over the 100-byte limit"},
		{[]string{"show", "Nope"}, exitUsage, "no such block"},
	}
	for _, tt := range tests {
		code, out, errOut := cli(t, append([]string{"core", "-w", ws}, tt.args...)...)
		if code != tt.code || !strings.Contains(errOut, tt.msg) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%q: exit %d, stderr %q; want %d and %q", tt.args, code, errOut, tt.code, tt.msg)
		}
		if out != "" {
			t.Errorf("%q: stdout %q", tt.args, out)
		}
	}
	if !sameFiles(before, testworkspace.Files(t, ws)) {
		t.Error("the workspace changed")
	}
}

func TestCoreMEMORYmd(t *testing.T) {
	ws := t.TempDir()
	os.WriteFile(filepath.Join(ws, "MEMORY.md"), []byte("## About\n- a\n"), 0o644)
	code, _, errOut := cli(t, "core", "-w", ws, "append", "About", "- b")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	data, _ := os.ReadFile(filepath.Join(ws, "MEMORY.md"))
	if string(data) != "## About\n- a\n- b\n" {
		t.Errorf("MEMORY.md: %q", data)
	}
	if _, err := os.Stat(filepath.Join(ws, "memory.md")); err == nil {
		t.Error("memory.md created next to MEMORY.md")
	}
}
