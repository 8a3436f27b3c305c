package flock

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// holders names the other processes that hold a flock on f's file, from
// /proc/locks, as "pid 1234 (memoria serve …)": a lock that is not
// given up in time then says who keeps it.
func holders(f *os.File) []string {
	fi, err := f.Stat()
	if err != nil {
		return nil
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return nil
	}
	data, err := os.ReadFile("/proc/locks")
	if err != nil {
		return nil
	}
	inode := ":" + strconv.FormatUint(st.Ino, 10)
	var out []string
	seen := map[int]bool{os.Getpid(): true}
	for _, line := range strings.Split(string(data), "\n") {
		// "1: FLOCK  ADVISORY  WRITE 1234 08:01:5678 0 EOF"; waiters
		// ("1: -> FLOCK …") hold nothing.
		f := strings.Fields(line)
		if len(f) < 6 || f[1] != "FLOCK" || !strings.HasSuffix(f[5], inode) {
			continue
		}
		pid, err := strconv.Atoi(f[4])
		if err != nil || seen[pid] {
			continue
		}
		seen[pid] = true
		out = append(out, fmt.Sprintf("pid %d (%s)", pid, commandLine(pid)))
	}
	return out
}

// commandLine is a process's command line, shortened, or "?".
func commandLine(pid int) string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	if err != nil || len(b) == 0 {
		return "?"
	}
	args := strings.Fields(string(bytes.ReplaceAll(bytes.TrimRight(b, "\x00"), []byte{0}, []byte{' '})))
	if len(args) > 0 {
		args[0] = args[0][strings.LastIndexByte(args[0], '/')+1:]
	}
	s := strings.Join(args, " ")
	if len(s) > 60 {
		s = s[:57] + "..."
	}
	return s
}
