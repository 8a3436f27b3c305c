//go:build unix

package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"syscall"
	"time"

	"memoria/internal/pgtest"
	"memoria/team"
)

// config is what a run measures; flags set it, and the test sets it small.
type config struct {
	Workspaces  int           // workspaces in the database
	Items       int           // at least this many items in all
	Duration    time.Duration // the load of phase 2
	RestartFor  time.Duration // phase 4, at least
	Kills       int           // SIGKILL trials of phase 3
	Restarts    int           // server restarts of phase 4
	Writers     int           // writers in phases 2 and 4, one workspace each
	Clients     int           // recalling clients in phases 2 and 4
	ClientPause time.Duration // mean pause of a client between its recalls in phase 2 (exponential); 0: none
	WriterPause time.Duration // mean pause of a writer between its syncs in phase 2 (exponential); 0: none
	TeamQueries int           // team-wide recalls, idle and under load
	IdleQueries int           // one-workspace recalls with nothing else running
	Change      int           // daily logs added or changed by the killed sync
	Parallel    int           // workspaces built at once
	Pool        int           // connections of the process's pool; 0: memoria's default
	Seed        uint64
	Dir         string        // cache of generated workspaces
	Analyze     bool          // ANALYZE the database after the builds
	Leakproof   bool          // mark ts_match_vq LEAKPROOF (an experiment)
	PGStats     bool          // load pg_stat_statements and report the top statements
	CPUProfile  string        // CPU profile of this process during the load
	MaxStale    time.Duration // team-wide recall's bound on an index's age (team.Options.MaxStale); 0: every recall syncs
	SQLite      bool          // the embedded SQLite index, one per workspace, instead of the shared database
	Log         io.Writer
}

func main() {
	if os.Getenv(childEnv) != "" {
		os.Exit(childMain())
	}
	cfg := config{Log: os.Stderr}
	flag.IntVar(&cfg.Workspaces, "workspaces", 50, "workspaces in the shared database")
	flag.IntVar(&cfg.Items, "items", 1_000_000, "items (facts and passages) in all workspaces together, at least")
	flag.DurationVar(&cfg.Duration, "duration", 60*time.Second, "how long the load of writers and clients runs")
	flag.DurationVar(&cfg.RestartFor, "restart-duration", 30*time.Second, "how long the load around the server restarts runs, at least")
	flag.IntVar(&cfg.Kills, "kills", 20, "syncs killed with SIGKILL")
	flag.IntVar(&cfg.Restarts, "restarts", 2, "server restarts under load (a fast restart, then a crash and restart, alternately)")
	flag.IntVar(&cfg.Writers, "writers", 8, "writers, each syncing a workspace of its own")
	flag.IntVar(&cfg.Clients, "clients", 16, "clients recalling in random workspaces")
	flag.DurationVar(&cfg.ClientPause, "client-pause", 0, "mean pause of each client between its recalls under load, drawn from an exponential distribution (agents that think between questions); 0: clients never pause")
	flag.DurationVar(&cfg.WriterPause, "writer-pause", 0, "mean pause of each writer between its syncs under load, drawn from an exponential distribution (agents that write between turns); 0: writers never pause")
	flag.IntVar(&cfg.TeamQueries, "team-queries", 100, "team-wide recalls, idle and under load")
	flag.IntVar(&cfg.IdleQueries, "idle-queries", 200, "one-workspace recalls with nothing else running")
	flag.IntVar(&cfg.Change, "change", 200, "daily logs added or changed by each killed sync")
	flag.IntVar(&cfg.Parallel, "parallel", runtime.NumCPU(), "workspaces built at once")
	flag.IntVar(&cfg.Pool, "pool", 0, "connections in the process's pool (pool_max_conns in the URL); 0 keeps memoria's default (postgres.DefaultMaxConns: 4 per CPU, at least 8)")
	seed := flag.Uint64("seed", 1, "seed of the workspaces and of every random choice")
	flag.StringVar(&cfg.Dir, "dir", "", "cache of generated workspaces (default: memoria/bench-team in the user cache folder)")
	jsonOut := flag.String("json", "", "also write the figures as JSON to this file")
	flag.BoolVar(&cfg.Analyze, "analyze", true, "ANALYZE the database after the builds, as autovacuum does in its time, so that the load meets the steady state")
	flag.BoolVar(&cfg.Leakproof, "leakproof", false, "an experiment: as the superuser, mark ts_match_vq (tsvector @@ tsquery) LEAKPROOF in the bench's database, so that row-level security lets full-text conditions use the GIN indexes")
	flag.BoolVar(&cfg.PGStats, "pgstats", false, "load pg_stat_statements and report the statements that took the most time")
	flag.StringVar(&cfg.CPUProfile, "cpuprofile", "", "write a CPU profile of this process during the load")
	ideal := flag.Bool("ideal", false, "with -quality: also count the workspaces an exact bound on each workspace's best merge key would ask (every workspace's recall again, for each question: slow)")
	perQ := flag.Bool("per-question", false, "with -quality: also print each question team-wide recall did not answer first, with its first hit team-wide and alone and the first three results")
	qualityDir := flag.String("quality", "", "measure the answers of team-wide recall instead: index every workspace of the data set in `DIR` (those its queries.jsonl names, as longmemeval100's do, and every folder of DIR/workspaces, as bench/teamset's) into one database, ask each question of all of them at once and score the top 10 against its gold (R@10, MRR), then, if it names a workspace of its own, of that one alone")
	flag.BoolVar(&cfg.SQLite, "sqlite", false, "run phases 1 and 2 on the embedded SQLite index, one per workspace in its folder (the default backend), instead of the shared PostgreSQL database: what the same workspaces, questions and load cost without a database server; phases 3 and 4 and the database's figures are PostgreSQL's and are skipped")
	flag.DurationVar(&cfg.MaxStale, "max-stale", team.DefaultMaxStale, "how old a workspace's index may be for a team-wide recall, kept so by a background sync every max-stale/2 as a team server does; 0: each team-wide recall syncs every workspace first")
	flag.Parse()
	cfg.Seed = *seed
	if *qualityDir != "" {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		code := qualityMain(ctx, *qualityDir, qualityOptions{Leakproof: cfg.Leakproof, Ideal: *ideal, PerQuestion: *perQ})
		stop()
		os.Exit(code)
	}
	if cfg.Dir == "" {
		d, err := os.UserCacheDir()
		if err != nil {
			fmt.Fprintln(os.Stderr, "team:", err)
			os.Exit(2)
		}
		cfg.Dir = filepath.Join(d, "memoria", "bench-team")
	}
	if err := cfg.check(); err != nil {
		fmt.Fprintln(os.Stderr, "team:", err)
		os.Exit(2)
	}
	os.Exit(runMain(cfg, *jsonOut))
}

