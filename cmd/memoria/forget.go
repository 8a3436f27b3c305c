package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"unicode"

	"memoria"
	"memoria/workspace"
)

// runForget removes lines from memory, by citation, entity or query,
// leaving a tombstone and a record so that nothing brings them back.
func runForget(ctx context.Context, e *env, args []string) error {
	var c common
	var o memoria.ForgetOptions
	var entities stringList
	var now string
	fs := newFlags("forget", e, &c)
	fs.Var(&entities, "entity", "forget every line that names this entity `NAME` (name, alias or slug; repeatable)")
	fs.StringVar(&o.Query, "query", "", "forget the lines of the results of recalling `TEXT`")
	fs.IntVar(&o.K, "k", memoria.DefaultForgetK, "with --query: the first `N` results")
	fs.StringVar(&o.Reason, "reason", "", "why, kept in the tombstone and the record (`TEXT`, one line)")
	fs.BoolVar(&o.NoTrace, "no-trace", false, "leave no tombstone where the lines were (the record is kept all the same)")
	fs.BoolVar(&o.DryRun, "dry-run", false, "show which lines of which files would go, and change nothing")
	fs.StringVar(&now, "now", "", "the day to record, `YYYY-MM-DD` (default: today); also --query's now")
	pos, err := parseFlags(e, fs, args)
	if err != nil {
		return err
	}
	if o.K <= 0 {
		return usagef("--k must be at least 1, got %d", o.K)
	}
	if now != "" {
		if o.Now, err = memoria.ParseNow(now); err != nil {
			return usageError{err.Error()}
		}
	}
	o.Sources, o.Entities = pos, entities
	if len(o.Sources) == 0 && len(o.Entities) == 0 && strings.TrimSpace(o.Query) == "" {
		return usagef("forget needs citations (memory/2025-11-27.md#L3-L4), --entity NAME or --query TEXT; try --dry-run first")
	}
	ws, err := c.open(ctx, e, true)
	if err != nil {
		return err
	}
	defer ws.Close()
	rep, err := ws.Forget(ctx, o)
	if err != nil {
		return forgetError(err)
	}
	for _, w := range rep.Warnings {
		fmt.Fprintf(e.stderr, "warning: %s\n", oneLine(w))
	}
	if c.json {
		return writeJSON(e.stdout, rep)
	}
	printForget(e.stdout, rep)
	return nil
}

// forgetError maps Forget's errors to exit codes: a bad citation or an
// ambiguous name is usage (2); lines, a file or an entity that are not
// there, or a selection of nothing, are not found (4).
func forgetError(err error) error {
	switch {
	case errors.Is(err, memoria.ErrInvalid) || errors.Is(err, workspace.ErrNotMemoryFile) || errors.Is(err, workspace.ErrBadSource):
		return usageError{err.Error()}
	case errors.Is(err, fs.ErrNotExist) || errors.Is(err, workspace.ErrNoLines) ||
		errors.Is(err, memoria.ErrUnknownEntity) || errors.Is(err, memoria.ErrNothingToForget):
		return notFoundError{err}
	}
	return err
}

// printForget prints what went, file by file, with each line's number,
// text and why.
func printForget(w io.Writer, rep memoria.ForgetReport) {
	what := plural(rep.Lines, "line") + " in " + plural(len(rep.Files), "file")
	if rep.DryRun {
		fmt.Fprintf(w, "dry run: would forget %s (nothing was changed)\n", what)
	} else {
		fmt.Fprintf(w, "forgot %s\n", what)
	}
	for _, f := range rep.Files {
		if f.Removed {
			fmt.Fprintf(w, "%s (the whole page goes: its name names the entity)\n", terminalSafe(f.Path))
		} else {
			fmt.Fprintln(w, terminalSafe(f.Path))
		}
		for _, l := range f.Lines {
			note := l.Why
			if !l.Recorded {
				note += "; not recorded: too short to tell from other lines"
			}
			fmt.Fprintf(w, "  L%-5d %s   (%s)\n", l.Line, terminalSafe(l.Text), terminalSafe(note))
		}
	}
	verb := map[bool]string{true: "would leave", false: "left"}[rep.DryRun]
	if rep.Tombstone != "" {
		fmt.Fprintf(w, "tombstone: %s %s where lines of memory files were\n", verb, rep.Tombstone)
	} else {
		fmt.Fprintf(w, "tombstone: none (--no-trace)\n")
	}
	verb = map[bool]string{true: "would get", false: "got"}[rep.DryRun]
	hashes := "new hashes"
	if rep.Recorded == 1 {
		hashes = "new hash"
	}
	fmt.Fprintf(w, "record: %s %s %d %s (never the text), so that no index or import brings them back\n", rep.Record, verb, rep.Recorded, hashes)
	if !rep.DryRun {
		fmt.Fprintf(w, "index: updated; %s removed\n", plural(rep.Vectors, "vector"))
	}
}

// terminalSafe shows control characters of memory text (an escape
// sequence a pasted log may hold) as U+FFFD rather than send them to the
// terminal.
func terminalSafe(s string) string {
	return strings.Map(func(r rune) rune {
		if r != '\t' && unicode.IsControl(r) {
			return '\uFFFD'
		}
		return r
	}, s)
}
