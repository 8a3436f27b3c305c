//go:build unix

package main

import (
	"context"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"memoria"
	"memoria/internal/pgtest"
	"memoria/postgres"
	"memoria/team"
	"memoria/workspace"
)

// bench is one run's state, shared by its phases.
type bench struct {
	cfg     config
	rep     *report
	cluster *pgtest.Cluster
	url     string // the application role's, for memoria.Open (with -pool)
	appURL  string // the application role's, for a plain connection
	super   string // the superuser's, for the checks only
	now     time.Time
	spaces  []*space
	writers []*space // a workspace of its own for each writer
	static  []*space // workspaces nobody writes to in phase 4
	killed  *space   // the workspace of phase 3
	runDir  string   // the run's copies of the workspaces
	checkDB *postgres.DB
}

func (b *bench) logf(format string, args ...any) {
	fmt.Fprintf(b.cfg.Log, format+"\n", args...)
}

// recallOptions are every recall's: lexical, at a fixed time.
func (b *bench) recallOptions() memoria.RecallOptions {
	return memoria.RecallOptions{K: 10, Lexical: true, Now: b.now}
}

// serverOptions are the recalls' of phases 1 and 2, one workspace or all:
// recallOptions, with a team server's bound on how old an index may be
// (-max-stale; phase 4 checks every file on every recall).
func (b *bench) serverOptions() memoria.RecallOptions {
	o := b.recallOptions()
	o.MaxStale = b.cfg.MaxStale
	return o
}

// keepFresh syncs the workspaces in the background, as a team server
// does, until the returned function is called (which waits for it).
func (b *bench) keepFresh(ctx context.Context) (stop func()) {
	if b.cfg.MaxStale <= 0 {
		return func() {}
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		team.KeepFresh(ctx, b.teamSpaces(), b.cfg.MaxStale, func(m string) { b.logf("%s", m) })
	}()
	return func() { cancel(); <-done }
}

// noteFreshness records the oldest index a team-wide recall answered from.
func (b *bench) noteFreshness(fresh []team.Freshness) {
	for _, f := range fresh {
		b.rep.Team.MaxAge = max(b.rep.Team.MaxAge, ms(time.Duration(f.AgeMS)*time.Millisecond))
	}
}

// rng is a seeded random source for one goroutine of one phase.
func (b *bench) rng(phase, i uint64) *rand.Rand {
	return rand.New(rand.NewPCG(b.cfg.Seed, phase<<32|i))
}

func (b *bench) teamSpaces() []team.Space {
	out := make([]team.Space, len(b.spaces))
	for i, s := range b.spaces {
		out[i] = team.Space{Name: s.name, WS: s.ws}
	}
	return out
}

// teamRecall asks a team-wide recall of every workspace (team.RecallAll)
// and adds its time to all.
func (b *bench) teamRecall(ctx context.Context, spaces []team.Space, q string, opts memoria.RecallOptions, all *[]time.Duration) error {
	t := time.Now()
	_, fresh, err := team.RecallAll(ctx, spaces, q, opts)
	if err != nil {
		return err
	}
	*all = append(*all, time.Since(t))
	b.noteFreshness(fresh)
	return nil
}

// run measures everything on a started cluster; the report holds what
// was measured even when it returns an error.
func run(ctx context.Context, cfg config, c *pgtest.Cluster) (*report, error) {
	b := &bench{cfg: cfg, rep: &report{}, cluster: c}
	defer b.close()
	err := b.run(ctx)
	return b.rep, err
}

func (b *bench) close() {
	for _, s := range b.spaces {
		if s != nil && s.ws != nil {
			s.ws.Close()
		}
	}
	if b.checkDB != nil {
		b.checkDB.Close()
	}
	if b.runDir != "" {
		os.RemoveAll(b.runDir)
	}
}