func (c config) check() error {
	switch {
	case c.Workspaces < 2:
		return errors.New("-workspaces: at least 2")
	case c.Items < 1:
		return errors.New("-items: at least 1")
	case c.Writers < 1 || c.Clients < 1:
		return errors.New("-writers and -clients: at least 1")
	case c.Duration <= 0 || c.RestartFor <= 0:
		return errors.New("-duration and -restart-duration: more than 0")
	case c.Kills < 0 || c.Restarts < 0 || c.TeamQueries < 0 || c.IdleQueries < 0:
		return errors.New("-kills, -restarts, -team-queries and -idle-queries: not negative")
	case c.Change < 2:
		return errors.New("-change: at least 2")
	case c.MaxStale < 0:
		return errors.New("-max-stale: not negative")
	case c.Pool < 0:
		return errors.New("-pool: not negative")
	case c.Parallel < 1:
		return errors.New("-parallel: at least 1")
	case c.SQLite && (c.PGStats || c.Leakproof || c.Pool > 0):
		return errors.New("-pgstats, -leakproof and -pool: PostgreSQL's only, not with -sqlite")
	}
	return nil
}

// runMain runs the bench on a cluster of its own; it returns the exit
// code.
func runMain(cfg config, jsonOut string) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if cfg.SQLite {
		return runOn(ctx, nil, cfg, jsonOut)
	}
	return withCluster(func(c *pgtest.Cluster) int { return runOn(ctx, c, cfg, jsonOut) })
}

// withCluster starts a private cluster, runs f on it and stops the
// cluster whatever f did; it returns f's exit code, or 1 when the cluster
// did not start.
func withCluster(f func(*pgtest.Cluster) int) int {
	c, err := pgtest.Start("")
	if err != nil {
		fmt.Fprintln(os.Stderr, "team:", err)
		return 1
	}
	defer func() {
		if err := c.Stop(); err != nil {
			fmt.Fprintln(os.Stderr, "team:", err)
		}
	}()
	return f(c)
}

// runOn runs the bench on a started cluster (nil with -sqlite) and prints
// its report; it returns the exit code.
func runOn(ctx context.Context, c *pgtest.Cluster, cfg config, jsonOut string) int {
	rep, err := run(ctx, cfg, c)
	if rep != nil {
		rep.print(os.Stdout)
		if jsonOut != "" {
			b, jerr := json.MarshalIndent(rep, "", "  ")
			if jerr == nil {
				jerr = os.WriteFile(jsonOut, append(b, '\n'), 0o644)
			}
			if jerr != nil {
				fmt.Fprintln(os.Stderr, "team:", jerr)
				return 1
			}
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "team:", err)
		return 1
	}
	if failed := rep.failures(); len(failed) > 0 {
		fmt.Fprintf(os.Stderr, "team: %d correctness checks failed\n", len(failed))
		return 1
	}
	return 0
}
