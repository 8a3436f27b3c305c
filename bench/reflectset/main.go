// Command reflectset scores `memoria reflect` on a workspace of its own
// and the checks its author wrote for it (checks.json: the curated lines
// later logs outdate and those they leave true, the core lines to propose,
// the confidences the opinions should end in). It copies the set's
// workspace, runs the given memoria binary's reflect twice, and prints
// each check and the score.
//
// The sets: bench/reflectset itself (a curated bank/ later logs
// contradict: moves, a new editor, a new OS version, a new release,
// changed preferences, a new person; TestReflectSet requires every check)
// and the sets in its folders, each written later by someone who had not
// seen reflect (their READMEs say how): prairie, dublin, kisumu,
// singapore and rifugio are held out; sailing and bakery were, until their failing checks were
// read; garage and choir were written for development, to a brief about
// the many ways a change is said.
//
//	go build -o /tmp/memoria ./cmd/memoria && go run ./bench/reflectset -memoria /tmp/memoria [-set bench/reflectset/sailing]
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

func main() {
	bin := flag.String("memoria", "memoria", "the memoria `BINARY` to score")
	set := flag.String("set", filepath.Join("bench", "reflectset"), "the set: a `DIR` holding workspace/ and checks.json")
	flag.Parse()
	c, err := loadChecks(filepath.Join(*set, "checks.json"))
	if err != nil {
		fatal(err)
	}
	src := filepath.Join(*set, "workspace")
	if err := c.validate(src); err != nil {
		fatal(err)
	}
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
		out, err := exec.Command(*bin, "reflect", "--workspace", dir, "--now", c.Now, "--json").Output()
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
	results := checkWorkspace(c, src, dir, changed)
	passed := 0
	for _, r := range results {
		mark := "FAIL"
		if r.ok {
			mark, passed = "ok  ", passed+1
		}
		fmt.Printf("%s %s %s\n", mark, r.name, r.detail)
	}
	fmt.Printf("score: %d of %d\n", passed, len(results))
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "reflectset:", err)
	os.Exit(1)
}
