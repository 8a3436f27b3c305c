package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"memoria/internal/testworkspace"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"memoria"
	"memoria/internal/pgtest"
	"memoria/markdown"
	"memoria/memory"
	"memoria/retain"
)

// binary is the memoria command built once by TestMain, with the
// memoriatest tag so that a writer can be paused at a chosen step.
var binary string

func TestMain(m *testing.M) {
	flag.Parse()
	if !testing.Short() {
		dir, err := os.MkdirTemp("", "memoria-bin-")
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		binary = filepath.Join(dir, "memoria")
		out, err := exec.Command("go", "build", "-tags", "memoriatest", "-o", binary, ".").CombinedOutput()
		if err != nil {
			fmt.Fprintf(os.Stderr, "building memoria: %v\n%s", err, out)
			os.RemoveAll(dir)
			os.Exit(1)
		}
		code := pgtest.Main(m)
		os.RemoveAll(dir)
		os.Exit(code)
	}
	os.Exit(pgtest.Main(m))
}

func needBinary(t *testing.T) {
	t.Helper()
	if binary == "" {
		t.Skip("process tests need the binary (not built with -short)")
	}
}

// memoriaCmd prepares a run of the built binary in a clean environment.
func memoriaCmd(ctx context.Context, stdin string, env []string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, binary, args...)
	cmd.Env = append([]string{"HOME=" + os.TempDir(), "PATH=" + os.Getenv("PATH")}, env...)
	if stdin != "" {
		cmd.Stdin = strings.NewReader(stdin)
	}
	return cmd
}

func indexedWorkspace(t *testing.T) string {
	t.Helper()
	ws := testworkspace.CopyExample(t)
	if out, err := memoriaCmd(context.Background(), "", nil, "index", "-w", ws).CombinedOutput(); err != nil {
		t.Fatalf("index: %v\n%s", err, out)
	}
	return ws
}

