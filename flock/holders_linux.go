package flock

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// holders are the other processes that hold a flock on f's file, from
// /proc/locks: a lock that is not given up in time then says who keeps it.
func holders(f *os.File) []Holder {
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
	var out []Holder
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
		out = append(out, Holder{PID: pid, Command: commandLine(pid)})
	}
	return out
}

// commandLine is a process's command line, shortened, or "?".
func commandLine(pid int) string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	if err != nil || len(b) == 0 {
		return "?"
	}
	return shorten(strings.Split(string(bytes.TrimRight(b, "\x00")), "\x00"))
}
