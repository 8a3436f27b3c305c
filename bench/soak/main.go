//go:build unix

// Command soak runs Memoria as a hostile week would, in minutes: writers
// retaining facts, reflect, core edits, rebuilds and recalls, all at once
// as separate `memoria` processes on one workspace, while processes are
// killed (SIGKILL) at random. It then checks what must hold and prints it:
//
//	retains acknowledged       retains that exited 0
//	found by the next recall   of those, found by the writer's next recall (must be all)
//	facts lost                 acknowledged facts missing from the Markdown (must be 0)
//	torn files                 Markdown files with a partial last line or that do not parse (must be 0)
//	leftover files             temporary or build files left behind (must be 0)
//	index mismatches           after a final sync, files the index does not hold as they are on disk (must be 0)
//
//	go run ./bench/soak [-duration 10m] [-writers 8] [-kill 2s]
//
// A retain not found by the next recall, or lost, is printed with what
// reproduces it: the writer, the retain's day and text, when it was
// acknowledged, the file and line it was written to, what each recall
// printed, where the fact is in the Markdown at the miss and at the end,
// what the index held of its file at the miss (its stored size, mtime and
// hash against the file's, and the full-text rows with the token), and the
// rebuilds that ran in the two seconds before.
//
// Everything runs on this machine, on a copy of the example workspace in a
// temporary folder; nothing listens on a network. It exits 1 when a check
// fails.
package main

import (
	"context"
	"database/sql"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"memoria"
	"memoria/ingest"
	"memoria/markdown"

	_ "modernc.org/sqlite"
)

func main() {
	duration := flag.Duration("duration", 10*time.Minute, "how long to run")
	writers := flag.Int("writers", 8, "concurrent writers retaining facts")
	kill := flag.Duration("kill", 2*time.Second, "mean time between kills")
	bin := flag.String("memoria", "", "a memoria binary (default: build ./cmd/memoria)")
	flag.Parse()
	ok, err := run(*duration, *writers, *kill, *bin)
	if err != nil {
		fmt.Fprintln(os.Stderr, "soak:", err)
		os.Exit(1)
	}
	if !ok {
		os.Exit(1)
	}
}

// procs tracks the running memoria processes, so that the killer can pick
// one.
type procs struct {
	mu  sync.Mutex
	set map[*os.Process]string // process → its verb
}

func (p *procs) add(pr *os.Process, verb string) {
	p.mu.Lock()
	p.set[pr] = verb
	p.mu.Unlock()
}

func (p *procs) remove(pr *os.Process) {
	p.mu.Lock()
	delete(p.set, pr)
	p.mu.Unlock()
}

// killOne sends SIGKILL to a running process chosen at random, and says
// which verb it ran.
func (p *procs) killOne(r *rand.Rand) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := r.IntN(len(p.set) + 1)
	for pr, verb := range p.set {
		if n == 0 {
			pr.Signal(syscall.SIGKILL)
			return verb
		}
		n--
	}
	return ""
}

type soak struct {
	bin, ws string
	procs   procs
	killed  atomic.Int64
}

// memoria runs one memoria command; ok is false when it did not exit 0
// (killed, or failed: out says why).
func (s *soak) memoria(ctx context.Context, args ...string) (out string, ok bool) {
	cmd := exec.Command(s.bin, append(args[:1:1], append([]string{"-w", s.ws}, args[1:]...)...)...)
	cmd.Env = []string{"HOME=" + os.TempDir(), "PATH=" + os.Getenv("PATH")}
	var b strings.Builder
	cmd.Stdout, cmd.Stderr = &b, &b
	if err := cmd.Start(); err != nil {
		return err.Error(), false
	}
	s.procs.add(cmd.Process, args[0])
	err := cmd.Wait()
	s.procs.remove(cmd.Process)
	return b.String(), err == nil
}