// worldFacts counts the world facts in the index, as the last writer left
// it (Status does not sync).
func worldFacts(t *testing.T, ws string) (int, int) {
	t.Helper()
	w, err := memoria.Open(context.Background(), ws, memoria.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	st, err := w.Status(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return st.Facts[memory.KindWorld], st.Pending
}

// checkBullets verifies that the log parses and holds every expected
// bullet exactly once, each group contiguous and in order.
func checkBullets(t *testing.T, ws, rel string, groups [][]string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(ws, filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := markdown.Parse(rel, data)
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Warnings) > 0 {
		t.Errorf("parse warnings: %v", doc.Warnings[0])
	}
	line := map[string]int{}
	for _, f := range doc.Facts {
		line[f.Text] = f.Source.Start
	}
	lines := strings.Split(string(data), "\n")
	total := 0
	for _, g := range groups {
		start, ok := line[g[0]]
		if !ok {
			t.Fatalf("fact %q missing", g[0])
		}
		for i, text := range g {
			total++
			if got := lines[start-1+i]; got != "- W @Peter: "+text {
				t.Fatalf("line %d is %q, want %q (torn or interleaved)", start+i, got, text)
			}
		}
	}
	if n := strings.Count(string(data), "\n- W @Peter: writer "); n != total {
		t.Errorf("%d bullets in the log, want %d", n, total)
	}
}

// TestConcurrentRetainProcesses runs 8 memoria retain processes at once,
// each retaining 200 facts read from stdin, then 8 workers each running
// many small retains in a row, so that writers really queue on the lock.
func TestConcurrentRetainProcesses(t *testing.T) {
	needBinary(t)
	ws := indexedWorkspace(t)
	before, _ := worldFacts(t, ws)
	start := time.Now()

	run := func(rel string, writers, procs, each int) [][]string {
		var groups [][]string
		var wg sync.WaitGroup
		errs := make(chan string, writers*procs)
		for w := range writers {
			var batches [][]string
			for p := range procs {
				var g []string
				for i := range each {
					g = append(g, fmt.Sprintf("writer %s-%d batch %d fact %d.", rel[7:17], w, p, i))
				}
				batches = append(batches, g)
			}
			groups = append(groups, batches...)
			wg.Add(1)
			go func() {
				defer wg.Done()
				for _, g := range batches {
					in := "W @Peter: " + strings.Join(g, "\nW @Peter: ") + "\n"
					out, err := memoriaCmd(context.Background(), in, nil, "retain", "-w", ws, "--date", rel[7:17], "-").CombinedOutput()
					if err != nil {
						errs <- fmt.Sprintf("%v: %s", err, out)
					}
				}
			}()
		}
		wg.Wait()
		close(errs)
		for e := range errs {
			t.Error(e)
		}
		return groups
	}
	// 8 processes × 200 facts, all at once.
	g1 := run("memory/2025-12-01.md", 8, 1, 200)
	checkBullets(t, ws, "memory/2025-12-01.md", g1)
	t.Logf("8 processes × 200 facts: %v", time.Since(start))
	// 8 workers × 8 processes × 25 facts: 64 writers queueing.
	mid := time.Now()
	g2 := run("memory/2025-11-30.md", 8, 8, 25)
	checkBullets(t, ws, "memory/2025-11-30.md", g2)
	t.Logf("8 workers × 8 processes × 25 facts: %v", time.Since(mid))

	after, pending := worldFacts(t, ws)
	if after-before != 3200 || pending != 0 {
		t.Errorf("index: %d new world facts (want 3200), %d files pending", after-before, pending)
	}
}

// TestKilledWriter kills a retain process with SIGKILL at 50 random
// points (seeded): 40 at a step of the safe write chosen at random (the
// writer pauses there and says so, and is killed then), 10 after a random
// delay. Each time the log must be exactly the old or exactly the new
// version, and afterwards writing works and leaves no temporary file.
func TestKilledWriter(t *testing.T) {
	needBinary(t)
	ws := indexedWorkspace(t)
	rel := "memory/2025-11-27.md"
	path := filepath.Join(ws, filepath.FromSlash(rel))
	rng := rand.New(rand.NewPCG(2025, 11))
	steps := []string{"locked", "temp-created", "writing", "writing", "writing", "synced", "renamed", "dir-synced"}
	var oldCount, newCount int
	for i := range 50 {
		old, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		fact := fmt.Sprintf("W @Peter: killed writer %d wrote this.", i)
		f, _ := retain.Validate(fact)
		app, err := retain.Append(old, "2025-11-27", []retain.Fact{f})
		if err != nil {
			t.Fatal(err)
		}
		want := app.Data

		var env []string
		step := ""
		delayed := i%5 == 4
		if !delayed {
			step = steps[rng.IntN(len(steps))]
			pause := step
			if step == "writing" {
				pause = fmt.Sprintf("writing:%d", rng.IntN(len(want)))
			}
			env = append(env, "MEMORIA_SAFEWRITE_PAUSE="+pause)
		}
		cmd := memoriaCmd(context.Background(), "", env, "retain", "-w", ws, "--date", "2025-11-27", fact)
		stderr, err := cmd.StderrPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		if delayed {
			// A random point in the whole run, index update included.
			timer := time.AfterFunc(time.Duration(rng.IntN(60_000))*time.Microsecond, func() { cmd.Process.Kill() })
			_, _ = bufio.NewReader(stderr).ReadString(0)
			cmd.Wait()
			timer.Stop()
		} else {
			line, err := bufio.NewReader(stderr).ReadString('\n')
			if !strings.HasPrefix(line, "safewrite: paused at "+step) {
				cmd.Process.Kill()
				cmd.Wait()
				t.Fatalf("point %d (%s): writer did not pause: %q %v", i, step, line, err)
			}
			cmd.Process.Kill()
			cmd.Wait()
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		isOld, isNew := string(got) == string(old), string(got) == string(want)
		switch {
		case !isOld && !isNew:
			t.Fatalf("point %d (%s): the log is neither the old nor the new version:\n%q", i, step, got)
		case (step == "renamed" || step == "dir-synced") && !isNew:
			t.Errorf("point %d (%s): killed after the rename, the log is not the new version", i, step)
		case step != "" && step != "renamed" && step != "dir-synced" && !isOld:
			t.Errorf("point %d (%s): killed before the rename, the log is not the old version", i, step)
		}
		if isNew {
			newCount++
		} else {
			oldCount++
		}
	}
	t.Logf("50 kills: %d left the old version, %d the new", oldCount, newCount)
	// The lock died with the writers; the next write cleans up and the
	// index catches up.
	out, err := memoriaCmd(context.Background(), "", nil, "retain", "-w", ws, "--date", "2025-11-27", "W @Peter: after the kills.").CombinedOutput()
	if err != nil {
		t.Fatalf("retain after kills: %v\n%s", err, out)
	}
	if m, _ := filepath.Glob(filepath.Join(ws, "memory", ".*.tmp")); len(m) > 0 {
		t.Errorf("temporary files left: %v", m)
	}
	data, _ := os.ReadFile(path)
	if _, err := markdown.Parse(rel, data); err != nil {
		t.Fatal(err)
	}
	out, err = memoriaCmd(context.Background(), "", nil, "recall", "-w", ws, "--json", "after the kills").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "after the kills.") {
		t.Errorf("recall after kills: %v %s", err, out)
	}
}
