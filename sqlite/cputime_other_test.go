//go:build !unix

package sqlite

import "time"

// cpuTime is not measured here (no getrusage): the benchmarks report 0.
func cpuTime() time.Duration { return 0 }