func run(duration time.Duration, writers int, killEvery time.Duration, bin string) (bool, error) {
	tmp, err := os.MkdirTemp("", "memoria-soak-")
	if err != nil {
		return false, err
	}
	defer os.RemoveAll(tmp)
	if bin == "" {
		bin = filepath.Join(tmp, "memoria")
		if out, err := exec.Command("go", "build", "-o", bin, "memoria/cmd/memoria").CombinedOutput(); err != nil {
			return false, fmt.Errorf("go build: %v: %s", err, out)
		}
	}
	ws := filepath.Join(tmp, "workspace")
	if out, err := exec.Command("cp", "-r", "examples/workspace", ws).CombinedOutput(); err != nil {
		return false, fmt.Errorf("copy the example (run from the repository): %v: %s", err, out)
	}
	os.RemoveAll(filepath.Join(ws, ".memory"))
	s := &soak{bin: bin, ws: ws, procs: procs{set: map[*os.Process]string{}}}
	ctx, stop := context.WithTimeout(context.Background(), duration)
	defer stop()

	var (
		mu        sync.Mutex
		acked     []retained // facts whose retain exited 0
		found     int        // of those, found by the writer's next recall
		notFound  []retained
		wg        sync.WaitGroup
		otherRuns atomic.Int64
	)
	day := func(r *rand.Rand) string { return fmt.Sprintf("2025-12-%02d", 1+r.IntN(5)) }
	for w := range writers {
		wg.Go(func() {
			r := rand.New(rand.NewPCG(uint64(w), 1))
			for i := 0; ctx.Err() == nil; i++ {
				token := fmt.Sprintf("soakw%dn%d", w, i)
				a := retained{writer: w, token: token, date: day(r),
					fact: fmt.Sprintf("W @Soak-Writer-%d: Observed %s at step %d.", w, token, i)}
				out, ok := s.memoria(ctx, "retain", "--date", a.date, a.fact)
				if !ok {
					continue // killed or refused: not acknowledged
				}
				a.acked, a.where = time.Now(), strings.TrimSpace(out)
				// The next recall must find it; a recall that was killed
				// is run again.
				hit := false
				for try := 0; try < 5 && !hit; try++ {
					out, ok := s.memoria(ctx, "recall", "--lexical", "--format", "compact", "--k", "5", token)
					a.recalls = append(a.recalls, recallRun{at: time.Now(), ok: ok, out: out})
					if ok {
						hit = strings.Contains(out, token)
						break
					}
				}
				if !hit {
					// What a reproduction needs: was the fact on disk when
					// recall missed it, and does a recall find it now (a
					// stale index) or not (a lost or unfindable fact)?
					a.diskAtMiss = onDisk(s.ws, a)
					a.indexAtMiss = indexState(s.ws, a)
					out, ok := s.memoria(ctx, "recall", "--lexical", "--format", "compact", "--k", "5", token)
					a.followUp = &recallRun{at: time.Now(), ok: ok, out: out}
				}
				mu.Lock()
				acked = append(acked, a)
				if hit {
					found++
				} else {
					notFound = append(notFound, a)
				}
				mu.Unlock()
			}
		})
	}
	var rebuilds runLog // the rebuild loop's runs, to line a miss up with
	loop := func(args ...string) {
		wg.Go(func() {
			for ctx.Err() == nil {
				start := time.Now()
				out, ok := s.memoria(ctx, args...)
				otherRuns.Add(1)
				if args[0] == "index" {
					rebuilds.add(start, ok, out)
				}
			}
		})
	}
	loop("reflect")
	loop("core", "append", "Soak", "A line of core memory from the soak.", "--limit", "-1")
	loop("index", "--rebuild", "--no-embed")
	loop("recall", "--lexical", "what does Peter prefer")
	loop("recall", "--lexical", "--since", "30d", "--now", "2025-12-06")
	wg.Go(func() {
		r := rand.New(rand.NewPCG(99, 7))
		for ctx.Err() == nil {
			wait := time.Duration(r.Int64N(int64(2 * killEvery)))
			select {
			case <-ctx.Done():
			case <-time.After(wait):
				if s.procs.killOne(r) != "" {
					s.killed.Add(1)
				}
			}
		}
	})
	wg.Wait()

	// The checks, on a quiet workspace.
	lost := 0
	var all strings.Builder
	torn := 0
	err = filepath.WalkDir(ws, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") || strings.Contains(p, "/.memory/") {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(ws, p)
		if len(data) > 0 && data[len(data)-1] != '\n' {
			torn++
			fmt.Printf("torn: %s does not end with a newline\n", rel)
		}
		if _, err := markdown.Parse(filepath.ToSlash(rel), data); err != nil {
			torn++
			fmt.Printf("torn: %s: %v\n", rel, err)
		}
		all.Write(data)
		return nil
	})
	if err != nil {
		return false, err
	}
	for _, a := range acked {
		if !strings.Contains(all.String(), a.token+" ") {
			lost++
			fmt.Printf("lost: %s\n", a)
		}
	}
	leftovers := 0
	filepath.WalkDir(ws, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".tmp") || strings.Contains(filepath.Base(p), ".build-")) {
			leftovers++
			fmt.Printf("leftover: %s\n", p)
		}
		return nil
	})
	mismatches, err := indexMismatches(ws, acked)
	if err != nil {
		return false, err
	}
	for _, a := range notFound {
		fmt.Printf("not found by the next recall: %s\n", a)
		for i, rc := range a.recalls {
			fmt.Printf("  recall %d at %s (%s): %s\n", i+1, rc.at.Format(stamp), pick(rc.ok, "exit 0", "killed or failed"), oneLine(rc.out))
		}
		fmt.Printf("  at the miss in %s\n", a.diskAtMiss)
		fmt.Printf("  the index then: %s\n", a.indexAtMiss)
		for _, r := range rebuilds.around(a.recalls[0].at, 2*time.Second) {
			fmt.Printf("  rebuild %s–%s (%s): %s\n", r.start.Format(stamp), r.end.Format(stamp), pick(r.ok, "exit 0", "killed or failed"), oneLine(r.out))
		}
		if rc := a.followUp; rc != nil {
			fmt.Printf("  recall again at %s (%s): %s\n", rc.at.Format(stamp), pick(rc.ok, "exit 0", "killed or failed"), oneLine(rc.out))
		}
		fmt.Printf("  at the end in %s\n", onDisk(ws, a))
	}
	fmt.Printf("ran %s: %d writers, %d other runs, %d processes killed\n", duration, writers, otherRuns.Load(), s.killed.Load())
	fmt.Printf("retains acknowledged:       %d\n", len(acked))
	fmt.Printf("found by the next recall:   %d\n", found)
	fmt.Printf("facts lost:                 %d\n", lost)
	fmt.Printf("torn files:                 %d\n", torn)
	fmt.Printf("leftover files:             %d\n", leftovers)
	fmt.Printf("index mismatches:           %d\n", mismatches)
	return found == len(acked) && lost == 0 && torn == 0 && leftovers == 0 && mismatches == 0, nil
}

