package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"memoria"
	"memoria/recall"
)

// runContext prints the memory to inject at the start of a turn: core
// memory, then the best recall for the query, within a token budget.
func runContext(ctx context.Context, e *env, args []string) error {
	var c common
	fs := newFlags("context", e, &c)
	var o memoria.ContextOptions
	var kinds, entities stringList
	var now, since, until string
	fs.IntVar(&o.Budget, "budget", memoria.DefaultContextBudget, "token budget for everything printed (`N`), estimated as recall --budget estimates (conservatively)")
	fs.IntVar(&o.Recall.K, "k", 25, "recall at most `N` results")
	fs.StringVar(&since, "since", "", "recall only memory from `WHEN` on: 30d, 2w, YYYY-MM-DD, last week")
	fs.StringVar(&until, "until", "", "recall only memory up to `WHEN` (same forms)")
	fs.Var(&kinds, "kind", "recall only this `KIND`: world, experience, opinion, observation, passage (repeatable)")
	fs.Var(&entities, "entity", "recall only items mentioning this entity `NAME` (repeatable)")
	fs.StringVar(&now, "now", "", "treat `TIME` as the current time: YYYY-MM-DD or YYYY-MM-DDTHH:MM")
	pos, err := parseFlags(e, fs, args)
	if err != nil {
		return err
	}
	if o.Budget <= 0 {
		return usagef("--budget must be positive, got %d", o.Budget)
	}
	if o.Recall.K <= 0 {
		return usagef("--k must be at least 1, got %d", o.Recall.K)
	}
	if now != "" {
		if o.Recall.Now, err = memoria.ParseNow(now); err != nil {
			return usageError{err.Error()}
		}
	}
	if o.Recall.Since, o.Recall.Until, err = parseWindow(since, until, o.Recall.Now); err != nil {
		return err
	}
	o.Recall.Kinds, o.Recall.Entities = kinds, entities
	text := strings.Join(pos, " ")
	ws, err := c.open(ctx, e, true)
	if err != nil {
		return err
	}
	defer ws.Close()
	tc, err := ws.Context(ctx, text, o)
	if err != nil {
		if errors.Is(err, memoria.ErrInvalid) {
			return usagef("%v", err)
		}
		return err
	}
	return printContext(e, &c, tc)
}

// printContext prints a turn context as Markdown, or JSON with --json.
func printContext(e *env, c *common, tc memoria.TurnContext) error {
	if c.json {
		if tc.Results == nil {
			tc.Results = []recall.Result{} // [] in JSON, as recall prints none (gob sends an empty list as none)
		}
		return writeJSON(e.stdout, tc)
	}
	_, err := fmt.Fprint(e.stdout, tc.Markdown())
	return err
}
