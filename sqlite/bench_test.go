package sqlite

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"memoria/bench/synth"
	"memoria/memory"
	"memoria/workspace"
)

var (
	tenYearsOnce sync.Once
	tenYearsDir  string
	tenYearsErr  error
)

// tenYears generates the synthetic 10-year workspace (3,650 daily logs)
// once per test binary, in a folder removed at exit by the OS temp cleaner
// (TestMain is not needed: benchmarks only read it).
func tenYears(b *testing.B) string {
	b.Helper()
	tenYearsOnce.Do(func() {
		tenYearsDir, tenYearsErr = os.MkdirTemp("", "memoria-ten-years-")
		if tenYearsErr == nil {
			_, tenYearsErr = synth.Generate(tenYearsDir, synth.Options{})
		}
	})
	if tenYearsErr != nil {
		b.Fatal(tenYearsErr)
	}
	return tenYearsDir
}

// tenYearsIndex is the 10-year workspace and an index of it, built in a
// folder of b's, closed when b ends.
func tenYearsIndex(b *testing.B) (string, *Index) {
	b.Helper()
	ws := tenYears(b)
	ix, err := OpenAt(context.Background(), ws, filepath.Join(b.TempDir(), "index.sqlite"), Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { ix.Close() })
	return ws, ix
}

// BenchmarkBuild10Years is a full index of the 10-year workspace from
// scratch (parse every file, fill every table and the full-text index).
func BenchmarkBuild10Years(b *testing.B) {
	ws := tenYears(b)
	ctx := context.Background()
	cpu := cpuTime()
	defer func() { b.ReportMetric((cpuTime()-cpu).Seconds()/float64(b.N), "cpu-s/op") }()
	files, skipped, err := workspace.List(ws)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		path := filepath.Join(b.TempDir(), "index.sqlite")
		st, err := build(ctx, path, ws, files, skipped, Options{}, false)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(st.Items), "items")
	}
}

// BenchmarkSyncOneFile is the incremental update after one daily log
// changed: the freshness check over 3,754 files plus re-parsing one.
func BenchmarkSyncOneFile(b *testing.B) {
	ws, ix := tenYearsIndex(b)
	ctx := context.Background()
	log := filepath.Join(ws, "memory", "2020-06-15.md")
	orig, err := os.ReadFile(log)
	if err != nil {
		b.Fatal(err)
	}
	defer os.WriteFile(log, orig, 0o644)
	i := 0
	for b.Loop() {
		b.StopTimer()
		i++
		data := append(append([]byte{}, orig...), []byte("\n- an edit, number "+time.Duration(i).String()+"\n")...)
		if err := os.WriteFile(log, data, 0o644); err != nil {
			b.Fatal(err)
		}
		ts := time.Unix(1_900_000_000+int64(i), 0)
		os.Chtimes(log, ts, ts)
		b.StartTimer()
		st, err := ix.Sync(ctx)
		if err != nil {
			b.Fatal(err)
		}
		if st.Parsed != 1 {
			b.Fatalf("parsed %d files, want 1", st.Parsed)
		}
	}
}

// BenchmarkSyncNoChange is the freshness check alone, as every recall
// does it.
func BenchmarkSyncNoChange(b *testing.B) {
	_, ix := tenYearsIndex(b)
	ctx := context.Background()
	for b.Loop() {
		if _, err := ix.Sync(ctx); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBoundLimit ranks the matches of a word few of the 10-year
// workspace's items contain, with the statement as searches run it
// (limits written +?) and as it was (bare ?): SQLite prepares the latter
// again at each run, because its plan read the limit's value.
func BenchmarkBoundLimit(b *testing.B) {
	_, ix := tenYearsIndex(b)
	ctx := context.Background()
	for _, bc := range []struct{ name, q string }{
		{"plus", newestRanked},
		{"bare", strings.ReplaceAll(newestRanked, "+?", "?")},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				rows, err := ix.rankNewest(ctx, func(ctx context.Context, _ string, args []any, each func(*sql.Rows) error) error {
					return ix.read(ctx, bc.q, args, each)
				}, `"absence"`, 0, memory.MaxScoredRows, 10)
				if err != nil {
					b.Fatal(err)
				}
				if len(rows) == 0 {
					b.Fatal("no match")
				}
			}
		})
	}
}
