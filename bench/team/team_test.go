//go:build unix

package main

import (
	"context"
	"os"
	"slices"
	"testing"
	"time"

	"memoria/internal/pgtest"
)

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) != "" {
		os.Exit(childMain()) // phase 3 runs the test binary as its child
	}
	os.Exit(m.Run())
}

// TestTiny runs the whole bench at a tiny scale: 3 workspaces, about 5,000
// items, 3 seconds of load, 3 kills and one restart. It checks what must
// hold on any machine (no violation, no wrong or lost answer), not the
// latency targets.
func TestTiny(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a PostgreSQL cluster and runs for about a minute")
	}
	c := pgtest.StartOwn(t)
	cfg := config{
		Workspaces:  3,
		Items:       5000,
		Duration:    3 * time.Second,
		RestartFor:  3 * time.Second,
		Kills:       3,
		Restarts:    1,
		Writers:     8,
		Clients:     4,
		TeamQueries: 10,
		IdleQueries: 20,
		Change:      40,
		Parallel:    2,
		Analyze:     true,
		Seed:        1,
		Dir:         t.TempDir(),
		Log:         testWriter{t},
	}
	rep, err := run(context.Background(), cfg, c)
	if rep != nil {
		rep.print(testWriter{t})
	}
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range rep.failures() {
		t.Errorf("%s: %s, want %s", f.Name, f.Value, f.Target)
	}
	if rep.Setup.Items < cfg.Items || rep.Setup.Items > 2*cfg.Items {
		t.Errorf("%d items, want %d or a little more", rep.Setup.Items, cfg.Items)
	}
	if rep.Load.Syncs == 0 || rep.Load.Recall.N == 0 || rep.Team.Loaded.N != cfg.TeamQueries || rep.Team.Idle.N != cfg.TeamQueries {
		t.Errorf("the load measured nothing: %d syncs, %d recalls, %d+%d team recalls", rep.Load.Syncs, rep.Load.Recall.N, rep.Team.Idle.N, rep.Team.Loaded.N)
	}
	if k := rep.Kill; k.Trials != cfg.Kills || k.Before+k.After+k.Finished != k.Trials {
		t.Errorf("kills: %+v", k)
	}
	if r := rep.Restart; len(r.Events) != cfg.Restarts || r.Retains == 0 || r.Recalls == 0 {
		t.Errorf("restarts: %d events, %d retains, %d recalls", len(r.Events), r.Retains, r.Recalls)
	}
}

// TestCache checks that a second run finds its workspaces in the cache.
func TestCache(t *testing.T) {
	ctx := context.Background()
	g := &generator{cache: t.TempDir(), seed: 1, log: testWriter{t}}
	var err error
	if g.fp, err = synthFingerprint(); err != nil {
		t.Fatal(err)
	}
	dirs, days, err := g.generate(ctx, 2, 3000, 2)
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, d := range dirs {
		n, err := countItems(ctx, d)
		if err != nil {
			t.Fatal(err)
		}
		total += n
	}
	if total < 3000 || g.generated == 0 {
		t.Fatalf("%d items in %d days, %d workspaces generated", total, days, g.generated)
	}
	g.generated = 0
	again, days2, err := g.generate(ctx, 2, 3000, 2)
	if err != nil {
		t.Fatal(err)
	}
	if g.generated != 0 || days2 != days || !slices.Equal(again, dirs) {
		t.Errorf("second run: %d generated, %d days (first %d)", g.generated, days2, days)
	}
}

// testWriter sends the bench's progress and table to the test log.
type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(string(p))
	return len(p), nil
}