// indexState is what the index holds of a fact's file and of its token,
// read at once after a miss: the stored size, mtime and hash against the
// file's, and how many full-text rows have the token.
func indexState(ws string, a retained) string {
	rel := "memory/" + a.date + ".md"
	db, err := sql.Open("sqlite", "file:"+filepath.Join(ws, ".memory", "index.sqlite")+"?mode=ro")
	if err != nil {
		return err.Error()
	}
	defer db.Close()
	var size, mtime int64
	var hash, status string
	if err := db.QueryRow(`SELECT size, mtime, hash, status FROM files WHERE path = ?`, rel).Scan(&size, &mtime, &hash, &status); err != nil {
		return "files: " + err.Error()
	}
	var rows int
	if err := db.QueryRow(`SELECT count(*) FROM items_fts WHERE items_fts MATCH ?`, a.token).Scan(&rows); err != nil {
		return "items_fts: " + err.Error()
	}
	data, err := os.ReadFile(filepath.Join(ws, rel))
	if err != nil {
		return err.Error()
	}
	st, err := os.Stat(filepath.Join(ws, rel))
	if err != nil {
		return err.Error()
	}
	return fmt.Sprintf("stored size %d mtime %d hash %s status %q, %d full-text rows with the token; the file: size %d mtime %d hash %s (%s)",
		size, mtime, hash, status, rows, st.Size(), st.ModTime().UnixNano(), ingest.HashBytes(data), time.Now().Format(stamp))
}

