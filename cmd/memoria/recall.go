package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"memoria"
)

// stringList is a repeatable or comma-separated flag.
type stringList []string

func (s *stringList) String() string { return strings.Join(*s, ",") }
func (s *stringList) Set(v string) error {
	for _, p := range strings.Split(v, ",") {
		if p = strings.TrimSpace(p); p != "" {
			*s = append(*s, p)
		}
	}
	return nil
}

// runRecall searches memory and prints cited results.
func runRecall(ctx context.Context, e *env, args []string) error {
	var c common
	fs := newFlags("recall", e, &c)
	var o memoria.RecallOptions
	var kinds, entities stringList
	var now string
	fs.IntVar(&o.K, "k", 25, "number of results")
	fs.IntVar(&o.Budget, "budget", 0, "token budget for all results (0: none; ~4 bytes per token)")
	fs.StringVar(&o.Since, "since", "", "only memory from this time on: 30d, 2w, 6m, 1y, YYYY-MM-DD, yesterday")
	fs.StringVar(&o.Until, "until", "", "only memory up to this time (same forms)")
	fs.Var(&kinds, "kind", "only these kinds: world, experience, opinion, observation, passage (repeatable)")
	fs.Var(&entities, "entity", "only items mentioning this entity (name, alias or slug; repeatable)")
	fs.StringVar(&now, "now", "", "treat this as the current time: YYYY-MM-DD or YYYY-MM-DDTHH:MM (for reproducible relative times)")
	fs.BoolVar(&o.Explain, "explain", false, "show why each result ranks where it does")
	pos, err := parseFlags(e, fs, args)
	if err != nil {
		return err
	}
	if o.K <= 0 {
		return usagef("--k must be at least 1, got %d", o.K)
	}
	if o.Budget < 0 {
		return usagef("--budget must not be negative, got %d", o.Budget)
	}
	if now != "" {
		if o.Now, err = memoria.ParseNow(now); err != nil {
			return usageError{err.Error()}
		}
	}
	o.Kinds, o.Entities = kinds, entities
	text := strings.Join(pos, " ")
	ws, err := c.open(ctx, e, true)
	if err != nil {
		return err
	}
	defer ws.Close()
	results, err := ws.Recall(ctx, text, o)
	if err != nil {
		return err
	}
	if c.json {
		enc := json.NewEncoder(e.stdout)
		enc.SetEscapeHTML(false)
		if results == nil {
			return enc.Encode([]any{})
		}
		return enc.Encode(results)
	}
	if len(results) == 0 {
		fmt.Fprintln(e.stderr, "no results")
		return nil
	}
	for i, r := range results {
		if i > 0 {
			fmt.Fprintln(e.stdout)
		}
		meta := []string{string(r.Kind)}
		if r.Timestamp != "" {
			meta = append(meta, r.Timestamp)
		}
		if r.EventTime != nil {
			meta = append(meta, "event "+r.EventTime.Start+"…"+r.EventTime.End)
		}
		if r.Confidence != nil {
			meta = append(meta, fmt.Sprintf("c=%.2f", *r.Confidence))
		}
		if len(r.Entities) > 0 {
			meta = append(meta, "@"+strings.Join(r.Entities, " @"))
		}
		fmt.Fprintf(e.stdout, "%s  (%s)\n", r.Source, strings.Join(meta, ", "))
		for _, line := range strings.Split(r.Content, "\n") {
			fmt.Fprintf(e.stdout, "  %s\n", line)
		}
		if r.Explain != nil {
			fmt.Fprintf(e.stdout, "  [score %.3f; fused %.5f; ranks %v; boosts %v]\n", r.Score, r.Explain.Fused, r.Explain.Channels, r.Explain.Boosts)
		}
	}
	return nil
}
