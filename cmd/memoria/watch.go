package main

import (
	"context"
	"fmt"
	"time"

	"memoria/watch"
)

// runWatch keeps the index fresh while the workspace's files change, until
// interrupted.
func runWatch(ctx context.Context, e *env, args []string) error {
	var c common
	fs := newFlags("watch", e, &c)
	debounce := fs.Duration("debounce", watch.DefaultDebounce, "wait for changes to be quiet this long (`DURATION`: 300ms, 2s) before re-indexing")
	pos, err := parseFlags(e, fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("watch takes no arguments, got %q", pos[0])
	}
	if *debounce < 10*time.Millisecond || *debounce > time.Minute {
		return usagef("--debounce must be between 10ms and 1m, got %s", *debounce)
	}
	ws, err := c.open(ctx, e, true)
	if err != nil {
		return err
	}
	o := watch.Options{
		Debounce: *debounce,
		OnSync:   syncLogger(e, e.stdout, c.json),
		Warn:     func(msg string) { fmt.Fprintf(e.stderr, "warning: %s\n", oneLine(msg)) },
	}
	defer ws.Close()
	return watch.Run(ctx, ws, o)
}
