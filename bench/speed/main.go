//go:build unix

// Command speed measures Memoria on a large workspace, the way a user runs
// it: the sqlite3 CLI's import of the same lines into FTS5 (the reference),
// a full index as `memoria index` builds it, with its peak memory and the
// index's size, incremental updates of one file, recall in a long-lived
// process, and as a whole `memoria recall` process.
//
//	go run ./bench/speed [-workspace DIR] [-runs 5] [-queries 200] [-index-only] [-qmd DIR]
//	go run ./bench/speed -semantic [-workspace DIR] [-runs 5]
//
// With -qmd (a folder where scripts/bench-qmd.sh installed qmd: bench/speed/qmd)
// it measures qmd (tobi/qmd) beside memoria in the same run: its full index of the
// workspace (`qmd collection add`, in turns with the others) and whole `qmd
// search` processes for the same queries as `memoria recall`.
//
// With -semantic it measures the embedding model instead, on the example workspace by
// default: the first embedding (texts per second, peak RSS) and whole `memoria recall`
// processes with the model and lexical only, in turns.
//
// Without -workspace it generates the synthetic 10-year workspace
// (bench/synth) in a temporary folder. Figures are medians (and p99 for
// latencies) of several runs: the machine is shared and noisy. It reads
// CPU time and peak memory from getrusage, so it builds on Unix only.
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"memoria"
	"memoria/bench/synth"
)

func main() {
	ws := flag.String("workspace", "", "workspace to measure (default: generate the 10-year synthetic one)")
	runs := flag.Int("runs", 5, "repetitions of each whole-index measurement")
	nq := flag.Int("queries", 200, "recall queries")
	bin := flag.String("memoria", "", "a memoria binary to measure (default: build ./cmd/memoria)")
	indexOnly := flag.Bool("index-only", false, "measure only the full index against the sqlite3 CLI")
	semantic := flag.Bool("semantic", false, "measure the embedding model: first embedding and recall processes with it")
	qmdDir := flag.String("qmd", "", "also measure qmd, installed in this folder by scripts/bench-qmd.sh (bench/speed/qmd)")
	flag.Parse()
	if *semantic {
		if err := semanticMain(*ws, *bin, *runs); err != nil {
			fmt.Fprintln(os.Stderr, "speed:", err)
			os.Exit(1)
		}
		return
	}
	var q *qmd
	if *qmdDir != "" {
		var err error
		if q, err = newQMD(*qmdDir); err != nil {
			fmt.Fprintln(os.Stderr, "speed:", err)
			os.Exit(1)
		}
	}
	err := run(*ws, *bin, *runs, *nq, *indexOnly, q)
	if q != nil {
		os.RemoveAll(q.home)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "speed:", err)
		os.Exit(1)
	}
}

