// Command genworkspace writes a deterministic synthetic Memoria workspace,
// by default ten years of daily logs, for benchmarks and load tests:
//
//	go run ./bench/genworkspace -out /tmp/ws10y [-days 3650] [-seed 1] [-start 2016-01-01]
//
// The same flags always produce byte-identical files. It prints what it wrote
// (files, lines, bytes) and how long it took. See package memoria/bench/synth
// for the content model.
package main
