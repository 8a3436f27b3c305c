package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"

	"memoria/workspace"
)

// runGet prints the lines a citation points at, from the Markdown itself.
func runGet(ctx context.Context, e *env, args []string) error {
	var c common
	flags := newFlags("get", e, &c)
	pos, err := parseFlags(e, flags, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return usagef("get needs a citation such as memory/2025-11-27.md#L12-L15")
	}
	res, err := c.resolve(e)
	if err != nil {
		return err
	}
	if err := workspace.Check(res.Dir); err != nil {
		return err
	}
	var out []workspace.Lines
	for _, ref := range pos {
		l, err := workspace.ReadLines(res.Dir, ref)
		switch {
		case errors.Is(err, workspace.ErrBadSource) || errors.Is(err, workspace.ErrNotMemoryFile):
			return usageError{err.Error()}
		case errors.Is(err, fs.ErrNotExist) || errors.Is(err, workspace.ErrNoLines):
			return notFoundError{err}
		case err != nil:
			return err
		}
		if l.Clipped {
			fmt.Fprintf(e.stderr, "note: %s has %d lines; printed %s\n", l.Source.Path, l.FileLines, l.Source)
		}
		out = append(out, l)
	}
	if c.json {
		list := make([]map[string]string, len(out))
		for i, l := range out {
			list[i] = map[string]string{"source": l.Source.String(), "content": l.Text}
		}
		return writeJSON(e.stdout, list)
	}
	for i, l := range out {
		if len(out) > 1 {
			if i > 0 {
				fmt.Fprintln(e.stdout)
			}
			fmt.Fprintf(e.stdout, "%s\n", l.Source)
		}
		fmt.Fprintln(e.stdout, l.Text)
	}
	return nil
}
