// Command reflectset scores `memoria reflect` on a workspace of its own: a
// curated bank/ that later daily logs contradict (moves, a new editor, a
// new OS version, a new release, changed preferences, a new person). It
// copies the workspace, runs the given memoria binary's reflect twice, and
// prints each check and the score. TestReflectSet runs the same checks
// through the library.
//
//	go build -o /tmp/memoria ./cmd/memoria && go run ./bench/reflectset -memoria /tmp/memoria
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// Now is the day the workspace is reflected on: after its last log.
const Now = "2026-04-30"

func main() {
	bin := flag.String("memoria", "memoria", "the memoria `BINARY` to score")
	flag.Parse()
	src := filepath.Join("bench", "reflectset", "workspace")
	dir, err := os.MkdirTemp("", "reflectset-")
	if err != nil {
		fatal(err)
	}
	defer os.RemoveAll(dir)
	if err := os.CopyFS(dir, os.DirFS(src)); err != nil {
		fatal(err)
	}
	var changed []string
	for run := 0; run < 2; run++ {
		out, err := exec.Command(*bin, "reflect", "--workspace", dir, "--now", Now, "--json").Output()
		if err != nil {
			fatal(fmt.Errorf("reflect: %v", err))
		}
		var rep struct {
			Changed []string `json:"changed"`
		}
		if err := json.Unmarshal(out, &rep); err != nil {
			fatal(err)
		}
		changed = rep.Changed
	}
	checks := checkWorkspace(src, dir, changed)
	passed := 0
	for _, c := range checks {
		mark := "FAIL"
		if c.ok {
			mark, passed = "ok  ", passed+1
		}
		fmt.Printf("%s %s %s\n", mark, c.name, c.detail)
	}
	fmt.Printf("score: %d of %d\n", passed, len(checks))
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "reflectset:", err)
	os.Exit(1)
}