func run(ws, bin string, runs, nq int, indexOnly bool, q *qmd) error {
	tmp, err := os.MkdirTemp("", "memoria-speed-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if ws == "" {
		ws = filepath.Join(tmp, "workspace")
		st, err := synth.Generate(ws, synth.Options{})
		if err != nil {
			return err
		}
		fmt.Printf("workspace: synthetic, %d files, %d lines\n", st.Files, st.Lines)
	}
	if bin == "" {
		bin = filepath.Join(tmp, "memoria")
		if out, err := exec.Command("go", "build", "-o", bin, "memoria/cmd/memoria").CombinedOutput(); err != nil {
			return fmt.Errorf("go build: %v: %s", err, out)
		}
	}
	lines, err := workspaceLines(ws)
	if err != nil {
		return err
	}
	fmt.Printf("non-blank lines: %d\n\n", len(lines))

	// 1. The reference, the sqlite3 CLI importing the same lines into
	// FTS5, and 2. the full index as a process, with peak RSS. They run
	// in turns, so that a change in the machine's load between the series
	// does not skew their ratio; each turn's own ratio is kept too.
	cliPath, cliErr := exec.LookPath("sqlite3")
	index := filepath.Join(tmp, "index.sqlite")
	var cli, cliCPU []time.Duration
	build := &series{name: "memoria index (full, process)"}
	var qmdBuild []time.Duration
	for range runs {
		if cliErr == nil {
			d, c, err := sqlite3Import(cliPath, tmp, lines)
			if err != nil {
				return err
			}
			cli, cliCPU = append(cli, d), append(cliCPU, c)
		}
		removeIndex(index)
		d, c, r, err := timeProcess(bin, "index", "-w", ws, "--index", index, "--no-embed")
		if err != nil {
			return err
		}
		build.wall, build.cpu, build.rss = append(build.wall, d), append(build.cpu, c), append(build.rss, r)
		if cliErr == nil {
			build.ratios = append(build.ratios, float64(d)/float64(cli[len(cli)-1]))
		}
		if q != nil {
			d, err := q.index(ws)
			if err != nil {
				return err
			}
			qmdBuild = append(qmdBuild, d)
		}
	}
	if cliErr == nil {
		fmt.Printf("sqlite3 CLI FTS5 import:       median %v (CPU %v)\n", median(cli), median(cliCPU))
	} else {
		fmt.Println("sqlite3 CLI not found: no reference figure")
	}
	fmt.Printf("%-30s median %v (CPU %v), peak RSS %d MB", build.name+":", median(build.wall), median(build.cpu), slices.Max(build.rss)>>10)
	if len(cli) > 0 {
		slices.Sort(build.ratios)
		fmt.Printf(", %.2f× the sqlite3 CLI (CPU %.2f×; per turn: median %.2f×, from %.2f× to %.2f×)",
			float64(median(build.wall))/float64(median(cli)), float64(median(build.cpu))/float64(median(cliCPU)),
			build.ratios[len(build.ratios)/2], build.ratios[0], build.ratios[len(build.ratios)-1])
	}
	fmt.Println()
	if q != nil {
		fmt.Printf("%-30s median %v (qmd %s), %.2f× memoria's", "qmd index (full, process):", median(qmdBuild), q.version, float64(median(qmdBuild))/float64(median(build.wall)))
		if len(cli) > 0 {
			fmt.Printf(", %.2f× the sqlite3 CLI", float64(median(qmdBuild))/float64(median(cli)))
		}
		fmt.Println()
	}
	md, derived, err := sizes(ws, index)
	if err != nil {
		return err
	}
	fmt.Printf("index size:                    %.1f MB for %.1f MB of Markdown (%.2f×, no vectors)\n",
		float64(derived)/(1<<20), float64(md)/(1<<20), float64(derived)/float64(md))
	if indexOnly {
		return nil
	}

	// 3. In process: incremental update of one file, over many updates so
	// that the full-text index's merges show in the tail.
	ctx := context.Background()
	w, err := memoria.Open(ctx, ws, memoria.Options{IndexPath: index})
	if err != nil {
		return err
	}
	defer w.Close()
	log := filepath.Join(ws, "memory", "2021-03-14.md")
	orig, err := os.ReadFile(log)
	if err != nil {
		return err
	}
	defer os.WriteFile(log, orig, 0o644)
	var inc []time.Duration
	grown := slices.Clone(orig)
	for i := range updates {
		grown = fmt.Appendf(grown, "\n- an appended line %d about %s\n", i, lines[i%len(lines)])
		os.WriteFile(log, grown, 0o644)
		t := time.Now()
		st, err := w.Sync(ctx)
		if err != nil {
			return err
		}
		inc = append(inc, time.Since(t))
		if st.Parsed != 1 {
			return fmt.Errorf("incremental update parsed %d files", st.Parsed)
		}
	}
	fmt.Printf("incremental update, one file:  p50 %v, p99 %v, max %v (%d updates)\n", median(inc), pct(inc, 99), slices.Max(inc).Round(10*time.Microsecond), len(inc))
	os.WriteFile(log, orig, 0o644)
	if _, err := w.Sync(ctx); err != nil {
		return err
	}

	// 4. Recall in a long-lived process (the MCP server, a program using
	// the library), after one recall has opened everything: sampled
	// queries, and questions made of common words only.
	queries := sampleQueries(lines, nq)
	if _, err := w.Recall(ctx, queries[0], memoria.RecallOptions{K: 25, Lexical: true}); err != nil {
		return err
	}
	for _, set := range []struct {
		name    string
		queries []string
	}{{"recall in process:", queries}, {"  common words only:", commonQueries}} {
		var in []time.Duration
		for _, q := range set.queries {
			t := time.Now()
			if _, err := w.Recall(ctx, q, memoria.RecallOptions{K: 25, Lexical: true}); err != nil {
				return err
			}
			in = append(in, time.Since(t))
		}
		fmt.Printf("%-30s p50 %v, p99 %v, max %v (%d queries)\n", set.name, median(in), pct(in, 99), slices.Max(in).Round(10*time.Microsecond), len(in))
	}

	// 5. A whole `memoria recall` process, as an agent runs it.
	var proc []time.Duration
	var rss []int64
	for _, q := range queries[:min(len(queries), 100)] {
		d, _, r, err := timeProcess(bin, "recall", "-w", ws, "--index", index, "--json", "--lexical", "--", q)
		if err != nil {
			return err
		}
		proc, rss = append(proc, d), append(rss, r)
	}
	fmt.Printf("memoria recall (process):      p50 %v, p99 %v, peak RSS %d MB (%d queries)\n", median(proc), pct(proc, 99), slices.Max(rss)>>10, len(proc))
	if q != nil {
		// qmd's own full-text search, as its CLI runs it, on the index its
		// last build left: the same queries, 25 results each, as JSON.
		var qp []time.Duration
		for _, query := range queries[:min(len(queries), 100)] {
			d, err := q.search(query)
			if err != nil {
				return err
			}
			qp = append(qp, d)
		}
		fmt.Printf("qmd search (process):          p50 %v, p99 %v (%d queries); memoria recall %.2f× its p50\n", median(qp), pct(qp, 99), len(qp), float64(median(proc))/float64(median(qp)))
	}
	return nil
}

