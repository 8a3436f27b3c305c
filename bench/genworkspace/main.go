package main

import (
	"flag"
	"fmt"
	"os"
	"time"

	"memoria/bench/synth"
)

func main() {
	out := flag.String("out", "", "workspace directory to write (required)")
	days := flag.Int("days", 3650, "number of daily logs, one per day")
	seed := flag.Uint64("seed", 1, "random seed")
	start := flag.String("start", "2016-01-01", "date of the first daily log (YYYY-MM-DD)")
	flag.Parse()
	if *out == "" || *days <= 0 || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "genworkspace: usage: genworkspace -out DIR [-days 3650] [-seed 1] [-start 2016-01-01]")
		os.Exit(2)
	}
	t, err := time.Parse("2006-01-02", *start)
	if err != nil {
		fmt.Fprintf(os.Stderr, "genworkspace: bad -start %q: want YYYY-MM-DD\n", *start)
		os.Exit(2)
	}
	t0 := time.Now()
	st, err := synth.Generate(*out, synth.Options{Days: *days, Seed: *seed, Start: t})
	if err != nil {
		fmt.Fprintln(os.Stderr, "genworkspace:", err)
		os.Exit(1)
	}
	fmt.Printf("wrote %s: %d files (%d daily logs, %d long, %d with Retain: %d bullets; %d entity pages of %d entities; %d code blocks), %d lines (%d in logs, %.1f per log), %.1f MB in %v\n",
		*out, st.Files, st.DailyLogs, st.LongLogs, st.RetainSections, st.RetainBullets, st.EntityPages, st.Entities,
		st.CodeBlocks, st.Lines, st.LogLines, float64(st.LogLines)/float64(st.DailyLogs), float64(st.Bytes)/1e6,
		time.Since(t0).Round(time.Millisecond))
}
