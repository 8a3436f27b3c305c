package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// cli runs one command line in-process and returns the exit code, stdout
// and stderr. The environment is empty and the home folder is temporary,
// so no real configuration is read.
func cli(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	home := t.TempDir()
	e := &env{
		stdout: &out, stderr: &errOut, stdin: strings.NewReader(""),
		getenv: func(string) string { return "" },
		home:   func() (string, error) { return home, nil },
	}
	code := run(context.Background(), e, args)
	return code, out.String(), errOut.String()
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
