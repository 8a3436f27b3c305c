package reflect

import (
	"context"
	"testing"

	"memoria/bench/synth"
)

// BenchmarkReflect10Years runs reflect (load, parse, compute; a dry run)
// over the synthetic 10-year workspace: 3,650 daily logs.
func BenchmarkReflect10Years(b *testing.B) {
	dir := b.TempDir()
	st, err := synth.Generate(dir, synth.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(st.DailyLogs), "logs")
	ctx := context.Background()
	var p *Plan
	for b.Loop() {
		if p, err = Run(ctx, dir, Options{}, true, WriteOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(p.Report.Facts), "facts")
	b.ReportMetric(float64(len(p.Changes)), "files")
}

// BenchmarkReflect10YearsWrite is a full first run that writes, then the
// second (idempotent) run, over the 10-year workspace.
func BenchmarkReflect10YearsWrite(b *testing.B) {
	ctx := context.Background()
	for b.Loop() {
		b.StopTimer()
		dir := b.TempDir()
		if _, err := synth.Generate(dir, synth.Options{}); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if _, err := Run(ctx, dir, Options{}, false, WriteOptions{}); err != nil {
			b.Fatal(err)
		}
		p, err := Run(ctx, dir, Options{}, false, WriteOptions{})
		if err != nil {
			b.Fatal(err)
		}
		if len(p.Changes) != 0 {
			b.Fatalf("second run changes %v", p.Report.Changed)
		}
	}
}