// updates is how many incremental updates section 3 times.
const updates = 200

// commonQueries are questions made of words most items contain or many
// do: what FTS5 ranks slowest, since it scores every row a term matches.
var commonQueries = []string{
	"what did we do", "what is the plan", "how was the day", "the meeting with the team",
	"what did I say about it", "is there anything new", "what happened this week",
	"who was there and what did they say", "notes from the call", "what do I know about that",
	"the last time we talked", "what was the decision", "did it work", "how did it go",
	"things to do next", "what was said in the morning", "something about the project",
	"what did they want", "the thing we discussed", "any update on this",
}

// sizes returns the bytes of Markdown in ws and of the index files
// derived from it (the index and its WAL; no vectors are built here).
func sizes(ws, index string) (md, derived int64, err error) {
	err = filepath.WalkDir(ws, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") {
			return err
		}
		fi, err := d.Info()
		if err == nil {
			md += fi.Size()
		}
		return err
	})
	matches, _ := filepath.Glob(index + "*")
	for _, m := range matches {
		if fi, err := os.Stat(m); err == nil {
			derived += fi.Size()
		}
	}
	return md, derived, err
}

// workspaceLines lists every non-blank line of the workspace's Markdown.
func workspaceLines(ws string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(ws, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") {
			if d != nil && d.IsDir() && d.Name() == ".memory" {
				return filepath.SkipDir
			}
			return err
		}
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<24)
		for sc.Scan() {
			if strings.TrimSpace(sc.Text()) != "" {
				out = append(out, sc.Text())
			}
		}
		return sc.Err()
	})
	return out, err
}

// sqlite3Import times the sqlite3 CLI loading the lines into an FTS5 table
// in one transaction (the TSV is written beforehand and not timed).
func sqlite3Import(bin, tmp string, lines []string) (time.Duration, time.Duration, error) {
	tsv := filepath.Join(tmp, "lines.tsv")
	if _, err := os.Stat(tsv); err != nil {
		var b strings.Builder
		for i, l := range lines {
			fmt.Fprintf(&b, "%d\t%s\n", i+1, strings.NewReplacer("\t", " ", "\"", " ").Replace(l))
		}
		if err := os.WriteFile(tsv, []byte(b.String()), 0o644); err != nil {
			return 0, 0, err
		}
	}
	db := filepath.Join(tmp, "cli.sqlite")
	os.Remove(db)
	script := fmt.Sprintf(`CREATE TABLE raw(line INTEGER, text TEXT);
CREATE VIRTUAL TABLE fts USING fts5(text, line UNINDEXED, tokenize='porter unicode61');
.mode tabs
BEGIN;
.import %s raw
INSERT INTO fts(text, line) SELECT text, line FROM raw;
COMMIT;
`, tsv)
	cmd := exec.Command(bin, db)
	cmd.Stdin = strings.NewReader(script)
	t := time.Now()
	out, err := cmd.CombinedOutput()
	if err != nil {
		return 0, 0, fmt.Errorf("sqlite3: %v: %s", err, out)
	}
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	return time.Since(t), time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), nil
}

// timeProcess runs a command and returns its wall time, CPU time and peak
// RSS (KiB).
func timeProcess(name string, args ...string) (time.Duration, time.Duration, int64, error) {
	return timeCmd(exec.Command(name, args...))
}

// timeCmd runs a command and returns its wall time, CPU time and peak RSS
// (KB).
func timeCmd(cmd *exec.Cmd) (time.Duration, time.Duration, int64, error) {
	t := time.Now()
	out, err := cmd.CombinedOutput()
	d := time.Since(t)
	if err != nil {
		return 0, 0, 0, fmt.Errorf("%s: %v: %s", strings.Join(cmd.Args, " "), err, out)
	}
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	cpu := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	return d, cpu, ru.Maxrss, nil
}

// sampleQueries draws realistic queries: 1 to 4 words from random lines
// (so common words appear as often as people use them), seeded.
func sampleQueries(lines []string, n int) []string {
	r := rand.New(rand.NewPCG(1, 2))
	var qs []string
	for len(qs) < n {
		words := strings.Fields(lines[r.IntN(len(lines))])
		if len(words) < 4 {
			continue
		}
		k := 1 + r.IntN(4)
		start := r.IntN(len(words) - k + 1)
		qs = append(qs, strings.Join(words[start:start+k], " "))
	}
	return qs
}

func median(d []time.Duration) time.Duration { return pct(d, 50) }

func pct(d []time.Duration, p int) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	i := (len(s)*p + 99) / 100
	return s[max(0, min(len(s)-1, i-1))].Round(10 * time.Microsecond)
}

// series are the measurements of one command, run once a turn.
type series struct {
	name      string
	wall, cpu []time.Duration
	rss       []int64
	ratios    []float64 // to the turn's sqlite3 CLI import
}

// removeIndex removes an index and the files beside it, for a full build.
func removeIndex(index string) {
	matches, _ := filepath.Glob(index + "*")
	for _, m := range matches {
		os.Remove(m)
	}
}