func (b *bench) run(ctx context.Context) error {
	cfg, rep := b.cfg, b.rep
	p := &rep.Params
	p.Workspaces, p.TargetItems, p.Seed = cfg.Workspaces, cfg.Items, cfg.Seed
	p.Writers, p.Clients, p.ClientPause, p.WriterPause, p.Duration = min(cfg.Writers, cfg.Workspaces-1), cfg.Clients, ms(cfg.ClientPause), ms(cfg.WriterPause), ms(cfg.Duration)
	p.CPUs, p.Parallel = runtime.NumCPU(), cfg.Parallel
	p.PoolConns = int(postgres.DefaultMaxConns()) // memoria.Open's pool, unless -pool
	rep.Team.MaxStale = ms(cfg.MaxStale)
	if b, err := os.ReadFile("/proc/loadavg"); err == nil {
		p.LoadAverage = strings.Join(strings.Fields(string(b))[:3], " ")
	}
	if cfg.SQLite {
		p.Server, p.PoolConns, p.SQLite = "SQLite (embedded, an index in each workspace's folder)", 0, true
	} else if err := b.database(ctx); err != nil {
		return err
	}
	if err := b.setup(ctx); err != nil {
		return err
	}
	stopFresh := b.keepFresh(ctx)
	err := b.idle(ctx)
	if err == nil {
		err = b.load(ctx)
	}
	stopFresh()
	if err != nil || cfg.SQLite {
		return err // phases 3 and 4 are the shared database's
	}
	if err := b.kills(ctx); err != nil {
		return err
	}
	return b.restarts(ctx)
}

// database makes the bench's database in the cluster and the URL the
// workspaces open it by.
func (b *bench) database(ctx context.Context) error {
	cfg, p := b.cfg, &b.rep.Params
	if cfg.PGStats {
		if err := enableStatements(ctx, b.cluster); err != nil {
			return err
		}
	}
	var err error
	if b.appURL, b.super, err = appDatabase(ctx, b.cluster); err != nil {
		return err
	}
	b.url = b.appURL
	if cfg.Leakproof {
		if err := leakproof(ctx, b.super); err != nil {
			return err
		}
		p.Leakproof = true
	}
	if cfg.Pool > 0 {
		b.url += fmt.Sprintf("&pool_max_conns=%d", cfg.Pool)
		p.PoolConns = cfg.Pool
	}
	return nil
}

// setup generates the workspaces, copies them into a folder of the run's
// and builds their indexes.
func (b *bench) setup(ctx context.Context) error {
	cfg, rep := b.cfg, b.rep
	s := &rep.Setup
	if err := os.MkdirAll(cfg.Dir, 0o755); err != nil {
		return err
	}
	g := &generator{cache: cfg.Dir, seed: cfg.Seed, log: cfg.Log}
	var err error
	if g.fp, err = synthFingerprint(); err != nil {
		return err
	}
	b.logf("generating %d workspaces (%d items in all, at least) in %s", cfg.Workspaces, cfg.Items, cfg.Dir)
	t := time.Now()
	cached, days, err := g.generate(ctx, cfg.Workspaces, cfg.Items, cfg.Parallel)
	if err != nil {
		return err
	}
	s.Generate, s.Cached = ms(time.Since(t)), g.generated == 0
	rep.Params.DaysPerWorkspace = days
	// "Now" is the evening after the last daily log.
	b.now = synthStart.AddDate(0, 0, days).Add(18 * time.Hour)
	rep.Params.Now = b.now.Format(time.RFC3339)

	run, err := os.MkdirTemp("", "memoria-bench-team-")
	if err != nil {
		return err
	}
	b.runDir = run
	b.spaces = make([]*space, cfg.Workspaces)
	var mdBytes int64
	for i := range b.spaces {
		sp := &space{name: fmt.Sprintf("ws%02d", i), dir: filepath.Join(run, fmt.Sprintf("ws%02d", i))}
		n, err := copyTree(cached[i], sp.dir)
		if err != nil {
			return err
		}
		mdBytes += n
		if sp.logs, err = dailyLogs(sp.dir); err != nil {
			return err
		}
		b.spaces[i] = sp
	}
	rep.Params.MarkdownMB = float64(mdBytes) / (1 << 20)
	nw := rep.Params.Writers
	b.writers = b.spaces[:nw]
	b.killed = b.spaces[len(b.spaces)-1]
	b.static = b.spaces[nw:min(len(b.spaces), nw+8)]

	b.logf("building %d indexes, %d at once", cfg.Workspaces, cfg.Parallel)
	each := make([]time.Duration, len(b.spaces))
	t = time.Now()
	err = forEach(ctx, len(b.spaces), cfg.Parallel, func(i int) error {
		sp := b.spaces[i]
		t0 := time.Now()
		// With -sqlite, b.url is "": the index in the workspace's folder.
		ws, err := memoria.Open(ctx, sp.dir, memoria.Options{IndexPath: b.url, IndexName: sp.name})
		if err != nil {
			return err
		}
		each[i] = time.Since(t0)
		sp.ws = ws
		b.logf("  %s built in %s", sp.name, round(each[i]))
		return nil
	})
	if err != nil {
		return err
	}
	s.BuildTotal = ms(time.Since(t))
	s.Build = summarize(each)
	s.BuildEach, s.ItemsEach = map[string]ms{}, map[string]int{}
	for i, sp := range b.spaces {
		st, err := sp.ws.Status(ctx)
		if err != nil {
			return err
		}
		s.BuildEach[sp.name] = ms(each[i])
		s.ItemsEach[sp.name] = itemCount(st)
		s.Items += itemCount(st)
		s.Passages += st.Passages
		s.Facts += itemCount(st) - st.Passages
		s.Files += fileCount(st)
	}
	rep.correct("items indexed (Status: facts + passages)", thousands(s.Items), "≥ "+thousands(cfg.Items), s.Items >= cfg.Items)

	// The first sync after the builds changes a file of tables that have
	// no statistics yet (autovacuum analyzes them later, in its time).
	probe := b.spaces[len(b.spaces)-1]
	if err := appendLine(probe, b.rng(1, 1), token("p", 0, 0)); err != nil {
		return err
	}
	t = time.Now()
	if _, err := probe.ws.Sync(ctx); err != nil {
		return err
	}
	s.FirstSync = ms(time.Since(t))
	b.logf("first sync after the build (%s, one line): %s", probe.name, s.FirstSync)
	if cfg.SQLite {
		s.DatabaseSize, err = indexSize(b.spaces)
		return err
	}
	conn, err := pgx.Connect(ctx, b.appURL)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	if cfg.Analyze {
		t = time.Now()
		if _, err := conn.Exec(ctx, `ANALYZE`); err != nil {
			return err
		}
		s.Analyze = ms(time.Since(t))
	}
	if err := conn.QueryRow(ctx, `SELECT pg_database_size(current_database()), version()`).Scan(&s.DatabaseSize, &rep.Params.Server); err != nil {
		return err
	}
	if f := strings.Fields(rep.Params.Server); len(f) >= 2 {
		rep.Params.Server = f[0] + " " + f[1]
	}
	b.checkDB, err = postgres.Open(ctx, b.url, postgres.Options{})
	return err
}