// runLog keeps the runs of a loop with their times.
type runLog struct {
	mu   sync.Mutex
	runs []loopRun
}

type loopRun struct {
	start, end time.Time
	ok         bool
	out        string
}

func (l *runLog) add(start time.Time, ok bool, out string) {
	l.mu.Lock()
	l.runs = append(l.runs, loopRun{start, time.Now(), ok, out})
	l.mu.Unlock()
}

// around returns the runs that overlap [at−d, at].
func (l *runLog) around(at time.Time, d time.Duration) []loopRun {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []loopRun
	for _, r := range l.runs {
		if !r.end.Before(at.Add(-d)) && !r.start.After(at) {
			out = append(out, r)
		}
	}
	return out
}

// indexMismatches opens the workspace as the library does (which syncs),
// then counts the files the index does not hold as they are on disk and
// the acknowledged facts it does not find.
func indexMismatches(ws string, acked []retained) (int, error) {
	ctx := context.Background()
	w, err := memoria.Open(ctx, ws, memoria.Options{})
	if err != nil {
		return 0, err
	}
	defer w.Close()
	if _, err := w.Sync(ctx); err != nil {
		return 0, err
	}
	st, err := w.Status(ctx)
	if err != nil {
		return 0, err
	}
	n := st.Pending
	for _, a := range acked {
		token := a.token
		res, err := w.Recall(ctx, token, memoria.RecallOptions{K: 3, Lexical: true})
		if err != nil {
			return 0, err
		}
		hit := false
		for _, r := range res {
			hit = hit || strings.Contains(r.Content, token)
		}
		if !hit {
			n++
			fmt.Printf("index mismatch: not recalled after a final sync: %s\n", a)
		}
	}
	return n, nil
}

// stamp is how times are printed: to the millisecond, for lining a miss up
// with the other processes' runs.
const stamp = "15:04:05.000"

// retained is one acknowledged retain and the recalls that followed it,
// kept so that a miss can be printed with what reproduces it.
type retained struct {
	writer      int
	token, fact string
	date        string    // the --date given
	acked       time.Time // when retain exited 0
	where       string    // what retain printed: "memory/DAY.md:LINE  bullet"
	recalls     []recallRun
	diskAtMiss  string     // where the fact was when the recalls missed it
	indexAtMiss string     // what the index held of its file then (indexState)
	followUp    *recallRun // one more recall, after a miss
}

type recallRun struct {
	at  time.Time
	ok  bool
	out string
}

func (a retained) String() string {
	return fmt.Sprintf("writer %d, %s: retain --date %s %q acknowledged at %s, written to %s",
		a.writer, a.token, a.date, a.fact, a.acked.Format(stamp), oneLine(a.where))
}

// onDisk says where the token is in the workspace's Markdown now, as
// file:line: text, or that it is nowhere.
func onDisk(ws string, a retained) string {
	var hits []string
	filepath.WalkDir(ws, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") || strings.Contains(p, "/.memory/") {
			return nil
		}
		data, _ := os.ReadFile(p)
		rel, _ := filepath.Rel(ws, p)
		for i, line := range strings.Split(string(data), "\n") {
			if strings.Contains(line, a.token+" ") {
				hits = append(hits, fmt.Sprintf("%s:%d: %s", rel, i+1, line))
			}
		}
		return nil
	})
	if len(hits) == 0 {
		return "the Markdown: nowhere"
	}
	return strings.Join(hits, "; ")
}

// oneLine is s on one line, shortened to what a report can hold.
func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 400 {
		s = s[:397] + "..."
	}
	if s == "" {
		return "(nothing)"
	}
	return s
}

func pick(ok bool, yes, no string) string {
	if ok {
		return yes
	}
	return no
}
