//go:build unix

package main

import (
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// cpuSample is this process's CPU time and the machine's (from
// /proc/stat, where there is one), at one moment.
type cpuSample struct {
	at                    time.Time
	self                  time.Duration
	busyTicks, totalTicks uint64 // clock ticks of all CPUs; zero without /proc/stat
}

func readCPU() cpuSample {
	s := cpuSample{at: time.Now()}
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) == nil {
		s.self = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return s
	}
	line, _, _ := strings.Cut(string(b), "\n")
	f := strings.Fields(line)
	if len(f) < 5 || f[0] != "cpu" {
		return s
	}
	for i, v := range f[1:min(len(f), 9)] { // user to steal; guest is counted in user
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			return cpuSample{at: s.at, self: s.self}
		}
		s.totalTicks += n
		if i != 3 && i != 4 { // idle, iowait
			s.busyTicks += n
		}
	}
	return s
}

// process is the cores this process kept busy between s0 and s.
func (s cpuSample) process(s0 cpuSample) float64 {
	return float64(s.self-s0.self) / float64(s.at.Sub(s0.at))
}

// busy is the fraction of the machine's CPU time that was busy between
// s0 and s (0 where it is unknown).
func (s cpuSample) busy(s0 cpuSample) float64 {
	if s.totalTicks <= s0.totalTicks {
		return 0
	}
	return float64(s.busyTicks-s0.busyTicks) / float64(s.totalTicks-s0.totalTicks)
}