// indexSize is the bytes of the workspaces' SQLite indexes: every file
// in their index folders.
func indexSize(spaces []*space) (int64, error) {
	var n int64
	for _, sp := range spaces {
		err := filepath.WalkDir(filepath.Join(sp.dir, workspace.IndexDir), func(_ string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			fi, err := d.Info()
			if err == nil {
				n += fi.Size()
			}
			return err
		})
		if err != nil {
			return 0, err
		}
	}
	return n, nil
}

// idleFresh is how long idle measures the cost of keeping the
// workspaces fresh with nothing else running.
const idleFresh = 5 * time.Second

// idle measures one-workspace and team-wide recall with nothing else
// running, and before them the cost of keeping the workspaces fresh.
func (b *bench) idle(ctx context.Context) error {
	r := b.rng(1, 0)
	opts := b.serverOptions()
	// One recall of each workspace first, as a long-lived server has done.
	for _, s := range b.spaces {
		if _, err := s.ws.Recall(ctx, questions[0], opts); err != nil {
			return err
		}
	}
	if b.cfg.MaxStale > 0 {
		// What keeping the workspaces fresh costs with nothing to do.
		b.logf("keeping fresh, idle: %v", idleFresh)
		cpu0 := readCPU()
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(idleFresh):
		}
		b.rep.Idle.FreshCPU, b.rep.Idle.FreshFor = readCPU().process(cpu0), ms(idleFresh)
	}
	b.logf("recall, idle: %d queries", b.cfg.IdleQueries)
	var d []time.Duration
	for range b.cfg.IdleQueries {
		s := b.spaces[r.IntN(len(b.spaces))]
		q := questions[r.IntN(len(questions))]
		t := time.Now()
		if _, err := s.ws.Recall(ctx, q, opts); err != nil {
			return err
		}
		d = append(d, time.Since(t))
	}
	b.rep.Idle.Recall = summarize(d)
	b.logf("team recall, idle: %d queries", b.cfg.TeamQueries)
	spaces := b.teamSpaces()
	var all []time.Duration
	for range b.cfg.TeamQueries {
		q := questions[r.IntN(len(questions))]
		if err := b.teamRecall(ctx, spaces, q, opts, &all); err != nil {
			return err
		}
	}
	b.rep.Team.Idle = summarize(all)
	if b.cfg.TeamQueries > 0 {
		b.rep.target("team recall, idle: p50", b.rep.Team.Idle.P50.String(), "≤ 100ms", time.Duration(b.rep.Team.Idle.P50) <= 100*time.Millisecond)
	}
	return nil
}
