//go:build unix

package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"
)

// semanticQuestions are asked of the example workspace in whole processes, with the
// model and without it.
var semanticQuestions = []string{
	"who looks after the dog when Pete travels?", "how does Peter like his replies?",
	"what broke the media uploads?", "where is the relay hosted now?",
	"what did we decide about the database?", "tell me about Clara",
	"what happened in the second week of October?", "which phone number reaches Peter?",
	"what does Peter avoid?", "why did the deploy fail?",
}

// semanticMain builds memoria when bin is "", copies ws (the example workspace when
// "") so that nothing is written into it, and runs runSemantic.
func semanticMain(ws, bin string, rounds int) error {
	tmp, err := os.MkdirTemp("", "memoria-semantic-ws-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if ws == "" {
		ws = "examples/workspace"
	}
	copyTo := filepath.Join(tmp, "workspace")
	if err := os.CopyFS(copyTo, os.DirFS(ws)); err != nil {
		return fmt.Errorf("copy %s: %w", ws, err)
	}
	os.RemoveAll(filepath.Join(copyTo, ".memory"))
	if bin == "" {
		bin = filepath.Join(tmp, "memoria")
		if out, err := exec.Command("go", "build", "-o", bin, "memoria/cmd/memoria").CombinedOutput(); err != nil {
			return fmt.Errorf("go build: %v: %s", err, out)
		}
	}
	return runSemantic(bin, copyTo, rounds)
}

// runSemantic measures what the embedding model costs, in one run so that the ratios
// hold on a noisy machine: the first embedding of ws (texts per second, peak RSS of
// the whole `memoria index` process), then whole `memoria recall` processes on ws with
// the model and lexical only, in turns.
func runSemantic(bin, ws string, rounds int) error {
	tmp, err := os.MkdirTemp("", "memoria-semantic-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	index := filepath.Join(tmp, "index.sqlite")
	if _, _, _, err := timeProcess(bin, "index", "-w", ws, "--index", index, "--no-embed"); err != nil {
		return err
	}
	d, c, rss, err := timeProcess(bin, "index", "-w", ws, "--index", index, "--json")
	if err != nil {
		return err
	}
	out, err := exec.Command(bin, "status", "-w", ws, "--index", index, "--json").Output()
	if err != nil {
		return fmt.Errorf("status: %w", err)
	}
	var st struct {
		Embedded int `json:"embedded"`
	}
	if err := json.Unmarshal(out, &st); err != nil {
		return fmt.Errorf("status: %w", err)
	}
	texts := st.Embedded
	fmt.Printf("first embedding (process):     %d texts in %v (CPU %v): %.0f texts/s, %.0f texts/CPU-s; peak RSS %d MB\n",
		texts, d.Round(time.Millisecond), c.Round(time.Millisecond), float64(texts)/d.Seconds(), float64(texts)/c.Seconds(), rss>>10)
	var withModel, lexical []time.Duration
	var rssModel int64
	for range rounds {
		for _, q := range semanticQuestions {
			d, _, r, err := timeProcess(bin, "recall", "-w", ws, "--index", index, "--json", "--", q)
			if err != nil {
				return err
			}
			withModel, rssModel = append(withModel, d), max(rssModel, r)
			d, _, _, err = timeProcess(bin, "recall", "-w", ws, "--index", index, "--json", "--lexical", "--", q)
			if err != nil {
				return err
			}
			lexical = append(lexical, d)
		}
	}
	fmt.Printf("memoria recall with the model: p50 %v, p99 %v, peak RSS %d MB (%d processes)\n", median(withModel), pct(withModel, 99), rssModel>>10, len(withModel))
	fmt.Printf("memoria recall, lexical:       p50 %v, p99 %v; the model adds %v at p50\n", median(lexical), pct(lexical, 99), median(withModel)-median(lexical))
	return nil
}
