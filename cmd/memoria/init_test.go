package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestInit(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ws")
	code, out, errOut := cli(t, "init", "--workspace", dir)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "created memory.md") {
		t.Errorf("output %q", out)
	}
	// A second init keeps what is there, byte for byte.
	mem := filepath.Join(dir, "memory.md")
	if err := os.WriteFile(mem, []byte("# Mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ = cli(t, "init", dir)
	if code != exitOK || !strings.Contains(out, "kept    memory.md") {
		t.Errorf("second init: exit %d, output %q", code, out)
	}
	if got, _ := os.ReadFile(mem); string(got) != "# Mine\n" {
		t.Errorf("memory.md overwritten: %q", got)
	}
}
