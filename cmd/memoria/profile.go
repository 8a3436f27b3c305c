package main

import (
	"fmt"
	"os"
	"runtime/pprof"
)

// profiled runs f with a CPU profile written to $MEMORIA_CPUPROFILE when
// it is set: how the project measures where a single command's time goes.
func profiled(f func() int) int {
	path := os.Getenv("MEMORIA_CPUPROFILE")
	if path == "" {
		return f()
	}
	out, err := os.Create(path)
	if err != nil {
		fmt.Fprintf(os.Stderr, "memoria: cpu profile: %v\n", err)
		return f()
	}
	defer out.Close()
	if err := pprof.StartCPUProfile(out); err != nil {
		fmt.Fprintf(os.Stderr, "memoria: cpu profile: %v\n", err)
		return f()
	}
	defer pprof.StopCPUProfile()
	return f()
}
