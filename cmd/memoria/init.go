package main

import (
	"context"
	"fmt"

	"memoria/workspace"
)

// runInit creates the workspace layout; existing files are kept as they are.
func runInit(ctx context.Context, e *env, args []string) error {
	var c common
	fs := newFlags("init", e, &c)
	pos, err := parseFlags(e, fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 1 {
		return usagef("init takes at most one folder, got %d", len(pos))
	}
	if len(pos) == 1 && c.workspace == "" {
		c.workspace = pos[0]
	}
	res, err := c.resolve(e)
	if err != nil {
		return err
	}
	out, err := workspace.Init(res.Dir)
	if err != nil {
		return err
	}
	for _, p := range out.Created {
		fmt.Fprintf(e.stdout, "created %s\n", p)
	}
	for _, p := range out.Kept {
		fmt.Fprintf(e.stdout, "kept    %s (already there)\n", p)
	}
	fmt.Fprintf(e.stdout, "workspace ready: %s\n", res.Dir)
	return nil
}
