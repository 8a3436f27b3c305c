//go:build unix

// Command speed measures Memoria on a large workspace, the way a user runs
// it: the sqlite3 CLI's import of the same lines into FTS5 (the reference),
// a full index (as `memoria index` runs by default, with the postings
// snapshot, and with --no-postings, the index alone), an incremental update
// of one file, recall in process and as a whole `memoria recall` process,
// and peak memory.
//
//	go run ./bench/speed [-workspace DIR] [-runs 5] [-queries 200] [-index-only]
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
	flag.Parse()
	if err := run(*ws, *bin, *runs, *nq, *indexOnly); err != nil {
		fmt.Fprintln(os.Stderr, "speed:", err)
		os.Exit(1)
	}
}

func run(ws, bin string, runs, nq int, indexOnly bool) error {
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
	// FTS5, and 2. the full index as a process, with peak RSS: as
	// `memoria index` builds it by default, the postings snapshot written
	// with it, and without the snapshot (--no-postings), the index alone.
	// They run in turns, so that a change in the machine's load between
	// the series does not skew their ratios. Each turn's own ratios are
	// kept too.
	cliPath, cliErr := exec.LookPath("sqlite3")
	index := filepath.Join(tmp, "index.sqlite")
	var cli, cliCPU []time.Duration
	builds := []*series{
		{name: "memoria index (full, process)", args: nil},
		{name: "  without the snapshot", args: []string{"--no-postings"}},
	}
	for range runs {
		if cliErr == nil {
			d, c, err := sqlite3Import(cliPath, tmp, lines)
			if err != nil {
				return err
			}
			cli, cliCPU = append(cli, d), append(cliCPU, c)
		}
		for _, b := range builds {
			removeIndex(index)
			d, c, r, err := timeProcess(bin, append([]string{"index", "-w", ws, "--index", index, "--no-embed"}, b.args...)...)
			if err != nil {
				return err
			}
			b.wall, b.cpu, b.rss = append(b.wall, d), append(b.cpu, c), append(b.rss, r)
			if cliErr == nil {
				b.ratios = append(b.ratios, float64(d)/float64(cli[len(cli)-1]))
			}
		}
	}
	if cliErr == nil {
		fmt.Printf("sqlite3 CLI FTS5 import:       median %v (CPU %v)\n", median(cli), median(cliCPU))
	} else {
		fmt.Println("sqlite3 CLI not found: no reference figure")
	}
	for _, b := range builds {
		fmt.Printf("%-30s median %v (CPU %v), peak RSS %d MB", b.name+":", median(b.wall), median(b.cpu), slices.Max(b.rss)>>10)
		if len(cli) > 0 {
			slices.Sort(b.ratios)
			fmt.Printf(", %.2f× the sqlite3 CLI (CPU %.2f×; per turn: median %.2f×, from %.2f× to %.2f×)",
				float64(median(b.wall))/float64(median(cli)), float64(median(b.cpu))/float64(median(cliCPU)),
				b.ratios[len(b.ratios)/2], b.ratios[0], b.ratios[len(b.ratios)-1])
		}
		fmt.Println()
	}
	if indexOnly {
		return nil
	}

	// 2b. The postings snapshot that one-shot recall ranks with: written by
	// `memoria index` after the index (skipped above), or in the
	// background after a recall that found none.
	var snap, snapCPU []time.Duration
	for range runs {
		os.Remove(index + ".lex")
		os.Remove(index + ".lex.lock")
		d, c, _, err := timeProcess(bin, "index", "-w", ws, "--index", index, "--postings-only")
		if err != nil {
			return err
		}
		snap, snapCPU = append(snap, d), append(snapCPU, c)
	}
	fmt.Printf("postings snapshot (process):   median %v (CPU %v)\n", median(snap), median(snapCPU))

	// 3. In process: incremental update of one file, recall latency.
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
	for i := range 20 {
		os.WriteFile(log, append(append([]byte{}, orig...), fmt.Sprintf("\n- an appended line %d\n", i)...), 0o644)
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
	fmt.Printf("incremental update, one file:  median %v, p99 %v\n", median(inc), pct(inc, 99))
	os.WriteFile(log, orig, 0o644)
	w.Sync(ctx)

	queries := sampleQueries(lines, nq)
	// Recall in a long-lived process (the MCP server, a program using the
	// library): warmed, as `memoria serve` is at start.
	t0 := time.Now()
	if err := w.Warm(ctx); err != nil {
		return err
	}
	fmt.Printf("warm (postings into memory):   %v\n", time.Since(t0))
	var in []time.Duration
	for _, q := range queries {
		t := time.Now()
		if _, err := w.Recall(ctx, q, memoria.RecallOptions{K: 25, Lexical: true}); err != nil {
			return err
		}
		in = append(in, time.Since(t))
	}
	fmt.Printf("recall in process:             p50 %v, p99 %v (%d queries)\n", median(in), pct(in, 99), len(in))

	var proc []time.Duration
	var rss []int64
	for _, q := range queries[:min(len(queries), 100)] {
		d, _, r, err := timeProcess(bin, "recall", "-w", ws, "--index", index, "--json", "--", q)
		if err != nil {
			return err
		}
		proc, rss = append(proc, d), append(rss, r)
	}
	fmt.Printf("memoria recall (process):      p50 %v, p99 %v, peak RSS %d MB (%d queries, MEMORIA_NO_SERVER=1)\n", median(proc), pct(proc, 99), slices.Max(rss)>>10, len(proc))

	// 4. The same processes with a recall server running, as it does after
	// the first recall of a workspace (cmd/memoria/recall_server.go).
	server := exec.Command(bin, "recall-server", "-w", ws, "--index", index)
	server.Env = append(os.Environ(), "MEMORIA_NO_SERVER=")
	if err := server.Start(); err != nil {
		return err
	}
	defer func() {
		server.Process.Kill()
		server.Wait()
	}()
	// Polling is fine here: this is a measurement, not a test.
	for start := time.Now(); ; time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat(index + ".sock"); err == nil {
			break
		}
		if time.Since(start) > time.Minute {
			return fmt.Errorf("recall server: no socket after a minute")
		}
	}
	proc, rss = proc[:0], rss[:0]
	for _, q := range queries[:min(len(queries), 100)] {
		d, _, r, err := timeProcessEnv([]string{"MEMORIA_NO_SERVER="}, bin, "recall", "-w", ws, "--index", index, "--json", "--", q)
		if err != nil {
			return err
		}
		proc, rss = append(proc, d), append(rss, r)
	}
	fmt.Printf("memoria recall (process, recall server running): p50 %v, p99 %v, peak RSS %d MB (%d queries)\n", median(proc), pct(proc, 99), slices.Max(rss)>>10, len(proc))
	return nil
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
	// The measured processes neither start nor use a recall server:
	// section 4 runs one on purpose.
	return timeProcessEnv([]string{"MEMORIA_NO_SERVER=1"}, name, args...)
}

// timeProcessEnv is timeProcess with variables added to the environment.
func timeProcessEnv(env []string, name string, args ...string) (time.Duration, time.Duration, int64, error) {
	cmd := exec.Command(name, args...)
	cmd.Env = append(os.Environ(), env...)
	t := time.Now()
	out, err := cmd.CombinedOutput()
	d := time.Since(t)
	if err != nil {
		return 0, 0, 0, fmt.Errorf("%s %s: %v: %s", name, strings.Join(args, " "), err, out)
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
	args      []string
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
